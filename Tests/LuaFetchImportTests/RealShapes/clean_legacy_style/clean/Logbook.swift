import Foundation

class Logbook: NSObject {
    let path: String
    var entries = [[String: AnyObject]]()
    fileprivate var dirty = false

    init(path: String) {
        self.path = path
        super.init()
        if let saved = NSArray(contentsOfFile: path) as? [[String: AnyObject]] {
            entries = saved
        }
    }

    func markDirty() {
        dirty = true
    }

    func dropCaches() {
        entries.removeAll(keepingCapacity: false)
    }

    func save() {
        guard dirty else { return }
        let started = CFAbsoluteTimeGetCurrent()
        (entries as NSArray).write(toFile: path, atomically: true)
        dirty = false
        print("saved logbook in \(CFAbsoluteTimeGetCurrent() - started) s")
    }
}

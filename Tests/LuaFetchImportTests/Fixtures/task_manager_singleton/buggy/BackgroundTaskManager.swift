import UIKit

/// Bookkeeping for UIKit background tasks, one per name ("sync", "thumbnails", ...).
final class BackgroundTaskManager {
    static let shared = BackgroundTaskManager()

    private var tasks: [String: UIBackgroundTaskIdentifier] = [:]
    private let stateLock = NSLock()

    private init() {}

    func isRunning(_ name: String) -> Bool {
        stateLock.lock()
        defer { stateLock.unlock() }
        return tasks[name] != nil
    }

    /// Begins the task called `name`; false when it is already running or iOS refused it.
    @discardableResult
    func begin(_ name: String) -> Bool {
        stateLock.lock()
        defer { stateLock.unlock() }
        if tasks[name] != nil {
            print("[BackgroundTaskManager] \(name) is already running")
            return false
        }
        let identifier = UIApplication.shared.beginBackgroundTask(withName: name) {
            let remaining = UIApplication.shared.backgroundTimeRemaining
            print("[BackgroundTaskManager] \(name) is about to expire (\(remaining) s left)")
        }
        guard identifier != .invalid else {
            print("[BackgroundTaskManager] iOS refused background time for \(name)")
            return false
        }
        tasks[name] = identifier
        print("[BackgroundTaskManager] began \(name), \(tasks.count) running")
        return true
    }

    func end(_ name: String) {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard let identifier = tasks.removeValue(forKey: name) else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        print("[BackgroundTaskManager] ended \(name)")
    }
}

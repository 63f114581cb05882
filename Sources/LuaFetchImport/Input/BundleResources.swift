// The names an app's bundle holds, as the repository shows them (issue 38: a stub's nil that iOS
// cannot produce): `Bundle.main.url(forResource: "core", withExtension: "css")` is never nil when
// the repository has a `core.css`, and a Core Data model `Model.xcdatamodeld` is `Model.momd` in
// the bundle (storyboards and nibs likewise). Provides `BundleResources.names(under:)`; used by
// the importer, which hands the names to the translation (Translator.bundleResources). Reads the
// folder with Foundation's FileManager, nothing else.
import Foundation

enum BundleResources {
    /// What Xcode compiles a resource into: the name the bundle has.
    static let compiled = ["xcdatamodeld": "momd", "xcdatamodel": "mom", "storyboard": "storyboardc", "xib": "nib",
                           "xcmappingmodel": "cdm"]

    /// Every file and folder name with an extension under `root` (`core.css`, `Model.momd`), as
    /// the bundle would hold it, skipping the folders the Swift search skips (tests, Pods, build
    /// products, hidden ones); at most `limit` entries are looked at.
    static func names(under root: String, limit: Int = 200_000) -> Set<String> {
        var out = Set<String>()
        var seen = 0
        var stack = [root.isEmpty ? "." : root]
        let fm = FileManager.default
        while let dir = stack.popLast(), seen < limit {
            guard let entries = try? fm.contentsOfDirectory(atPath: dir) else { continue }
            for name in entries.sorted() {
                seen += 1
                let ext = (name as NSString).pathExtension
                if !ext.isEmpty {
                    let base = (name as NSString).deletingPathExtension
                    out.insert(name)
                    if let c = compiled[ext] { out.insert(base + "." + c) }
                }
                var isDir: ObjCBool = false
                let path = dir + "/" + name
                // A model's or storyboard's folder is one resource: not searched inside.
                if fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue, compiled[ext] == nil,
                   !SourceFiles.skipped(name), !name.hasSuffix(".xcodeproj"), !name.hasSuffix(".xcworkspace") {
                    stack.append(path)
                }
            }
        }
        return out
    }
}

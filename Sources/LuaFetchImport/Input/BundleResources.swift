// The names an app's bundle holds, as the repository shows them (issue 38: a stub's nil that iOS
// cannot produce): `Bundle.main.url(forResource: "core", withExtension: "css")` is never nil when
// the repository has a `core.css`, and a Core Data model `Model.xcdatamodeld` is `Model.momd` in
// the bundle (storyboards and nibs likewise), with the entities its versions declare
// (`NSEntityDescription.entity(forEntityName: "Item", in:)` of one is never nil). Provides
// `BundleResources.contents(under:)`; used by the importer, which hands them to the translation
// (Translator.bundle). Reads the folder with Foundation's FileManager, nothing else.
import Foundation

/// What the app's bundle holds, as far as the repository shows it.
struct BundleContents {
    /// File and folder names as the bundle has them (`core.css`, `Model.momd`).
    var names: Set<String> = []
    /// The entity names of the Core Data models (every version's).
    var entities: Set<String> = []
}

enum BundleResources {
    /// What Xcode compiles a resource into: the name the bundle has.
    static let compiled = ["xcdatamodeld": "momd", "xcdatamodel": "mom", "storyboard": "storyboardc", "xib": "nib",
                           "xcmappingmodel": "cdm"]

    /// Every file and folder name with an extension under `root` (`core.css`, `Model.momd`), as
    /// the bundle would hold it, skipping the folders the Swift search skips (tests, Pods, build
    /// products, hidden ones); at most `limit` entries are looked at.
    static func contents(under root: String, limit: Int = 200_000) -> BundleContents {
        var out = BundleContents()
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
                    out.names.insert(name)
                    if let c = compiled[ext] { out.names.insert(base + "." + c) }
                    if ext == "xcdatamodeld" { out.entities.formUnion(entities(model: dir + "/" + name)) }
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

    /// The `<entity name="...">` of each version's `contents` in a model folder.
    static func entities(model: String) -> Set<String> {
        var out = Set<String>()
        let fm = FileManager.default
        let versions = (try? fm.contentsOfDirectory(atPath: model))?.filter { $0.hasSuffix(".xcdatamodel") } ?? []
        for v in versions.sorted().prefix(200) {
            guard let data = fm.contents(atPath: model + "/" + v + "/contents"), data.count < 8 << 20,
                  let text = String(data: data, encoding: .utf8) else { continue }
            var rest = Substring(text)
            while let r = rest.range(of: "<entity name=\"") {
                rest = rest[r.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                out.insert(String(rest[..<end]))
                rest = rest[end...]
            }
        }
        return out
    }
}

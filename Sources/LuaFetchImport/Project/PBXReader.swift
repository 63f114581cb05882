// An Xcode project (`X.xcodeproj/project.pbxproj`, SPEC 18.8.1), read with Foundation's
// PropertyListSerialization (an old-style property list): the object graph, the paths of its
// files and groups through the PBXGroup/PBXVariantGroup hierarchy and their `sourceTree`
// (`<group>`, `SOURCE_ROOT`, `<absolute>`; build products and SDK files are not in the
// repository), and each target's Release build settings (project then target, each with its
// `.xcconfig`: `baseConfigurationReference`, or `baseConfigurationReferenceAnchor` +
// `baseConfigurationReferenceRelativePath` inside a synchronized folder). The targets
// themselves are read in PBXReader+Targets. Uses Foundation, SourceFiles, XCConfig,
// BuildSettings.
import Foundation

struct PBXReader {
    /// The `.xcodeproj` folder as it can be opened.
    let bundle: String
    /// SRCROOT: the folder holding the `.xcodeproj` (with the project's `projectDirPath`).
    let root: String
    /// The folder holding the `.xcodeproj` (local package paths start here).
    let container: String
    let name: String
    let objects: [String: [String: Any]]
    let rootID: String
    /// Each group member's group.
    let parent: [String: String]
    let shown: @Sendable (String) -> String
    var warnings: [(where: String, text: String)] = []

    /// A project file that could not be read: where (`file:line`) and why.
    struct Unreadable: Error { let place: String; let reason: String }

    /// Reads `bundle` (`X.xcodeproj`); `shown` makes a path the report's.
    static func read(_ bundle: String, shown: @escaping @Sendable (String) -> String) -> Result<Project, Unreadable> {
        let file = bundle + "/project.pbxproj"
        let bytes: [UInt8]
        do { bytes = try SourceFiles.read(file) } catch {
            return .failure(Unreadable(place: shown(file), reason: "cannot be read"))
        }
        if bytes.contains(0) {
            return .failure(Unreadable(place: shown(file) + ":1", reason: "a binary file, not the text property list Xcode writes"))
        }
        let any: Any
        do {
            any = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            let (line, why) = Self.explain(error)
            return .failure(Unreadable(place: "\(shown(file)):\(line)", reason: why))
        }
        guard let top = any as? [String: Any], let objects = top["objects"] as? [String: Any],
              let rootID = top["rootObject"] as? String, let project = objects[rootID] as? [String: Any],
              project["isa"] as? String == "PBXProject" else {
            return .failure(Unreadable(place: shown(file) + ":1", reason: "a property list, but not an Xcode project (no PBXProject root object)"))
        }
        var objs: [String: [String: Any]] = [:]
        var parent: [String: String] = [:]
        for (id, o) in objects {
            guard let o = o as? [String: Any] else { continue }
            objs[id] = o
            if let children = o["children"] as? [Any] {
                for case let c as String in children { parent[c] = id }
            }
        }
        let container = ProjectPaths.folder(of: bundle)
        let dirPath = project["projectDirPath"] as? String ?? ""
        let name = ProjectPaths.name(of: bundle).replacingOccurrences(of: ".xcodeproj", with: "")
        var reader = PBXReader(bundle: bundle, root: ProjectPaths.join(container, dirPath), container: container, name: name,
                               objects: objs, rootID: rootID, parent: parent, shown: shown)
        return .success(reader.project())
    }

    /// The line and a short reason from Foundation's parse error: the old-style parser's own
    /// message when there is one (Foundation tries the other formats first), read from the
    /// error's user info (its description prints a dictionary in no fixed order).
    static func explain(_ error: Error) -> (Int, String) {
        let ns = error as NSError
        var message = ns.userInfo[NSDebugDescriptionErrorKey] as? String
        if let inner = ns.userInfo["kCFPropertyListOldStyleParsingError"] {
            // A CFError on Linux: its description is `Error Domain=... Code=N "MESSAGE" UserInfo=...`.
            let d = "\(inner)"
            if let q1 = d.firstIndex(of: "\""), let q2 = d[d.index(after: q1)...].firstIndex(of: "\"") {
                message = String(d[d.index(after: q1)..<q2])
            } else if let e = inner as? NSError, let m = e.userInfo[NSDebugDescriptionErrorKey] as? String {
                message = m
            }
        }
        guard let message, !message.isEmpty else { return (1, "not a property list luafetch can read") }
        var line = 1
        if let r = message.range(of: "at line ", options: .backwards) {
            line = Int(message[r.upperBound...].prefix { $0.isNumber }) ?? 1
        }
        return (line, message)
    }

    // MARK: - The graph

    func obj(_ id: String?) -> [String: Any]? { id.flatMap { objects[$0] } }
    func isa(_ id: String?) -> String? { obj(id)?["isa"] as? String }
    func str(_ o: [String: Any]?, _ key: String) -> String? { o?[key] as? String }
    func ids(_ o: [String: Any]?, _ key: String) -> [String] { (o?[key] as? [Any])?.compactMap { $0 as? String } ?? [] }

    /// The path of a file, group or synchronized folder, as it can be opened; nil for files that
    /// live outside the repository (build products, SDKs) or a hierarchy too deep to be real.
    func path(of id: String, depth: Int = 0) -> String? {
        guard depth < 64, let o = obj(id) else { return nil }
        let p = str(o, "path") ?? ""
        switch str(o, "sourceTree") ?? "<group>" {
        case "<group>":
            guard let up = parent[id] else { return ProjectPaths.join(root, p) }  // the main group
            guard let base = path(of: up, depth: depth + 1) else { return nil }
            return ProjectPaths.join(base, p)
        case "SOURCE_ROOT": return ProjectPaths.join(root, p)
        case "<absolute>": return p.hasPrefix("/") ? ProjectPaths.normalize(p) : nil
        default: return nil
        }
    }

    // MARK: - Build settings

    /// The configuration of a list used for Release: named Release, else one whose name says
    /// release, else the list's default, else the first.
    func releaseConfiguration(_ listID: String?) -> (name: String, object: [String: Any]?)? {
        let configs = ids(obj(listID), "buildConfigurations").compactMap { id in obj(id).map { (str($0, "name") ?? "", $0) } }
        guard !configs.isEmpty else { return nil }
        if let r = configs.first(where: { $0.0 == "Release" }) { return r }
        if let r = configs.first(where: { $0.0.lowercased().contains("release") }) { return r }
        if let d = str(obj(listID), "defaultConfigurationName"), let r = configs.first(where: { $0.0 == d }) { return r }
        return configs[0]
    }

    /// The configuration named `name` in a list (the target's of the project's Release).
    func configuration(_ listID: String?, named name: String) -> [String: Any]? {
        ids(obj(listID), "buildConfigurations").compactMap { obj($0) }.first { str($0, "name") == name }
            ?? releaseConfiguration(listID)?.object
    }

    /// The `.xcconfig` a configuration is based on, as it can be opened.
    func xcconfigPath(_ config: [String: Any]?) -> String? {
        if let ref = str(config, "baseConfigurationReference") { return path(of: ref) }
        if let anchor = str(config, "baseConfigurationReferenceAnchor"), let rel = str(config, "baseConfigurationReferenceRelativePath"),
           let folder = path(of: anchor) {
            return ProjectPaths.join(folder, rel)
        }
        return nil
    }

    /// Adds a configuration's two levels (its xcconfig, then its own settings) to `settings`.
    mutating func addLevels(_ config: [String: Any]?, to settings: inout BuildSettings) {
        if let x = xcconfigPath(config) {
            if let real = ProjectPaths.onDisk(x), ProjectPaths.kind(real) == "f" {
                let (assignments, w) = XCConfig.read(real, root: root, shown: shown)
                settings.addLevel(assignments)
                warnings += w
            } else if XCConfig.isDependencyFile(x) {
                settings.addLevel([Assignment]())  // CocoaPods' and Carthage's: never committed
            } else {
                warnings.append((shown(bundle), "\(shown(x)): the configuration's .xcconfig file is not in the repository; its settings are left out"))
                settings.addLevel([Assignment]())
            }
        } else {
            settings.addLevel([Assignment]())
        }
        var dict: [String: PlistValue] = [:]
        if let bs = config?["buildSettings"] as? [String: Any] {
            for (k, v) in bs { if let pv = PlistValue.from(v) { dict[k] = pv } }
        }
        settings.addLevel(dict)
    }

    /// The project object.
    var projectObject: [String: Any] { objects[rootID]! }

    /// The whole project.
    private mutating func project() -> Project {
        var p = Project(kind: .xcode, path: bundle, root: root, name: name)
        for id in ids(projectObject, "packageReferences") where isa(id) == "XCLocalSwiftPackageReference" {
            if let rel = str(obj(id), "relativePath") { p.localPackages.append(ProjectPaths.join(container, rel)) }
        }
        let configName = releaseConfiguration(str(projectObject, "buildConfigurationList"))?.name ?? "Release"
        for id in ids(projectObject, "targets") where isa(id) == "PBXNativeTarget" {
            p.targets.append(target(id, configuration: configName))
        }
        p.warnings = warnings
        return p
    }
}

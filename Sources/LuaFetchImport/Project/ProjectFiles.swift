// Finding the project files under the path given (SPEC 18.8.1): Xcode projects
// (`*.xcodeproj/project.pbxproj`), XcodeGen specs (`*.yml` files that Yams reads as a spec: see
// XcodeGenReader) and Swift packages (`Package.swift`), skipping Pods/, Carthage/, .build/,
// DerivedData/, node_modules/ and hidden folders; and the bounded folder walk every reader uses
// (a folder reached twice through links is read once, at most `maxEntries` entries, a depth
// limit). Also the path helpers (join, normalize, folder, relative). Uses the C library only.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths as strings, `/`-separated, without Foundation.
enum ProjectPaths {
    /// `base/rel` normalized (`.` and `..` resolved); an absolute `rel` stands alone.
    static func join(_ base: String, _ rel: String) -> String {
        if rel.hasPrefix("/") { return normalize(rel) }
        if base.isEmpty { return normalize(rel) }
        if rel.isEmpty { return normalize(base) }
        return normalize(base + "/" + rel)
    }

    static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for p in path.split(separator: "/", omittingEmptySubsequences: true) {
            if p == "." { continue }
            if p == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if p == "..", absolute { continue }
            parts.append(p)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// The folder holding `path` ("." for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `path` relative to `folder` when it lies inside it, else as it is.
    static func relative(_ path: String, to folder: String) -> String {
        if folder == "." { return path }
        if path == folder { return "." }
        return path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : path
    }

    /// `path` as it is on disk: itself when it exists, else the path whose components match its
    /// own but for case (projects made on macOS's case-insensitive disks name `xdrip/` for
    /// `xDrip/`), else nil.
    static func onDisk(_ path: String) -> String? {
        if kind(path) != nil { return path }
        let absolute = path.hasPrefix("/")
        var current = absolute ? "/" : "."
        for part in normalize(path).split(separator: "/") {
            let name = String(part)
            let exact = current == "/" ? "/" + name : (current == "." ? name : current + "/" + name)
            if kind(exact) != nil || name == ".." { current = exact; continue }
            guard let d = opendir(current == "" ? "." : current) else { return nil }
            var found: String?
            var seen = 0
            while let entry = readdir(d), seen < 100_000 {
                seen += 1
                let n = withUnsafeMutablePointer(to: &entry.pointee.d_name) { p in
                    p.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if n.lowercased() == name.lowercased() { found = n; break }
            }
            closedir(d)
            guard let found else { return nil }
            current = current == "/" ? "/" + found : (current == "." ? found : current + "/" + found)
        }
        return current
    }

    /// What kind of file system object is at `path`: "d", "f", or nil (missing, or another kind).
    static func kind(_ path: String) -> Character? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return "d"
        case S_IFREG: return "f"
        default: return nil
        }
    }
}

/// A bounded walk over a folder: every file under it, in path order.
struct FolderWalk {
    /// The most entries one walk looks at (a folder of a whole disk is not an app).
    static let maxEntries = 200_000
    var maxDepth = 32
    /// Folder names never entered (besides hidden ones).
    var skip: (String) -> Bool = { _ in false }
    /// Whether a folder holding a Package.swift is left out (a local package inside a project's
    /// folder is its own code, not the folder's).
    var skipPackages = false
    /// Set when the walk stopped at `maxEntries`.
    private(set) var truncated = false
    private var entries = 0
    private var visited = Set<[UInt64]>()

    init(maxDepth: Int = 32, skipPackages: Bool = false, skip: @escaping (String) -> Bool = { _ in false }) {
        self.maxDepth = maxDepth
        self.skip = skip
        self.skipPackages = skipPackages
    }

    /// The files under `root` for which `want(relativePath, name)` holds, relative to `root`.
    /// `stopAt(name)` marks folders that are returned (as files are) and not entered.
    mutating func files(under root: String, want: (String, String) -> Bool,
                        stopAt: (String) -> Bool = { _ in false }) -> [String] {
        var out: [String] = []
        walk(root, rel: "", depth: 0, want: want, stopAt: stopAt, into: &out)
        return out
    }

    private mutating func walk(_ dir: String, rel: String, depth: Int, want: (String, String) -> Bool,
                               stopAt: (String) -> Bool, into out: inout [String]) {
        guard depth <= maxDepth, !truncated else { return }
        var st = stat()
        guard stat(dir, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return }
        // A folder reached twice (a symbolic link loop) is read once.
        guard visited.insert([UInt64(st.st_dev), UInt64(st.st_ino)]).inserted else { return }
        guard let d = opendir(dir) else { return }
        var names: [(String, UInt8)] = []
        while let entry = readdir(d) {
            entries += 1
            if entries > Self.maxEntries { truncated = true; break }
            let name = withUnsafeMutablePointer(to: &entry.pointee.d_name) { p in
                p.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." || name.hasPrefix(".") { continue }
            names.append((name, entry.pointee.d_type))
        }
        closedir(d)
        names.sort { $0.0 < $1.0 }
        for (name, type) in names {
            guard !truncated else { return }
            let path = dir == "/" ? "/" + name : dir + "/" + name
            let r = rel.isEmpty ? name : rel + "/" + name
            var isDir = type == UInt8(DT_DIR)
            var isFile = type == UInt8(DT_REG)
            if !isDir && !isFile {
                // A link or a file system that does not say: ask.
                var s = stat()
                guard stat(path, &s) == 0 else { continue }
                isDir = (s.st_mode & S_IFMT) == S_IFDIR
                isFile = (s.st_mode & S_IFMT) == S_IFREG
            }
            if isDir {
                if stopAt(name) { if want(r, name) { out.append(r) }; continue }
                if skip(name) { continue }
                if skipPackages && ProjectPaths.kind(path + "/Package.swift") == "f" { continue }
                walk(path, rel: r, depth: depth + 1, want: want, stopAt: stopAt, into: &out)
            } else if isFile, want(r, name) {
                out.append(r)
            }
        }
    }
}

/// The project files under a folder.
struct ProjectFiles {
    /// `X.xcodeproj` folders holding a project.pbxproj, relative to the root.
    var xcodeProjects: [String] = []
    /// `.yml`/`.yaml` files that may be XcodeGen specs (XcodeGenReader decides).
    var yamlFiles: [String] = []
    /// `Package.swift` files (the root's and local packages').
    var packages: [String] = []
    var truncated = false

    /// Folders that never hold the app's project: dependencies, build products, bundles.
    static func skipped(_ name: String) -> Bool {
        if ["Pods", "Carthage", "DerivedData", "node_modules", "build", "SourcePackages", "checkouts", "vendor", "fastlane"].contains(name) { return true }
        for ext in [".xcworkspace", ".xcassets", ".framework", ".xcframework", ".app", ".bundle", ".lproj", ".playground", ".docc"] where name.hasSuffix(ext) {
            return true
        }
        return false
    }

    /// Searches `root` (a folder) for project files, at most 6 folders deep.
    static func find(in root: String) -> ProjectFiles {
        var walk = FolderWalk(maxDepth: 6, skip: skipped)
        let found = walk.files(under: root, want: { rel, name in
            if name.hasSuffix(".xcodeproj") { return true }
            if name == "Package.swift" { return true }
            if name.hasSuffix(".yml") || name.hasSuffix(".yaml") { return rel.split(separator: "/").count <= 4 }
            return false
        }, stopAt: { $0.hasSuffix(".xcodeproj") })
        var files = ProjectFiles()
        files.truncated = walk.truncated
        for rel in found {
            if rel.hasSuffix(".xcodeproj") {
                if ProjectPaths.kind(ProjectPaths.join(root, rel + "/project.pbxproj")) == "f" { files.xcodeProjects.append(rel) }
            } else if rel.hasSuffix("Package.swift") {
                files.packages.append(rel)
            } else {
                files.yamlFiles.append(rel)
            }
        }
        return files
    }
}

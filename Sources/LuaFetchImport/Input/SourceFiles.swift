// What `luafetch import` reads (SPEC 18.1): the `.swift` files and `Info.plist`s under the PATHs
// given (folders searched recursively, test targets and dependency folders skipped), each read as
// a regular file of at most 16 MiB, in path order, with the paths the scenario shows: relative to
// the common folder of the PATHs (18.7.7). Uses the C library only (no Foundation file APIs).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// read(2), named apart from `SourceFiles.read`.
private func sysRead(_ fd: Int32, _ buf: UnsafeMutableRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buf, n)
    #else
    return Darwin.read(fd, buf, n)
    #endif
}

/// A Swift file to translate.
public struct SwiftSource: Sendable {
    /// The path as it can be opened (as given, or under a folder given).
    public var path: String
    /// The path the scenario and the report show: relative to the common folder.
    public var shown: String
    public var text: String
    /// The Swift module the file belongs to (its target's module; "App" without a project).
    public var module: String = "App"
    public init(path: String, shown: String, text: String, module: String = "App") {
        self.path = path; self.shown = shown; self.text = text; self.module = module
    }
}

/// An error that ends the import with exit 2 (`message` is the whole line).
public struct ImportError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

enum SourceFiles {
    /// The largest file read (as for scenarios).
    static let maxBytes = 16 << 20
    /// At most this many files are read (a folder of a whole disk is not an app).
    static let maxFiles = 20_000

    /// Folders never searched: tests, dependencies, build products (18.1).
    static func skipped(_ name: String) -> Bool {
        if name.hasPrefix(".") { return true }
        if ["Pods", "Carthage", "DerivedData", "build", "node_modules", "Tests", "UITests", "Packages", "SourcePackages", "vendor"].contains(name) { return true }
        return name.hasSuffix("Tests") || name.hasSuffix("UITests") || name.hasSuffix(".xcassets") || name.hasSuffix(".framework")
    }

    /// The files under `paths`: Swift sources and Info.plists, each once, in path order.
    static func collect(_ paths: [String]) throws(ImportError) -> (swift: [String], plists: [String]) {
        var swift: [String] = [], plists: [String] = []
        var seen = Set<String>()
        var visitedDirs = Set<[UInt64]>()
        var count = 0
        func add(_ path: String) throws(ImportError) {
            count += 1
            guard count <= maxFiles else { throw ImportError("luafetch import: more than \(maxFiles) files under the paths given; name the app's source folder") }
            let key = canonical(path)
            guard seen.insert(key).inserted else { return }
            if path.hasSuffix(".swift") { swift.append(path) } else { plists.append(path) }
        }
        func walk(_ dir: String, depth: Int) throws(ImportError) {
            guard depth < 64 else { return }
            var st = stat()
            guard stat(dir, &st) == 0 else { return }
            // A folder reached twice (a symbolic link loop) is searched once.
            guard visitedDirs.insert([UInt64(st.st_dev), UInt64(st.st_ino)]).inserted else { return }
            guard let d = opendir(dir) else { return }
            var names: [String] = []
            while let entry = readdir(d) {
                // In place (inout): `entry.pointee.d_name` as a value copies 256 bytes, past a short entry.
                let name = withUnsafeMutablePointer(to: &entry.pointee.d_name) { p in
                    p.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name == "." || name == ".." { continue }
                names.append(name)
            }
            closedir(d)
            for name in names.sorted() {
                let path = dir == "/" ? "/" + name : dir + "/" + name
                var s = stat()
                guard stat(path, &s) == 0 else { continue }
                if (s.st_mode & S_IFMT) == S_IFDIR {
                    if skipped(name) { continue }
                    try walk(path, depth: depth + 1)
                } else if (s.st_mode & S_IFMT) == S_IFREG {
                    if name.hasSuffix(".swift") || name == "Info.plist" { try add(path) }
                }
            }
        }
        for p in paths {
            var st = stat()
            guard stat(p, &st) == 0 else { throw ImportError("luafetch import: \(p): no such file or folder") }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                try walk(trimSlash(p), depth: 0)
            } else if (st.st_mode & S_IFMT) == S_IFREG {
                guard p.hasSuffix(".swift") || p.hasSuffix(".plist") else {
                    throw ImportError("luafetch import: \(p): not a .swift file, an Info.plist or a folder")
                }
                try add(p)
            } else {
                throw ImportError("luafetch import: \(p): not a regular file or a folder")
            }
        }
        return (swift, plists)
    }

    static func trimSlash(_ p: String) -> String {
        var s = p
        while s.count > 1 && s.hasSuffix("/") { s.removeLast() }
        return s
    }

    /// The real path (for telling one file reached twice), or the path as given.
    static func canonical(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return path }
        defer { free(r) }
        return String(cString: r)
    }

    /// Reads a regular file of at most `maxBytes`.
    static func read(_ path: String) throws(ImportError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw ImportError("luafetch import: \(path): cannot be read") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw ImportError("luafetch import: \(path): not a regular file")
        }
        guard Int(st.st_size) <= maxBytes else {
            throw ImportError("luafetch import: \(path): larger than 16 MiB; is it really a source file?")
        }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { sysRead(fd, $0.baseAddress! + got, $0.count - got) }
            if n <= 0 { break }
            got += n
        }
        return Array(bytes.prefix(got))
    }

    /// The folder every path lies in (18.7.7): the longest common folder prefix.
    static func commonFolder(_ paths: [String]) -> String {
        let dirs = paths.map { p -> [Substring] in
            var parts = p.split(separator: "/", omittingEmptySubsequences: false)
            parts.removeLast()
            return parts
        }
        guard var common = dirs.first else { return "" }
        for d in dirs.dropFirst() {
            var n = 0
            while n < common.count && n < d.count && common[n] == d[n] { n += 1 }
            common = Array(common.prefix(n))
        }
        return common.joined(separator: "/")
    }

    /// `path` relative to `folder`.
    static func relative(_ path: String, to folder: String) -> String {
        if folder.isEmpty { return path }
        let prefix = folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

// ScenarioFile: reads a scenario from disk and rejects what is not a Lua text scenario (missing
// file, a directory, an empty file, a binary or precompiled chunk, invalid UTF-8) with one clear
// `path[:line]: message` line. Also reads `require`d modules beside the scenario, and any other
// input file the command line reads (explore's shards, an existing `.luarc.json`): every one is a
// regular file of at most 64 MiB, opened without blocking and checked again once open, so a FIFO
// or a device is never read. Plain POSIX calls (no Foundation, which keeps start-up fast).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LuaFetchCore

public enum ScenarioFile {
    enum Kind { case missing, directory, special, tooLarge, file }

    /// The largest scenario, module or other input file luafetch reads (a scenario is source code,
    /// not data). An import of a large app is source too: home-assistant's slice, with a
    /// `--@ File.swift:LINE` mark on each of its 130,000 lines, is 16.8 MB, and must load (18.8.5).
    public static let maxBytes = 64 << 20

    static func kind(_ path: String) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return Int(st.st_size) > maxBytes ? .tooLarge : .file
        default: return .special  // a device (/dev/zero), a FIFO, a socket: never opened
        }
    }

    /// The bytes of a regular file (at most `maxBytes`), or nil when it cannot be read. Opened
    /// without blocking (a FIFO put in its place after `kind` looked is not waited for) and checked
    /// again once open: only a regular file is read.
    static func bytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= maxBytes else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(Int(st.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while out.count <= maxBytes {
            let n = chunk.withUnsafeMutableBytes { readSome(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out.count <= maxBytes ? out : nil
    }

    /// What an input file is, for the messages of `input(_:as:)`.
    public struct Input: Sendable {
        /// "a .lua scenario file": what a folder is not.
        public var noun: String
        /// What to give instead: after a missing file (with an example), and after a device.
        public var missing: String
        public var give: String
        /// Why a file past `maxBytes` is not one.
        public var tooLarge: String
        public init(noun: String, missing: String, give: String, tooLarge: String) {
            self.noun = noun; self.missing = missing; self.give = give; self.tooLarge = tooLarge
        }

        static let scenario = Input(noun: "a .lua scenario file", missing: "give the path of a .lua scenario, e.g. examples/twitter.lua",
                                    give: "give the path of a .lua scenario", tooLarge: "a scenario is Lua source, not data")
    }

    /// The bytes of the input file at `path`: a regular file of at most `maxBytes` (64 MiB); a
    /// missing file, a folder, a device, a pipe, a socket or a larger file is an error that says so.
    public static func input(_ path: String, as what: Input) throws(ScenarioError) -> [UInt8] {
        switch kind(path) {
        case .missing:
            throw ScenarioError("\(path): no such file (\(what.missing))")
        case .directory:
            throw ScenarioError("\(path): is a directory, not \(what.noun)")
        case .special:
            throw ScenarioError("\(path): is not a regular file (a device, a pipe or a socket); \(what.give)")
        case .tooLarge:
            throw ScenarioError("\(path): is larger than \(maxBytes >> 20) MiB; \(what.tooLarge)")
        case .file:
            break
        }
        guard let bytes = bytes(path) else {
            throw ScenarioError("\(path): cannot be read (check its permissions)")
        }
        return bytes
    }

    static func read(_ path: String) throws(ScenarioError) -> [UInt8] {
        if let swift = swiftInput(path) { throw ScenarioError(swift) }
        let bytes = try input(path, as: .scenario)
        try check(bytes, path: path)
        SwiftMarks.shared.register(path, bytes)  // an imported scenario's Swift lines (SPEC 18.5)
        return bytes
    }

    /// Whether anything (a file, a folder, ...) is at `path`.
    public static func exists(_ path: String) -> Bool { kind(path) != .missing }

    /// When `path` is Swift that luafetch runs only once imported (a `.swift` file, or an Xcode
    /// folder: one holding a `*.xcodeproj` or `project.yml`, or Swift files and no `.lua`, looked
    /// for a few levels down), what to say: `PATH: this is Swift: luafetch import PATH writes a
    /// scenario from it`. Nil for anything else.
    /// A project itself (`MyApp.xcodeproj`, `project.yml`, `Package.swift`) names its folder, which
    /// import reads as the project.
    public static func swiftInput(_ path: String) -> String? {
        let k = kind(path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let project = k == .directory && (name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace"))
            || (k == .file && (name == "project.yml" || name == "Package.swift"))
        let swift = (k == .file || k == .tooLarge) && path.hasSuffix(".swift") || k == .directory && isXcodeFolder(path)
        guard swift || project else { return nil }
        var target = path
        if project {
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            target = trimmed.contains("/") ? String(trimmed[..<trimmed.lastIndex(of: "/")!]) : "."
            if target.isEmpty { target = "/" }
        }
        let safe = target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f && !"'\"$`\\!&;|<>()*?[]{}#~".utf8.contains($0) }
        let shown = safe ? target : "'" + target.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
        return "\(path): this is Swift: luafetch import \(shown) writes a scenario from it"
    }

    /// A folder of an app's Swift sources rather than of scenarios (see `swiftInput`). Bounded: at
    /// most four levels and 4,000 entries are looked at; hidden entries are skipped.
    static func isXcodeFolder(_ dir: String) -> Bool {
        var swift = false, lua = false, project = false, budget = 4000
        func look(_ dir: String, depth: Int) {
            guard depth <= 4, budget > 0, !lua, let d = opendir(dir) else { return }
            var folders: [String] = []
            while let e = readdir(d), budget > 0 {
                budget -= 1
                let name = withUnsafeMutablePointer(to: &e.pointee.d_name) { p in
                    p.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name.hasPrefix(".") { continue }
                if name.hasSuffix(".lua") { lua = true }
                else if name.hasSuffix(".swift") { swift = true }
                else if depth == 0 && (name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") || name == "project.yml") { project = true }
                else { folders.append(name) }
            }
            closedir(d)
            for f in folders where kind(dir + "/" + f) == .directory { look(dir + "/" + f, depth: depth + 1) }
        }
        look(dir, depth: 0)
        return !lua && (project || swift)
    }

    static func check(_ bytes: [UInt8], path: String) throws(ScenarioError) {
        if bytes.first == 0x1b {
            throw ScenarioError("\(path): is a precompiled (binary) Lua chunk; luafetch runs text scenarios only")
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }) {
            throw ScenarioError("\(path):1: the scenario is empty: declare at least an app{} or a timeline (see examples/hello.lua)")
        }
        if let nul = bytes.firstIndex(of: 0) {
            let line = bytes[..<nul].filter { $0 == 0x0a }.count + 1
            throw ScenarioError("\(path):\(line): contains a NUL byte: this is a binary file, not a Lua text scenario")
        }
        if let bad = firstInvalidUTF8(bytes) {
            let line = bytes[..<bad].filter { $0 == 0x0a }.count + 1
            throw ScenarioError("\(path):\(line): invalid UTF-8 (byte 0x\(String(bytes[bad], radix: 16)) at offset \(bad)); save the file as UTF-8")
        }
    }

    /// The offset of the first byte that is not valid UTF-8, if any.
    static func firstInvalidUTF8(_ b: [UInt8]) -> Int? {
        var i = 0
        while i < b.count {
            let c = b[i]
            let n: Int
            if c < 0x80 { i += 1; continue }
            else if c >= 0xc2 && c <= 0xdf { n = 1 }
            else if c >= 0xe0 && c <= 0xef { n = 2 }
            else if c >= 0xf0 && c <= 0xf4 { n = 3 }
            else { return i }
            for k in 1...n where i + k >= b.count || b[i + k] & 0xc0 != 0x80 { return i }
            i += n + 1
        }
        return nil
    }

    /// `require(name)`: the source of `name.lua` beside the scenario, and its path.
    static func module(_ name: String, besides scenario: String) -> (source: String?, pathOrError: String) {
        let dir = scenario.lastIndex(of: "/").map { String(scenario[..<$0]) } ?? ""
        let rel = String(name.map { $0 == "." ? "/" : $0 }) + ".lua"
        let path = dir.isEmpty ? rel : dir + "/" + rel
        guard kind(path) == .file, let bytes = bytes(path) else {
            return (nil, "module '\(name)' not found: looked for \(path) (require loads .lua files beside the scenario)")
        }
        do { try check(bytes, path: path) } catch { return (nil, error.message) }
        SwiftMarks.shared.register(path, bytes)
        return (String(decoding: bytes, as: UTF8.self), path)
    }
}

/// POSIX read(2) (inside ScenarioFile the name is its own `read`).
private func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

// TestSuite: what `luafetch test [PATH...]` runs. Finds the scenarios under the paths (a file, or a
// folder searched recursively for `.lua` files, hidden folders skipped), sets aside the modules
// (a file that another file under the paths loads with `require` is a module, not a scenario), and
// runs one scenario to a verdict: pass, fail (with the first violation or failed expectation that
// failed it) or a scenario error. Uses ScenarioRuntime; no terminal I/O.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LuaFetchCore

public enum TestSuite {
    /// A file found under the paths.
    public struct Entry: Sendable, Equatable {
        public var path: String
        /// Set for a module: the file that requires it.
        public var requiredBy: String?
    }

    /// The `.lua` files under `paths`, sorted, each once; modules marked. A path that is neither a
    /// file nor a folder is returned in `missing`. Links are followed, but a folder is entered once
    /// and a file is run once, however many paths lead to it: both are known by (device, inode), so
    /// a link back up the tree (`up -> ..`, `loop -> .`) ends the walk there.
    public static func discover(_ paths: [String]) -> (entries: [Entry], missing: [String]) {
        var found: [(path: String, id: FileID?)] = []
        var missing: [String] = []
        var folders = Set<FileID>()
        for p in paths {
            let path = p.count > 1 && p.hasSuffix("/") ? String(p.dropLast()) : p
            switch ScenarioFile.kind(path) {
            case .directory: walk(path, into: &found, folders: &folders)
            case .file, .tooLarge: found.append((path, FileID(path)))
            default: missing.append(p)
            }
        }
        var seen = Set<FileID>()
        let files = found.sorted { $0.path < $1.path }.filter { $0.id.map { seen.insert($0).inserted } ?? true }.map(\.path)
        let known = Set(files)
        var requiredBy: [String: String] = [:]
        for f in files {
            guard let text = try? ScenarioFile.read(f) else { continue }
            for name in requires(in: String(decoding: text, as: UTF8.self)) {
                let dir = f.lastIndex(of: "/").map { String(f[..<$0]) } ?? ""
                let rel = String(name.map { $0 == "." ? "/" : $0 }) + ".lua"
                let module = dir.isEmpty ? rel : dir + "/" + rel
                if module != f, known.contains(module), requiredBy[module] == nil { requiredBy[module] = f }
            }
        }
        return (files.map { Entry(path: $0, requiredBy: requiredBy[$0]) }, missing)
    }

    /// A file or folder as the system knows it: (device, inode) of what a path leads to (links
    /// followed); nil when it cannot be looked at.
    struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64

        init?(_ path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }
    }

    static func walk(_ dir: String, into files: inout [(path: String, id: FileID?)], folders: inout Set<FileID>) {
        if let id = FileID(dir), !folders.insert(id).inserted { return }  // entered before: a loop, or a second way in
        guard let d = opendir(dir) else { return }
        var names: [String] = []
        while let e = readdir(d) {
            // The name read in place: `e.pointee.d_name` as a value copies all 256 bytes, past the end
            // of a short last entry (AddressSanitizer, in a folder of 20,000 scenarios).
            let name = withUnsafeMutablePointer(to: &e.pointee.d_name) { p in
                p.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard !name.hasPrefix(".") else { continue }  // ., .., .build, .git
            names.append(name)
        }
        closedir(d)
        for name in names.sorted() {
            let path = dir == "." ? name : dir + "/" + name
            switch ScenarioFile.kind(path) {
            case .directory: walk(path, into: &files, folders: &folders)
            case .file, .tooLarge: if name.hasSuffix(".lua") { files.append((path, FileID(path))) }
            default: break
            }
        }
    }

    /// The module names a file passes to `require` as a literal (`require "a.b"`, `require("a.b")`).
    static func requires(in text: String) -> [String] {
        var out: [String] = []
        let bytes = Array(text.utf8)
        let word = Array("require".utf8)
        var i = 0
        while i + word.count < bytes.count {
            defer { i += 1 }
            guard bytes[i] == word[0], Array(bytes[i..<i + word.count]) == word else { continue }
            if i > 0, isName(bytes[i - 1]) { continue }
            var j = i + word.count
            while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x28 { j += 1 }  // spaces, (
            guard j < bytes.count, bytes[j] == 0x22 || bytes[j] == 0x27 else { continue }
            let quote = bytes[j]
            var k = j + 1
            while k < bytes.count, bytes[k] != quote, bytes[k] != 0x0A { k += 1 }
            if k < bytes.count, bytes[k] == quote { out.append(String(decoding: bytes[(j + 1)..<k], as: UTF8.self)) }
        }
        return out
    }

    static func isName(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F }

    /// One scenario's verdict.
    public struct Verdict: Sendable {
        public enum Status: String, Sendable { case passed, failed, error }
        public var path: String
        public var status: Status
        /// What failed it first: a code (`task-expired`, `expectation`, `scenario-error`), where,
        /// and the message.
        public var code: String?
        public var location: SourceLocation?
        public var message: String?
        /// Virtual time the run covered.
        public var virtualTime: Millis = 0
        /// Violations the run had, and how many of them an `expect.violation` names.
        public var violations = 0
        public var expectedViolations = 0
        /// The run as a page (`luafetch test --html`).
        public var page: String?
        /// What ran of the scenario's code (`luafetch test --coverage`), and the sources of the
        /// files it loaded.
        public var coverage: CoverageCounts?
        public var coverageSources: [String: [UInt8]] = [:]
        public var exitCode: Int32 { status == .passed ? 0 : status == .failed ? 1 : 2 }
    }

    /// Runs the scenario at `path` to its verdict.
    /// `coverage`: also record what of the scenario's code ran (`Verdict.coverage`), for the
    /// report and for the page.
    public static func run(_ path: String, options: RunOptions, html: Bool = false, coverage: Bool = false) -> Verdict {
        let runtime = ScenarioRuntime(path: path, options: options, coverage: coverage || html ? .lines : .off)
        runtime.world.recordTimeline = html
        if html { runtime.world.timelineKeeping = .picture(limit: HTMLReport.maxEntries) }
        do {
            try runtime.load()
            try runtime.run()
        } catch {
            var v = Verdict(path: path, status: .error, code: "scenario-error", location: location(in: error.message),
                            message: error.message, virtualTime: runtime.world.now)
            if coverage, !runtime.coverageSources.isEmpty {
                var counts = runtime.takeCoverage()
                counts.runs = 1
                v.coverage = counts
                v.coverageSources = runtime.coverageSources
            }
            return v
        }
        let world = runtime.world
        var v = Verdict(path: path, status: world.exitCode == 0 ? .passed : .failed, virtualTime: world.now)
        if coverage || html {
            var counts = runtime.takeCoverage()
            counts.runs = 1
            if html {
                v.page = HTMLReport.build(world, reproduce: "luafetch run \(path) --seed \(world.seed) --os \(world.os.rawValue)",
                                          coverage: runtime.pageCoverage(counts))
            }
            if coverage { v.coverage = counts; v.coverageSources = runtime.coverageSources }
        }
        let expected = world.expectedCodes
        v.violations = world.violations.count
        v.expectedViolations = world.violations.filter { expected.contains($0.code) }.count
        guard v.status == .failed else { return v }
        let violation = world.violations.first { !expected.contains($0.code) && ($0.severity == .error || world.options.strict) }
        let expectation = world.expectationResults.first { !$0.passed }
        if let violation, expectation.map({ violation.time <= $0.time }) ?? true {
            v.code = violation.code.rawValue
            v.location = violation.location
            v.message = violation.messageAndNeeds
        } else if let e = expectation {
            v.code = "expectation"
            v.location = e.location
            v.message = "expected \(e.description)\(e.detail.map { ": \($0)" } ?? "")"
        }
        return v
    }

    /// `file:line` at the start of a scenario error's message.
    static func location(in message: String) -> SourceLocation? {
        let head = message.prefix { $0 != " " }
        guard head.hasSuffix(":") else { return nil }
        let parts = head.dropLast().split(separator: ":")
        guard parts.count >= 2, let line = Int(parts.last!) else { return nil }
        return SourceLocation(file: parts.dropLast().joined(separator: ":"), line: line)
    }
}

// Coverage: which lines of scenario code ran (`--coverage FILE` on run, test and explore). The
// counts come from CLuaHost's line hook, one run at a time (CoverageCounts, folded over runs in
// any order); which lines hold code and where each function begins come from the chunk's own
// bytecode (ChunkShape reads Lua 5.4's dump format: every function's lines, nested functions
// included). CoverageReport joins the two into files of line hits and functions, reported at the
// Swift line an imported scenario's `--@` marks name (SwiftMarks), and writes lcov's tracefile
// format, Cobertura XML and explore's JSON Lines records (which `--merge` adds up again: every
// number is a sum or an "ever", so shards merge to the bytes one run writes). Pure Swift.

// MARK: - Counts

/// The line hits of scenario code over one or more runs: per file (the chunk's path), a count per
/// line and the functions entered (by the line they are defined on). Adding is commutative, so
/// runs fold in any order.
public struct CoverageCounts: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// Hits by line number (index 0 unused).
        public var lines: [UInt64] = []
        /// By the line a function is defined on: in how many runs a function defined there ran.
        public var entered: [UInt64] = []

        public func hits(_ line: Int) -> UInt64 { line >= 0 && line < lines.count ? lines[line] : 0 }
        public func runs(definedAt line: Int) -> UInt64 { line >= 0 && line < entered.count ? entered[line] : 0 }

        mutating func grow(_ n: Int) {
            if lines.count < n { lines += repeatElement(0, count: n - lines.count) }
            if entered.count < n { entered += repeatElement(0, count: n - entered.count) }
        }
    }

    public private(set) var files: [String: File] = [:]
    /// How many runs were folded in.
    public var runs = 0

    public init() {}

    public var isEmpty: Bool { files.isEmpty }

    /// Adds one chunk's counts of a run (what the line hook recorded).
    public mutating func add(path: String, lines: UnsafeBufferPointer<UInt32>, entered: UnsafeBufferPointer<UInt8>) {
        // The last line any count is on: the arrays grow only that far.
        var end = 0
        for i in stride(from: lines.count - 1, through: 0, by: -1) where lines[i] != 0 || entered[i] != 0 { end = i + 1; break }
        guard end > 0 else { return }
        files[path, default: File()].grow(end)
        files[path]!.lines.withUnsafeMutableBufferPointer { out in
            for i in 0..<end where lines[i] != 0 { out[i] &+= UInt64(lines[i]) }
        }
        files[path]!.entered.withUnsafeMutableBufferPointer { out in
            for i in 0..<end where entered[i] != 0 { out[i] &+= 1 }
        }
    }

    /// Adds another set of counts (another run, another worker's runs), `times` over (its runs count
    /// once: what loading ran, added for each run that started after it).
    public mutating func add(_ other: CoverageCounts, times: UInt64 = 1) {
        runs += other.runs
        guard times > 0 else { return }
        for (path, f) in other.files {
            files[path, default: File()].grow(max(f.lines.count, f.entered.count))
            for (i, n) in f.lines.enumerated() where n != 0 { files[path]!.lines[i] &+= n &* times }
            for (i, n) in f.entered.enumerated() where n != 0 { files[path]!.entered[i] &+= n &* times }
        }
    }
}

// MARK: - The shape of a chunk

/// Which lines of a chunk hold code, and its functions (nested ones included), read from the
/// chunk's bytecode as Lua 5.4 dumps it (`lua_dump` with debug information: ldump.c's format).
public struct ChunkShape: Sendable, Equatable {
    public struct Function: Sendable, Equatable {
        /// The line it is defined on (0: the chunk itself) and its last line.
        public var defined: Int
        public var lastLine: Int
        /// The lines its own instructions are on (not its nested functions'), sorted.
        public var lines: [Int]
        /// The enclosing function's index in `functions` (nil: the chunk itself).
        public var parent: Int?
    }
    /// In the order of the dump: the chunk first, then each function before its nested ones.
    public var functions: [Function] = []

    public init(functions: [Function] = []) { self.functions = functions }

    /// Every line that holds code, sorted.
    public var lines: [Int] {
        var all = Set<Int>()
        for f in functions { all.formUnion(f.lines) }
        return all.sorted()
    }

    /// Reads a dump; nil when it is not one this format knows (then no line counts as code).
    public static func parse(_ bytes: [UInt8]) -> ChunkShape? {
        var r = Reader(bytes: bytes)
        // Header: signature, version 5.4, format 0, LUAC_DATA, sizes of Instruction, lua_Integer
        // and lua_Number, then a test integer and a test number.
        let signature: [UInt8] = [0x1B, 0x4C, 0x75, 0x61, 0x54, 0x00, 0x19, 0x93, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count > 31, Array(bytes[0..<12]) == signature, bytes[12] == 4, bytes[13] == 8, bytes[14] == 8 else { return nil }
        r.at = 31
        guard r.byte() != nil else { return nil }  // the main closure's upvalue count
        var shape = ChunkShape()
        guard r.function(parent: nil, into: &shape, depth: 0) else { return nil }
        return shape
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        /// ldump.c's dumpSize: 7 bits a byte, most significant first, the last byte marked.
        mutating func size() -> Int? {
            var x = 0
            while true {
                guard let b = byte(), x < Int.max >> 8 else { return nil }
                x = x << 7 | Int(b & 0x7F)
                if b & 0x80 != 0 { return x }
            }
        }

        mutating func skip(_ n: Int) -> Bool {
            guard n >= 0, n <= bytes.count - at else { return false }
            at += n
            return true
        }

        mutating func string() -> Bool {
            guard let n = size() else { return false }
            return n == 0 || skip(n - 1)
        }

        mutating func function(parent: Int?, into shape: inout ChunkShape, depth: Int) -> Bool {
            guard depth < 250, string(), let defined = size(), let last = size(), let _ = byte(), let vararg = byte(), let _ = byte(),
                  let codeCount = size(), skip(codeCount * 4), let constants = size() else { return false }
            for _ in 0..<constants {
                guard let t = byte() else { return false }
                switch t {
                case 3, 19: guard skip(8) else { return false }  // an integer, a float
                case 4, 20: guard string() else { return false }  // a short or long string
                case 0, 1, 17: break  // nil, false, true
                default: return false
                }
            }
            guard let upvalues = size(), skip(upvalues * 3), let protos = size() else { return false }
            let index = shape.functions.count
            shape.functions.append(Function(defined: defined, lastLine: last, lines: [], parent: parent))
            for _ in 0..<protos { guard function(parent: index, into: &shape, depth: depth + 1) else { return false } }
            // Debug information: a line delta per instruction, absolute lines at some of them.
            guard let n = size(), n <= bytes.count - at else { return false }
            let deltas = Array(bytes[at..<at + n])
            at += n
            guard let absCount = size() else { return false }
            var absolute: [Int: Int] = [:]
            for _ in 0..<absCount {
                guard let pc = size(), let line = size() else { return false }
                absolute[pc] = line
            }
            guard let locals = size() else { return false }
            for _ in 0..<locals { guard string(), size() != nil, size() != nil else { return false } }
            guard let names = size() else { return false }
            for _ in 0..<names { guard string() else { return false } }
            // ldebug.c's collectvalidlines: every instruction's line, but a vararg function's first
            // (OP_VARARGPREP, which no line event reports).
            var line = defined
            var lines = Set<Int>()
            for pc in 0..<n {
                if deltas[pc] == 0x80 { line = absolute[pc] ?? line } else { line += Int(Int8(bitPattern: deltas[pc])) }
                if pc == 0 && vararg != 0 { continue }
                if line > 0 { lines.insert(line) }
            }
            shape.functions[index].lines = lines.sorted()
            return true
        }
    }
}

// MARK: - The report

/// What `--coverage` writes: each file's lines that hold code with their hits, and its functions.
/// Lines of an imported scenario that carry a `--@` mark are reported at that Swift file and line.
public struct CoverageReport: Sendable, Equatable {
    public struct Function: Sendable, Equatable {
        /// The line it is defined on (the Swift line for an imported scenario's).
        public var line: Int
        public var name: String
        /// The hits of its first line (how many times it was called, but for a loop on that line);
        /// for a function whose first line other code shares (`at(5, function() ... end)` on one
        /// line), the runs it ran in.
        public var hits: UInt64
        /// Whether it ran in any run.
        public var ran: Bool
        /// What it is (NeverRun.swift: a delegate method, an expiration handler, world code, ...).
        public var role: FunctionRole
        /// Where the function it is written in is defined (`file:line`; nil: the top level).
        public var parent: String?
        /// Its scenario line when it is reported at a Swift line (`myapp.lua:120`).
        public var scenarioLine: String?

        /// The count lcov and Cobertura show.
        public var calls: UInt64 { ran ? max(hits, 1) : 0 }
    }

    public struct File: Sendable, Equatable {
        public var path: String
        /// Every line that holds code, in order, with its hits.
        public var lines: [(line: Int, hits: UInt64)]
        /// In line order.
        public var functions: [Function]

        public var covered: Int { lines.reduce(0) { $0 + ($1.hits > 0 ? 1 : 0) } }

        public static func == (a: File, b: File) -> Bool {
            a.path == b.path && a.functions == b.functions && a.lines.count == b.lines.count
                && zip(a.lines, b.lines).allSatisfy { $0.line == $1.line && $0.hits == $1.hits }
        }
    }

    /// In path order.
    public var files: [File] = []
    /// How many runs it covers.
    public var runs = 0

    public init(files: [File] = [], runs: Int = 0) { self.files = files; self.runs = runs }

    /// One scenario file or module: its path, source and shape.
    public struct Chunk: Sendable {
        public var path: String
        public var source: [UInt8]
        public var shape: ChunkShape
        public init(path: String, source: [UInt8], shape: ChunkShape) { self.path = path; self.source = source; self.shape = shape }
    }

    /// The report of `counts` over `chunks` (each file that ran; a file's lines that hold code
    /// count with 0 hits when they never ran). Deterministic: files by path, lines by number.
    /// `mapToSwift` false: every line at its scenario line, marks or not (the page shows both).
    public static func build(_ counts: CoverageCounts, chunks: [Chunk], mapToSwift: Bool = true) -> CoverageReport {
        var lines: [String: [Int: UInt64]] = [:]
        var functions: [String: [Int: Function]] = [:]
        for chunk in chunks.sorted(by: { $0.path < $1.path }) {
            let file = counts.files[chunk.path] ?? CoverageCounts.File()
            let marks = mapToSwift ? SwiftMarks.parse(chunk.source) ?? [:] : [:]
            let text = SourceLines(chunk.source)
            /// Where a scenario line is reported: its Swift line, else itself.
            func place(_ line: Int) -> (String, Int) {
                if let sw = marks[line] { return (sw.rootedPath, sw.line) }
                return (chunk.path, line)
            }
            // Lines: at a Swift line, the first scenario line marked with it counts (a Swift
            // statement's first Lua line is where it starts).
            for line in chunk.shape.lines {
                let (path, at) = place(line)
                if lines[path]?[at] == nil { lines[path, default: [:]][at] = file.hits(line) }
            }
            // Functions (not the chunk itself), each with what its definition line says it is; what
            // is written inside world code is world code too.
            var roles: [FunctionRole] = []
            var owners: [Int: Int] = [:]  // how many functions have code on each line
            for f in chunk.shape.functions { for l in f.lines { owners[l, default: 0] += 1 } }
            for f in chunk.shape.functions {
                let parentRole = f.parent.map { roles[$0] }
                guard f.parent != nil else { roles.append(.topLevel); continue }
                var (name, role) = FunctionRole.classify(text.line(f.defined))
                if parentRole == .world || parentRole == .server { role = parentRole! }
                roles.append(role)
                let (path, at) = place(f.defined)
                let parent = f.parent.flatMap { p -> String? in
                    let pf = chunk.shape.functions[p]
                    guard pf.parent != nil else { return nil }
                    let (pp, pl) = place(pf.defined)
                    return "\(pp):\(pl)"
                }
                let first = f.lines.first ?? f.defined
                let runs = file.runs(definedAt: f.defined)
                let hits = owners[first, default: 0] > 1 ? runs : file.hits(first)
                let made = Function(line: at, name: name.isEmpty ? "function" : name, hits: hits,
                                    ran: runs > 0, role: role, parent: parent == "\(path):\(at)" ? nil : parent,
                                    scenarioLine: marks[f.defined] != nil ? "\(chunk.path):\(f.defined)" : nil)
                if var known = functions[path]?[at] {
                    // Two functions at one line (a Swift method and the delegate method that calls
                    // it): the first written counts; either running is the line's function running;
                    // the more telling name and role win.
                    known.ran = known.ran || made.ran
                    if known.role.isGeneric && !made.role.isGeneric { known.role = made.role; known.name = made.name }
                    functions[path]![at] = known
                } else {
                    functions[path, default: [:]][at] = made
                }
            }
        }
        var out = CoverageReport(runs: counts.runs)
        for path in Set(lines.keys).union(functions.keys).sorted() {
            let ls = (lines[path] ?? [:]).sorted { $0.key < $1.key }.map { (line: $0.key, hits: $0.value) }
            let fs = (functions[path] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
            out.files.append(File(path: path, lines: ls, functions: fs))
        }
        return out
    }

    /// Adds another report of the same code (a shard's): hits add up, a function ran if it ran in either.
    public mutating func add(_ other: CoverageReport) {
        runs += other.runs
        var byPath: [String: File] = [:]
        for f in files { byPath[f.path] = f }
        for f in other.files {
            guard var mine = byPath[f.path] else { byPath[f.path] = f; continue }
            var hits: [Int: UInt64] = [:]
            for l in mine.lines { hits[l.line] = l.hits }
            for l in f.lines { hits[l.line, default: 0] &+= l.hits }
            mine.lines = hits.sorted { $0.key < $1.key }.map { (line: $0.key, hits: $0.value) }
            var fns: [String: Function] = [:]
            for g in mine.functions { fns["\(g.line) \(g.name)"] = g }
            for g in f.functions {
                let k = "\(g.line) \(g.name)"
                if var known = fns[k] { known.hits &+= g.hits; known.ran = known.ran || g.ran; fns[k] = known } else { fns[k] = g }
            }
            mine.functions = fns.values.sorted { ($0.line, $0.name) < ($1.line, $1.name) }
            byPath[f.path] = mine
        }
        files = byPath.values.sorted { $0.path < $1.path }
    }

    public var linesValid: Int { files.reduce(0) { $0 + $1.lines.count } }
    public var linesCovered: Int { files.reduce(0) { $0 + $1.covered } }

    // Its formats (lcov, Cobertura, JSON Lines) are Coverage+Formats.swift's.
}

public struct CoverageRecordError: Error, Sendable { public var message: String }

/// The formats `--coverage-format` names.
public enum CoverageFormat: String, Sendable, CaseIterable {
    case lcov, cobertura
}

/// A source's lines by number (1-based), without line ends.
struct SourceLines {
    let lines: [Substring]
    init(_ bytes: [UInt8]) {
        lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }
    func line(_ n: Int) -> Substring {
        guard n >= 1, n <= lines.count else { return "" }
        let l = lines[n - 1]
        return l.hasSuffix("\r") ? l.dropLast() : l
    }
}

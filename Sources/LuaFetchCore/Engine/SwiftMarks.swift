// The Swift lines of imported scenarios (SPEC 18.5): `luafetch import` ends each line it wrote
// from Swift with `--@ File.swift:LINE`, and a `--@root PATH` line says where those paths are
// relative to. Read from the scenario file itself when it is loaded (`register`), the marks let
// every violation, failed expectation and error that names a scenario line name the Swift line
// too (`SourceLocation.swift`). One table for the process, behind a lock (explore's workers load
// the same file), with a fast path when no file has marks.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Swift line a scenario line came from.
public struct SwiftLine: Hashable, Sendable, CustomStringConvertible {
    /// The path as the mark gives it (relative to the imported folder).
    public var path: String
    public var line: Int
    /// The imported folder as `--@root` gives it (for annotations on the repository's file).
    public var root: String?
    public var description: String { "\(path):\(line)" }
    /// The path from where the import was run (`root/path`).
    public var rootedPath: String {
        guard let root, !root.isEmpty, root != "." else { return path }
        return root.hasSuffix("/") ? root + path : root + "/" + path
    }
}

public final class SwiftMarks: @unchecked Sendable {
    public static let shared = SwiftMarks()
    private var files: [String: [Int: SwiftLine]] = [:]
    private var any = false
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(m, nil)
        return m
    }()

    /// Reads the marks of a scenario's source (a file without any costs one scan for "--@").
    public func register(_ path: String, _ bytes: [UInt8]) {
        guard let marks = Self.parse(bytes) else { return }
        pthread_mutex_lock(mutex)
        files[path] = marks
        any = true
        pthread_mutex_unlock(mutex)
    }

    /// The Swift line of `file`'s line `line`, if it has a mark.
    public func line(_ file: String, _ line: Int) -> SwiftLine? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard any else { return nil }
        return files[file]?[line]
    }

    /// Whether `file` has marks.
    public func has(_ file: String) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return files[file] != nil
    }

    /// The marks of a source: each line ending in `--@ PATH:LINE` (nil when there is none).
    static func parse(_ bytes: [UInt8]) -> [Int: SwiftLine]? {
        let dash = UInt8(ascii: "-"), at = UInt8(ascii: "@"), nl = UInt8(ascii: "\n")
        // A quick look first (memchr for '@'): most scenarios have no mark at all.
        let seen = bytes.withUnsafeBytes { buf -> Bool in
            guard let base = buf.baseAddress, buf.count >= 3 else { return false }
            var from = 0
            while from < buf.count, let p = memchr(base + from, Int32(at), buf.count - from) {
                let i = UnsafeRawPointer(p) - base
                if i >= 2 && buf[i - 1] == dash && buf[i - 2] == dash { return true }
                from = i + 1
            }
            return false
        }
        guard seen else { return nil }
        var out: [Int: SwiftLine] = [:]
        var root: String?
        var lineNumber = 1
        var start = 0
        func handle(_ s: Int, _ e: Int) {
            // The last "--@" of the line.
            var k = e - 3
            while k >= s {
                if bytes[k] == dash && bytes[k + 1] == dash && bytes[k + 2] == at { break }
                k -= 1
            }
            guard k >= s else { return }
            let text = String(decoding: bytes[(k + 3)..<e], as: UTF8.self)
            if text.hasPrefix("root ") {
                if k == s { root = String(text.dropFirst(5)).trimmingTrailingSpace() }
                return
            }
            guard text.hasPrefix(" ") else { return }
            let mark = String(text.dropFirst()).trimmingTrailingSpace()
            guard let colon = mark.lastIndex(of: ":"), let n = Int(mark[mark.index(after: colon)...]), n > 0 else { return }
            out[lineNumber] = SwiftLine(path: String(mark[..<colon]), line: n, root: nil)
        }
        for j in 0..<bytes.count where bytes[j] == nl {
            handle(start, j)
            start = j + 1
            lineNumber += 1
        }
        if start < bytes.count { handle(start, bytes.count) }
        guard !out.isEmpty else { return nil }
        if let root { for k in out.keys { out[k]!.root = root } }
        return out
    }
}

extension String {
    func trimmingTrailingSpace() -> String {
        var s = Substring(self)
        while let l = s.last, l == " " || l == "\r" || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

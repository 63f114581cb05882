// Output: buffered writing of whole lines to standard output, flushed before exit (one write per
// 64 KiB instead of one per line keeps long timelines fast), and unbuffered standard error; plus
// the few POSIX helpers the command line needs (environment, a lock; files are in Files.swift).
// No Foundation: the binary starts faster without it.
import LuaFetchCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = {
        var b = [UInt8](); b.reserveCapacity(1 << 16); return b
    }()

    /// Bytes written to standard output so far (buffered or not), skipped ones excluded.
    nonisolated(unsafe) private(set) static var emitted = 0
    nonisolated(unsafe) private static var skipping = 0

    /// Drops the next `n` bytes of output: an exact rerun repeats what a first attempt printed.
    static func skip(_ n: Int) { skipping = n }

    static func line(_ s: String) {
        var bytes = s.utf8.count + 1
        if skipping > 0 {
            if bytes <= skipping { skipping -= bytes; return }
            let rest = Array(s.utf8).dropFirst(skipping)
            skipping = 0
            bytes = rest.count + 1
            buffer.append(contentsOf: rest)
        } else {
            buffer.append(contentsOf: s.utf8)
        }
        ended(bytes)
    }

    /// The line just appended ends (`bytes` with its newline): counted, and written out once the
    /// buffer holds 64 KiB.
    private static func ended(_ bytes: Int) {
        buffer.append(0x0a)
        emitted += bytes
        if buffer.count >= 1 << 16 { flush() }
    }

    /// The writer of JSON lines (the main thread's; lines are written by one run at a time).
    nonisolated(unsafe) private static let writer = JSONWriter()

    /// A line `body` writes as JSON (JSON Lines: no String in between).
    static func line(writing body: (JSONWriter) -> Void) {
        writer.reset()
        body(writer)
        if skipping > 0 {
            line(writer.text)
            return
        }
        buffer.append(contentsOf: writer.written)
        ended(writer.count + 1)
    }

    /// A line `body` appends as bytes (no String in between). `body` returns false to decline,
    /// having appended nothing; so does this, and the caller writes the line another way.
    static func line(appending body: (inout [UInt8]) -> Bool) -> Bool {
        guard skipping == 0 else { return false }
        let start = buffer.count
        guard body(&buffer) else { return false }
        ended(buffer.count - start + 1)
        return true
    }

    static func flush() {
        writeAll(1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    static func error(_ s: String) {
        flush()
        writeAll(2, Array(s.utf8))
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
    }
}

enum Env {
    static func get(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
    /// NO_COLOR asks for no colour only when set to a non-empty value (no-color.org).
    static var noColor: Bool { !(get("NO_COLOR") ?? "").isEmpty }
}

/// A POSIX mutex for the command line's worker threads (explore's sweep and shrink, test's results).
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    deinit { pthread_mutex_destroy(mutex); mutex.deallocate() }
    func locked<T>(_ body: () -> T) -> T { pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }; return body() }
}

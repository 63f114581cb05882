// Output: buffered writing of whole lines to standard output, flushed before exit (one write per
// 64 KiB instead of one per line keeps long timelines fast), and unbuffered standard error; plus
// the few POSIX helpers the command line needs (environment, files). No Foundation: the binary
// starts faster without it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = {
        var b = [UInt8](); b.reserveCapacity(1 << 16); return b
    }()

    static func line(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        buffer.append(0x0a)
        if buffer.count >= 1 << 16 { flush() }
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
}

/// Writes `text` to the file at `path`; returns an error message on failure.
func writeFile(_ path: String, _ text: String) -> String? {
    guard let f = fopen(path, "wb") else { return String(cString: strerror(errno)) }
    let bytes = Array(text.utf8)
    let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    let failed = n != bytes.count
    return fclose(f) != 0 || failed ? String(cString: strerror(errno)) : nil
}

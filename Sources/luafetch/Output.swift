// Output: buffered writing of whole lines to standard output (and error), flushed before exit.
// One write per 64 KiB instead of one per line keeps long timelines fast. Uses only libc.
import Foundation

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
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    static func error(_ s: String) {
        flush()
        FileHandle.standardError.write(Data(s.utf8))
    }
}

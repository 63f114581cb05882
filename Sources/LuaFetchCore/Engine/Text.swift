// Text: builds a timeline message from pieces in a stack buffer and makes one String of it.
// String interpolation costs a few hundred instructions per piece (a growing String, an Int's
// description, each literal appended on its own); the messages of the most frequent timeline
// lines (state changes, requests, fetches) are built here instead: building messages was half of
// what a JSON Lines run spent beyond a quiet one (issue #19). Used by the World's log sites.

struct Text {
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    private var count = 0
    /// Bytes past the stack buffer (long URLs), rarely used.
    private var overflow: [UInt8] = []

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// The String `body` writes.
    static func build(_ body: (inout Text) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buf in
            var t = Text(buf)
            body(&t)
            if t.overflow.isEmpty { return String(decoding: UnsafeBufferPointer(rebasing: buf[..<t.count]), as: UTF8.self) }
            return String(decoding: Array(buf[..<t.count]) + t.overflow, as: UTF8.self)
        }
    }

    private mutating func bytes(_ p: UnsafePointer<UInt8>, _ n: Int) {
        if overflow.isEmpty, count + n <= buffer.count {
            (buffer.baseAddress! + count).update(from: p, count: n)
            count += n
        } else {
            overflow.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        }
    }

    mutating func add(_ s: StaticString) { bytes(s.utf8Start, s.utf8CodeUnitCount) }

    mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { if let base = $0.baseAddress { bytes(base, $0.count) } }
    }

    mutating func add(_ v: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { d in
            var m = v.magnitude, i = 20
            repeat { i -= 1; d[i] = UInt8(truncatingIfNeeded: 0x30 &+ m % 10); m /= 10 } while m > 0
            if v < 0 { add("-") }
            bytes(d.baseAddress! + i, 20 - i)
        }
    }

    /// `Time.human(ms)`, written in place.
    mutating func add(human ms: Millis) {
        if ms < 1000 { add(Int(ms)); add("ms"); return }
        add(Time.human(ms))
    }
}

// A tiny JSON writer for luafetch's machine-readable output: objects keep the key order they are
// built in (so output is byte-stable), strings are escaped per RFC 8259; and a small reader for
// what luafetch itself wrote (explore --merge). No Foundation.

public indirect enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func int(_ v: Int) -> JSON { .int(Int64(v)) }
    public static func opt(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }

    /// The compact encoding.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? String(d) : "null"
        case .string(let s): JSON.escape(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (k, v)) in fields.enumerated() {
                if i > 0 { out += "," }
                JSON.escape(k, into: &out)
                out += ":"
                v.write(to: &out)
            }
            out += "}"
        }
    }

    /// Appends `s` as a JSON string (JSONWriter does the escaping for both).
    static func escape(_ s: String, into out: inout String) {
        let w = JSONWriter(capacity: s.utf8.count + 8)
        w.string(s)
        out += w.text
    }
}

/// Writes JSON objects straight into a byte buffer it owns and reuses (the JSON Lines of a long
/// run: no tree, no String appends, no per-byte Array bookkeeping): fields in the order written,
/// strings escaped per RFC 8259 (the one escaper: `JSON` values use it too). One writer per
/// thread; `reset()` between lines.
public final class JSONWriter {
    private var p: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written since the last reset.
    public private(set) var count = 0
    private var first = true

    public init(capacity: Int = 1024) {
        self.capacity = capacity
        p = .allocate(capacity: capacity)
    }
    deinit { p.deallocate() }

    public func reset() { count = 0; first = true }
    /// What was written since the last reset.
    public var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: p, count: count) }
    public var text: String { String(decoding: written, as: UTF8.self) }

    @inline(__always) private func ensure(_ n: Int) { if count + n > capacity { grow(n) } }
    private func grow(_ n: Int) {
        let bigger = max(capacity * 2, count + n)
        let q = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        q.update(from: p, count: count)
        p.deallocate()
        p = q
        capacity = bigger
    }
    @inline(__always) private func byte(_ b: UInt8) { ensure(1); p[count] = b; count += 1 }
    @inline(__always) private func raw(_ src: UnsafePointer<UInt8>, _ n: Int) {
        ensure(n)
        (p + count).update(from: src, count: n)
        count += n
    }
    private func word(_ w: StaticString) { raw(w.utf8Start, w.utf8CodeUnitCount) }

    public func open() { byte(0x7B); first = true }
    public func close() { byte(0x7D); first = false }

    private func key(_ k: StaticString) {
        let n = k.utf8CodeUnitCount
        ensure(n + 4)
        var q = p + count
        if !first { q.pointee = 0x2C; q += 1 }
        first = false
        q.pointee = 0x22
        q += 1
        let src = k.utf8Start
        for i in 0..<n { q[i] = src[i] }  // keys are short: a loop beats a call to memcpy
        q[n] = 0x22
        q[n + 1] = 0x3A
        count = q - p + n + 2
    }

    private func integer(_ v: Int64) {
        ensure(21)
        var m = v.magnitude
        if v < 0 { p[count] = UInt8(ascii: "-"); count += 1 }
        // Digits right to left into the spare room past the end, then moved into place.
        let end = p + count + 20
        var q = end
        repeat { q -= 1; q.pointee = UInt8(truncatingIfNeeded: 0x30 &+ m % 10); m /= 10 } while m > 0
        let digits = end - q
        for i in 0..<digits { p[count + i] = q[i] }
        count += digits
    }

    public func field(_ k: StaticString, _ v: String) { key(k); string(v) }
    /// A string field whose value is a constant that needs no escaping (`"phase":"begin"`).
    public func field(_ k: StaticString, constant v: StaticString) {
        key(k)
        ensure(v.utf8CodeUnitCount + 2)
        p[count] = 0x22
        (p + count + 1).update(from: v.utf8Start, count: v.utf8CodeUnitCount)
        count += v.utf8CodeUnitCount + 1
        p[count] = 0x22
        count += 1
    }
    public func field(_ k: StaticString, _ v: String?) { key(k); if let v { string(v) } else { word("null") } }
    public func field(_ k: StaticString, _ v: Int) { key(k); integer(Int64(v)) }
    public func field(_ k: StaticString, _ v: Int64) { key(k); integer(v) }
    public func field(_ k: StaticString, _ v: Int?) { key(k); if let v { integer(Int64(v)) } else { word("null") } }
    public func field(_ k: StaticString, _ v: Bool) { key(k); if v { word("true") } else { word("false") } }
    /// A nested object.
    public func object(_ k: StaticString, _ body: (JSONWriter) -> Void) {
        key(k)
        open()
        body(self)
        close()
    }

    /// A JSON string: quoted, with `"`, `\\` and control characters escaped (RFC 8259).
    public func string(_ s: String) {
        var s = s
        s.withUTF8 { quoted($0) }  // small strings on the stack, others in place
    }

    private static let hex: StaticString = "0123456789abcdef"

    private func quoted(_ b: UnsafeBufferPointer<UInt8>) {
        byte(0x22)
        guard let base = b.baseAddress else { byte(0x22); return }
        var from = 0
        for i in 0..<b.count {
            let c = b[i]
            guard c < 0x20 || c == 0x22 || c == 0x5C else { continue }
            if from < i { raw(base + from, i - from) }
            from = i + 1
            switch c {
            case 0x22, 0x5C: byte(0x5C); byte(c)
            case 0x0A: word("\\n")
            case 0x0D: word("\\r")
            case 0x09: word("\\t")
            default:
                word("\\u00")
                byte(JSONWriter.hex.utf8Start[Int(c >> 4)])
                byte(JSONWriter.hex.utf8Start[Int(c & 15)])
            }
        }
        if from < b.count { raw(base + from, b.count - from) }
        byte(0x22)
    }
}

extension JSON {
    /// Parses one JSON text (RFC 8259); nil when it is not valid. Numbers without a fraction or
    /// exponent that fit are `.int`.
    public static func parse(_ text: String) -> JSON? {
        var p = Reader(bytes: Array(text.utf8))
        guard let v = p.value() else { return nil }
        p.space()
        return p.i == p.bytes.count ? v : nil
    }

    /// The field `name` of an object.
    public subscript(_ name: String) -> JSON? {
        if case .object(let fields) = self { return fields.first { $0.0 == name }?.1 }
        return nil
    }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var intValue: Int64? { if case .int(let i) = self { return i }; return nil }
    public var arrayValue: [JSON]? { if case .array(let a) = self { return a }; return nil }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0
        mutating func space() { while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 } }
        mutating func literal(_ word: String, _ v: JSON) -> JSON? {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { return nil }
            i += w.count
            return v
        }
        mutating func value(depth: Int = 0) -> JSON? {
            space()
            guard i < bytes.count, depth < 64 else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "\""): return string().map(JSON.string)
            case UInt8(ascii: "["):
                i += 1
                var items: [JSON] = []
                space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    guard let v = value(depth: depth + 1) else { return nil }
                    items.append(v)
                    space()
                    guard i < bytes.count else { return nil }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    return nil
                }
            case UInt8(ascii: "{"):
                i += 1
                var fields: [(String, JSON)] = []
                space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                while true {
                    space()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let k = string() else { return nil }
                    space()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                    i += 1
                    guard let v = value(depth: depth + 1) else { return nil }
                    fields.append((k, v))
                    space()
                    guard i < bytes.count else { return nil }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                    return nil
                }
            default: return number()
            }
        }
        mutating func number() -> JSON? {
            let start = i
            while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
            guard i > start else { return nil }
            let s = String(decoding: bytes[start..<i], as: UTF8.self)
            if let n = Int64(s) { return .int(n) }
            return Double(s).map(JSON.double)
        }
        mutating func string() -> String? {
            i += 1  // the opening quote
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                switch b {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard i < bytes.count else { return nil }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard var u = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(u), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                            i += 2
                            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(u) else { return nil }
                        out += Array(String(Character(scalar)).utf8)
                    default: out.append(e)
                    }
                default:
                    guard b >= 0x20 else { return nil }
                    out.append(b)
                }
            }
            return nil
        }
        mutating func hex4() -> UInt32? {
            guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16) else { return nil }
            i += 4
            return v
        }
    }
}

// Swift literals as Lua literals: integers (with `_`, hex, octal and binary), floats, strings
// (escapes, multi-line, raw), booleans and nil. Also Lua string quoting for names the
// translation writes. Pure functions.
import SwiftSyntax

enum Literals {
    /// A Lua string literal holding `s` (escaped so that any bytes survive, newlines included).
    static func quote(_ s: String) -> String {
        var out = "\""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\n"): out += "\\n"
            case UInt8(ascii: "\r"): out += "\\r"
            case UInt8(ascii: "\t"): out += "\\t"
            case 0..<32, 127: out += "\\\(b)"
            default: out.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        // Non-ASCII bytes were appended as Latin-1 scalars above; rebuild them as UTF-8.
        return fixBytes(out) + "\""
    }

    private static func fixBytes(_ s: String) -> String {
        var bytes: [UInt8] = []
        for u in s.unicodeScalars { bytes.append(UInt8(truncatingIfNeeded: u.value)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An integer literal's value as Lua writes it (nil when it does not fit 64 bits).
    static func integer(_ text: String) -> String? {
        var t = text.replacingOccurrences(of: "_", with: "")
        var negative = false
        if t.hasPrefix("-") { negative = true; t.removeFirst() }
        var value: UInt64?
        if t.hasPrefix("0x") || t.hasPrefix("0X") { value = UInt64(t.dropFirst(2), radix: 16) }
        else if t.hasPrefix("0o") { value = UInt64(t.dropFirst(2), radix: 8) }
        else if t.hasPrefix("0b") { value = UInt64(t.dropFirst(2), radix: 2) }
        else { value = UInt64(t, radix: 10) }
        guard let v = value, v <= UInt64(Int64.max) else { return nil }
        return (negative ? "-" : "") + String(v)
    }

    /// A float literal as Lua writes it (always a float: `1.0`, `2e3`).
    static func float(_ text: String) -> String {
        let t = text.replacingOccurrences(of: "_", with: "")
        if t.hasPrefix("0x") || t.hasPrefix("0X") { return t }
        if t.contains(".") || t.contains("e") || t.contains("E") { return t }
        return t + ".0"
    }

    /// The text of a string literal without interpolation, unescaped (nil: it interpolates).
    static func plainString(_ s: StringLiteralExprSyntax) -> String? {
        var out = ""
        for seg in s.segments {
            switch seg {
            case .stringSegment(let t): out += unescape(t.content.text, raw: s.openingPounds != nil, multiline: s.openingQuote.text == "\"\"\"")
            case .expressionSegment: return nil
            }
        }
        return out
    }

    /// Swift's escapes (`\n`, `\t`, `\"`, `\\`, `\0`, `\u{...}`) as the characters they stand for.
    static func unescape(_ text: String, raw: Bool, multiline: Bool) -> String {
        if raw { return text }
        var out = ""
        var it = Array(text.unicodeScalars)
        var i = 0
        // A multi-line literal's line ending after a backslash is removed.
        while i < it.count {
            let c = it[i]
            if c == "\\" && i + 1 < it.count {
                let n = it[i + 1]
                switch n {
                case "n": out += "\n"; i += 2
                case "t": out += "\t"; i += 2
                case "r": out += "\r"; i += 2
                case "0": out += "\0"; i += 2
                case "\"", "'", "\\": out.unicodeScalars.append(n); i += 2
                case "\n" where multiline: i += 2
                case "u":
                    if i + 2 < it.count, it[i + 2] == "{", let close = it[(i + 3)...].firstIndex(of: "}") {
                        let hex = String(String.UnicodeScalarView(it[(i + 3)..<close]))
                        if let v = UInt32(hex, radix: 16), let u = Unicode.Scalar(v) { out.unicodeScalars.append(u) }
                        i = close + 1
                    } else { out += "u"; i += 2 }
                default: out.unicodeScalars.append(n); i += 2
                }
            } else {
                out.unicodeScalars.append(c)
                i += 1
            }
        }
        it.removeAll()
        return out
    }

    /// A literal expression as Lua (enum raw values), or nil when it is not a literal.
    static func lua(_ e: ExprSyntax) -> String? {
        if let i = e.as(IntegerLiteralExprSyntax.self) { return integer(i.literal.text) }
        if let f = e.as(FloatLiteralExprSyntax.self) { return float(f.literal.text) }
        if let s = e.as(StringLiteralExprSyntax.self), let text = plainString(s) { return quote(text) }
        if let b = e.as(BooleanLiteralExprSyntax.self) { return b.literal.text }
        if let p = e.as(PrefixOperatorExprSyntax.self), p.operator.text == "-", let inner = lua(p.expression) { return "-" + inner }
        return nil
    }
}

// Virtual time for luafetch: integer milliseconds (`Millis`), conversion from scenario seconds,
// the timeline stamp `+1d02:03:04.005`, and the command line's durations (`90`, `90s`, `15m`,
// `2h`, `3d`). Pure Swift, no dependencies.

/// Virtual time and durations, in integer milliseconds.
public typealias Millis = Int64

public enum Time {
    public static let second: Millis = 1_000
    public static let minute: Millis = 60_000
    public static let hour: Millis = 3_600_000
    public static let day: Millis = 86_400_000
    /// The longest a run may last: 30 days.
    public static let maxRun: Millis = 30 * day

    /// Converts scenario seconds (a Lua number) to milliseconds, rounding to the nearest one.
    /// Returns nil for NaN, infinities and values beyond ±100 years.
    public static func millis(fromSeconds s: Double) -> Millis? {
        guard s.isFinite, abs(s) <= 3_153_600_000 else { return nil }
        return Millis((s * 1000).rounded(.toNearestOrAwayFromZero))
    }

    /// Milliseconds as seconds for Lua: an integer when whole, a float otherwise.
    public static func seconds(_ ms: Millis) -> SecondsValue {
        ms % 1000 == 0 ? .integer(ms / 1000) : .float(Double(ms) / 1000)
    }

    /// Milliseconds as Lua would print the seconds: `12`, `12.5`.
    public static func secondsText(_ ms: Millis) -> String {
        switch seconds(ms) {
        case .integer(let i): return String(i)
        case .float(let d): return String(d)
        case .infinity: return "inf"
        }
    }

    /// `+1d02:03:04.005` (days always shown, so columns line up).
    public static func stamp(_ ms: Millis) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        appendStamp(ms, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `stamp(ms)` appended as UTF-8 (the text timeline's hot path: no String in between).
    public static func appendStamp(_ ms: Millis, to out: inout [UInt8]) {
        out.append(ms < 0 ? 0x2D : 0x2B)
        var t = ms.magnitude
        let d = t / UInt64(day); t %= UInt64(day)
        let h = t / UInt64(hour); t %= UInt64(hour)
        let m = t / UInt64(minute); t %= UInt64(minute)
        appendDigits(d, width: 1, to: &out)
        out.append(0x64)  // d
        appendDigits(h, width: 2, to: &out)
        out.append(0x3A)
        appendDigits(m, width: 2, to: &out)
        out.append(0x3A)
        appendDigits(t / 1000, width: 2, to: &out)
        out.append(0x2E)
        appendDigits(t % 1000, width: 3, to: &out)
    }

    /// `v` in decimal, zero-padded to `width` digits.
    private static func appendDigits(_ v: UInt64, width: Int, to out: inout [UInt8]) {
        var p: UInt64 = 1, n = 1
        while n < width || v / p >= 10 { p *= 10; n += 1 }
        var v = v
        while p > 0 { out.append(0x30 + UInt8(v / p)); v %= p; p /= 10 }
    }

    /// A short human duration: `30s`, `2m05s`, `1h30m`, `2d3h`, `250ms`.
    public static func human(_ ms: Millis) -> String {
        if ms < 1000 { return "\(ms)ms" }
        if ms < minute {
            return ms % 1000 == 0 ? "\(ms / 1000)s" : "\(ms / 1000).\(pad(ms % 1000, 3))s"
        }
        if ms < hour { return "\(ms / minute)m" + (ms % minute >= 1000 ? "\(pad((ms % minute) / 1000, 2))s" : "") }
        if ms < day { return "\(ms / hour)h" + (ms % hour >= minute ? "\(pad((ms % hour) / minute, 2))m" : "") }
        return "\(ms / day)d" + (ms % day >= hour ? "\(ms % day / hour)h" : "")
    }

    /// Parses a command-line duration: `90` (seconds), `90s`, `1.5m`, `15m`, `2h`, `3d`, `250ms`.
    public static func parseDuration(_ text: String) -> Millis? {
        // "90" (seconds), or number-unit pairs: "90s", "15m", "2h", "3d", "500ms", "5m12s", "1h30m".
        let bytes = Array(text.trimmedWhitespace().utf8)
        guard !bytes.isEmpty else { return nil }
        var i = 0, total = 0.0, pairs = 0
        while i < bytes.count {
            let start = i
            while i < bytes.count, (bytes[i] >= 48 && bytes[i] <= 57) || bytes[i] == 46 { i += 1 }
            guard i > start, let value = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else { return nil }
            let unitStart = i
            while i < bytes.count, bytes[i] >= 97 && bytes[i] <= 122 { i += 1 }
            let unit = String(decoding: bytes[unitStart..<i], as: UTF8.self)
            let factor: Double
            switch unit {
            case "": guard pairs == 0, i == bytes.count else { return nil }; factor = 1
            case "ms": factor = 0.001
            case "s": factor = 1
            case "m": factor = 60
            case "h": factor = 3600
            case "d": factor = 86400
            default: return nil
            }
            total += value * factor
            pairs += 1
        }
        return millis(fromSeconds: total)
    }

    static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}

/// Seconds as Lua sees them: an integer when whole, a float otherwise.
public enum SecondsValue: Equatable, Sendable {
    case integer(Int64)
    case float(Double)
    case infinity
}

extension String {
    /// The string without leading and trailing blanks (Core avoids Foundation for start-up time).
    public func trimmedWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}

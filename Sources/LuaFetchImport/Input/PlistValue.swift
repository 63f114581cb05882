// A property-list value as the importer keeps it (SPEC 18.8.3): the whole resolved Info.plist,
// typed (strings, integers, reals, booleans, arrays, dictionaries; dates and data as strings), so
// the scenario can hand it to `Bundle.main` at run time. Converts from what Foundation's
// PropertyListSerialization returns and from YAML-like Swift values (XcodeGen's
// `info.properties`). Uses Foundation; no Lua.
import Foundation

/// One value of a property list.
indirect enum PlistValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case array([PlistValue])
    case dict([String: PlistValue])

    var string: String? { if case .string(let s) = self { return s }; return nil }
    var array: [PlistValue]? { if case .array(let a) = self { return a }; return nil }
    var dict: [String: PlistValue]? { if case .dict(let d) = self { return d }; return nil }

    /// The strings of an array (a single string counts as an array of one, as Xcode reads it).
    var strings: [String] {
        switch self {
        case .string(let s): return [s]
        case .array(let a): return a.compactMap(\.string)
        default: return []
        }
    }

    /// A value of Foundation's property-list object graph; nil for what a property list cannot hold.
    static func from(_ any: Any) -> PlistValue? {
        if let s = any as? String { return .string(s) }
        if let d = any as? [String: Any] {
            var out: [String: PlistValue] = [:]
            for (k, v) in d { if let pv = from(v) { out[k] = pv } }
            return .dict(out)
        }
        if let a = any as? [Any] { return .array(a.compactMap(from)) }
        if type(of: any) == Bool.self, let b = any as? Bool { return .bool(b) }
        if let n = any as? NSNumber {
            if isBoolean(n) { return .bool(n.boolValue) }
            let t = String(cString: n.objCType)
            if t == "d" || t == "f" { return .real(n.doubleValue) }
            return .integer(n.intValue)
        }
        if let date = any as? Date { return .string(ISO8601DateFormatter().string(from: date)) }
        if let data = any as? Data { return .string(data.base64EncodedString()) }
        return nil
    }

    /// Foundation on Linux hands booleans over as Bool (above); on Darwin as a CFBoolean NSNumber.
    private static func isBoolean(_ n: NSNumber) -> Bool {
        #if canImport(Darwin)
        return CFGetTypeID(n) == CFBooleanGetTypeID()
        #else
        return false
        #endif
    }

    /// Every string in the value, with the key path that holds it (`Key`, `Key.0`, `Key.Sub`), in
    /// key order (for the warnings about what stays unresolved).
    func strings(at path: String) -> [(path: String, value: String)] {
        switch self {
        case .string(let s): return [(path, s)]
        case .array(let a): return a.enumerated().flatMap { $0.element.strings(at: "\(path).\($0.offset)") }
        case .dict(let d): return d.keys.sorted().flatMap { d[$0]!.strings(at: path.isEmpty ? $0 : "\(path).\($0)") }
        default: return []
        }
    }

    /// The value with `f` applied to every string in it (keys stay as they are).
    func mapStrings(_ f: (String) -> String) -> PlistValue {
        switch self {
        case .string(let s): return .string(f(s))
        case .array(let a): return .array(a.map { $0.mapStrings(f) })
        case .dict(let d): return .dict(d.mapValues { $0.mapStrings(f) })
        default: return self
        }
    }
}

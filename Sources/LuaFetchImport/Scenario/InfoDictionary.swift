// The app's resolved Info.plist in the scenario (SPEC 18.8.3): one `swift.infoPlist({...}, ID)`
// call, keys sorted (the same bytes every time), written when the translated code reads
// `Bundle.main.bundleIdentifier`, `infoDictionary` or `object(forInfoDictionaryKey:)`, so those
// read what the app's Info.plist says at run time. Uses InfoPlist, PlistValue, Literals.

enum InfoDictionary {
    /// The scenario's lines for `plist` (a nil plist still answers: every read is nil).
    static func lines(_ plist: InfoPlist?) -> [String] {
        guard let plist else { return ["swift.infoPlist(nil, nil)  -- no Info.plist: Bundle.main's reads are nil"] }
        var out = ["-- The app's Info.plist (\(plist.path)), resolved: what Bundle.main reads."]
        out.append("swift.infoPlist({")
        for key in plist.values.keys.sorted() {
            out.append("  [\(Literals.quote(key))] = \(lua(plist.values[key]!, depth: 1)),")
        }
        out.append("}, \(plist.bundleIdentifier.map(Literals.quote) ?? "nil"))")
        return out
    }

    /// A value as a Lua constructor (arrays as sequences, dictionaries with sorted keys).
    static func lua(_ v: PlistValue, depth: Int) -> String {
        switch v {
        case .string(let s): return Literals.quote(s)
        case .integer(let i): return String(i)
        case .real(let d):
            if d.isNaN { return "(0/0)" }
            if d.isInfinite { return d > 0 ? "math.huge" : "-math.huge" }
            return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .array(let a):
            guard depth < 32, !a.isEmpty else { return "{}" }
            return "{ " + a.map { lua($0, depth: depth + 1) }.joined(separator: ", ") + " }"
        case .dict(let d):
            guard depth < 32, !d.isEmpty else { return "{}" }
            return "{ " + d.keys.sorted().map { "[\(Literals.quote($0))] = \(lua(d[$0]!, depth: depth + 1))" }.joined(separator: ", ") + " }"
        }
    }
}

// The app's Info.plist (SPEC 18.2, 18.7.14): its background modes, permitted BGTask identifiers,
// scene manifest and name. XML and binary property lists are both read (FoundationEssentials'
// PropertyListDecoder); of several, the app's is the one without `NSExtension`, beside the app
// delegate when there are more.
import FoundationEssentials

/// What the scenario takes from Info.plist.
struct InfoPlist: Sendable {
    var path: String
    var backgroundModes: [String] = []
    var permittedIdentifiers: [String] = []
    var hasSceneManifest = false
    var isExtension = false
    var name: String?

    private struct Keys: Decodable {
        var UIBackgroundModes: [String]?
        var BGTaskSchedulerPermittedIdentifiers: [String]?
        var UIApplicationSceneManifest: Present?
        var NSExtension: Present?
        var CFBundleDisplayName: String?
        var CFBundleName: String?
    }
    /// Any value: only its presence counts.
    private struct Present: Decodable { init(from decoder: Decoder) throws {} }

    /// Reads a property list; a malformed one is an ImportError (exit 2).
    static func read(_ path: String) throws(ImportError) -> InfoPlist {
        let bytes = try SourceFiles.read(path)
        let keys: Keys
        do {
            keys = try PropertyListDecoder().decode(Keys.self, from: Data(bytes))
        } catch {
            throw ImportError("luafetch import: \(path): not a property list luafetch can read (\(Self.reason(error))); check it with `plutil -lint`")
        }
        var p = InfoPlist(path: path)
        p.backgroundModes = keys.UIBackgroundModes ?? []
        p.permittedIdentifiers = keys.BGTaskSchedulerPermittedIdentifiers ?? []
        p.hasSceneManifest = keys.UIApplicationSceneManifest != nil
        p.isExtension = keys.NSExtension != nil
        p.name = [keys.CFBundleDisplayName, keys.CFBundleName].compactMap { $0 }.first { !$0.hasPrefix("$(") && !$0.isEmpty }
        return p
    }

    static func reason(_ error: Error) -> String {
        if case DecodingError.typeMismatch(_, let c) = error { return "\(c.codingPath.map(\.stringValue).joined(separator: ".")): \(c.debugDescription)" }
        if case DecodingError.dataCorrupted(let c) = error { return c.debugDescription }
        return "\(error)"
    }

    /// The app's own Info.plist among several: not an extension's, the one nearest the app
    /// delegate's file, else the first in path order.
    static func choose(_ plists: [InfoPlist], near delegatePath: String?) -> InfoPlist? {
        let apps = plists.filter { !$0.isExtension }
        guard !apps.isEmpty else { return nil }
        if let delegatePath {
            func shared(_ a: String) -> Int {
                let x = a.split(separator: "/"), y = delegatePath.split(separator: "/")
                var n = 0
                while n < x.count && n < y.count && x[n] == y[n] { n += 1 }
                return n
            }
            return apps.max { (shared($0.path), $1.path) < (shared($1.path), $0.path) }
        }
        return apps.first
    }
}

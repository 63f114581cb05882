// The app's Info.plist (SPEC 18.2, 18.7.14, 18.8.3): the whole resolved dictionary (what
// `Bundle.main` reads at run time) and what the scenario takes from it: background modes,
// permitted BGTask identifiers, scene manifest, name, bundle identifier. XML, binary and
// old-style property lists are read with Foundation's PropertyListSerialization, after Xcode's
// preprocessor when the file has preprocessor lines. Of several found by the folder search, the
// app's is the one without `NSExtension`, beside the app delegate when there are more.
// Uses Foundation, PlistValue, PlistPreprocessor (Project/), SourceFiles.
import Foundation

/// What the scenario takes from Info.plist.
struct InfoPlist: Sendable {
    /// The path the report and the scenario show (or what generated it).
    var path: String
    /// The whole dictionary, resolved (build settings substituted, INFOPLIST_KEY_* merged).
    var values: [String: PlistValue] = [:]
    /// CFBundleIdentifier, else the target's PRODUCT_BUNDLE_IDENTIFIER.
    var bundleIdentifier: String?
    var backgroundModes: [String] = []
    var permittedIdentifiers: [String] = []
    var hasSceneManifest = false
    /// The scene manifest names a storyboard (`UISceneStoryboardFile`): UIKit makes the scene's
    /// window and sets the scene delegate's `window` before `scene(_:willConnectTo:options:)`.
    var sceneStoryboard = false
    /// A main storyboard (`UIMainStoryboardFile`) in an app without a scene manifest: UIKit makes
    /// the window and sets the app delegate's `window` before `willFinishLaunching`.
    var mainStoryboard = false
    var isExtension = false
    var name: String?

    init(path: String, values: [String: PlistValue] = [:], bundleIdentifier: String? = nil) {
        self.path = path
        self.values = values
        self.bundleIdentifier = bundleIdentifier
        derive()
    }

    /// The fields the scenario uses, from `values`.
    mutating func derive() {
        backgroundModes = values["UIBackgroundModes"]?.strings ?? []
        permittedIdentifiers = values["BGTaskSchedulerPermittedIdentifiers"]?.strings ?? []
        hasSceneManifest = values["UIApplicationSceneManifest"] != nil
        let configurations = values["UIApplicationSceneManifest"]?.dict?["UISceneConfigurations"]?.dict ?? [:]
        sceneStoryboard = configurations.values.contains { role in
            (role.array ?? []).contains { $0.dict?["UISceneStoryboardFile"]?.string?.isEmpty == false }
        }
        mainStoryboard = !hasSceneManifest && values["UIMainStoryboardFile"]?.string?.isEmpty == false
        isExtension = values["NSExtension"] != nil || values["EXAppExtensionAttributes"] != nil
        name = [values["CFBundleDisplayName"]?.string, values["CFBundleName"]?.string].compactMap { $0 }
            .first { !$0.contains("$(") && !$0.contains("${") && !$0.isEmpty }
        if bundleIdentifier == nil, let id = values["CFBundleIdentifier"]?.string, !id.isEmpty, !id.contains("$(") && !id.contains("${") {
            bundleIdentifier = id
        }
    }

    /// Reads a property list found by the folder search (no build settings: a preprocessor line
    /// sees no definitions). A malformed one is an ImportError (exit 2).
    static func read(_ path: String, shown: String? = nil) throws(ImportError) -> InfoPlist {
        let values = try parse(path, shown: shown ?? path, preprocessor: PlistPreprocessor())
        return InfoPlist(path: shown ?? path, values: values)
    }

    /// The dictionary of the property list at `path`, preprocessed first when it has
    /// preprocessor lines.
    static func parse(_ path: String, shown: String, preprocessor: PlistPreprocessor) throws(ImportError) -> [String: PlistValue] {
        let bytes = try SourceFiles.read(path)
        var data = Data(bytes)
        let isText = !bytes.starts(with: Array("bplist".utf8))
        if isText {
            let text = String(decoding: bytes, as: UTF8.self)
            if PlistPreprocessor.hasDirectives(text) {
                var pp = preprocessor
                data = Data(try pp.run(text, shown: shown, folder: ProjectPaths.folder(of: path)).utf8)
            }
        }
        let any: Any
        do {
            any = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ImportError("luafetch import: \(shown): not a property list luafetch can read (\(PBXReader.explain(error).1)); check it with `plutil -lint`")
        }
        guard case .dict(let d)? = PlistValue.from(any) else {
            throw ImportError("luafetch import: \(shown): a property list, but not a dictionary; an Info.plist is one")
        }
        return d
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

// A target's Info.plist, resolved as Xcode builds it (SPEC 18.8.3): the file INFOPLIST_FILE names
// (XcodeGen's `info.path`), run through the Info.plist preprocessor with the target's
// definitions (INFOPLIST_PREPROCESSOR_DEFINITIONS, the `#define`s of INFOPLIST_PREFIX_HEADER)
// when it has preprocessor lines; `$(VAR)`, `${VAR}` and `$(VAR:modifier)` replaced from the
// target's build settings; with GENERATE_INFOPLIST_FILE, the keys Xcode generates and the
// `INFOPLIST_KEY_*` settings (the file's own keys win); XcodeGen's `info.properties` over all.
// A build setting defined nowhere is empty (as Xcode has it) and a value that still holds `$(` is
// kept: both are warnings naming the key. Uses InfoPlist, PlistValue,
// PlistPreprocessor, BuildSettings.

enum InfoPlistResolver {
    /// The target's Info.plist (nil when it has none), with warnings (where, what). A preprocessor
    /// error or a malformed file is an ImportError (exit 2).
    static func resolve(_ t: ProjectTarget, root: String, shown: (String) -> String) throws(ImportError) -> (InfoPlist?, [(where: String, text: String)]) {
        let s = t.settings
        var warnings: [(where: String, text: String)] = []
        let generate = s.flag("GENERATE_INFOPLIST_FILE")
        var file: String?
        if let f = s.value("INFOPLIST_FILE")?.trimmed(" \""), !f.isEmpty, !f.contains("$(") {
            let joined = ProjectPaths.join(root, f)
            file = ProjectPaths.onDisk(joined) ?? joined
        }
        if let g = t.generatedInfoPath, ProjectPaths.kind(g) == "f" || file == nil { file = g }
        var values: [String: PlistValue] = [:]
        /// Key → the build settings its value names that nothing defines.
        var missing: [String: Set<String>] = [:]
        var shownPath = "\(t.name)'s generated Info.plist"
        if let f = file {
            if ProjectPaths.kind(f) == "f" {
                shownPath = shown(f)
                var pp = PlistPreprocessor()
                pp.macros = PlistPreprocessor.definitions(s.value("INFOPLIST_PREPROCESSOR_DEFINITIONS") ?? "")
                if let header = s.value("INFOPLIST_PREFIX_HEADER")?.trimmed(" \""), !header.isEmpty, !header.contains("$(") {
                    let h = ProjectPaths.join(root, header)
                    if let bytes = try? SourceFiles.read(h) {
                        _ = try pp.run(String(decoding: bytes, as: UTF8.self), shown: shown(h), folder: ProjectPaths.folder(of: h))
                    }
                }
                values = try InfoPlist.parse(f, shown: shownPath, preprocessor: pp)
                values = substitute(values, s, missing: &missing)
            } else if t.generatedInfoPath == nil || f != t.generatedInfoPath {
                warnings.append((shown(f), "\(t.name)'s INFOPLIST_FILE is not in the repository; its keys are unknown\(generate ? " (the generated keys are used)" : "")"))
                if !generate && t.infoProperties.isEmpty { return (nil, warnings) }
            }
        } else if !generate && t.infoProperties.isEmpty {
            return (nil, warnings)
        }
        if generate {
            for (k, v) in generated(s, platforms: t.platforms, kind: t.kind) where values[k] == nil { values[k] = v }
        }
        for (k, v) in substitute(t.infoProperties, s, missing: &missing) { values[k] = v }
        var plist = InfoPlist(path: shownPath, values: values, bundleIdentifier: nil)
        if plist.bundleIdentifier == nil || plist.bundleIdentifier!.isEmpty, let id = s.value("PRODUCT_BUNDLE_IDENTIFIER"), !id.contains("$(") && !id.isEmpty {
            plist.bundleIdentifier = id
        }
        // What could not be resolved: names defined nowhere (empty, as Xcode has them), and
        // values that still hold `$(`.
        var byNames: [[String]: [String]] = [:]
        for key in missing.keys.sorted() where values[key] != nil { byNames[missing[key]!.sorted(), default: []].append(key) }
        for names in byNames.keys.sorted(by: { $0.joined() < $1.joined() }) {
            let listed = names.map { "$(\($0))" }.joined(separator: ", ")
            warnings.append((shownPath, "\(byNames[names]!.joined(separator: ", ")): \(listed) \(names.count == 1 ? "is" : "are") defined nowhere luafetch can see (a scheme, a CI step, a file not in the repository); taken as empty, as Xcode does"))
        }
        for key in values.keys.sorted() {
            for (path, value) in values[key]!.strings(at: key) where value.contains("$(") || value.contains("${") {
                warnings.append((shownPath, "\(path) = \"\(value)\" still holds a build setting luafetch cannot resolve"))
            }
        }
        return (plist, warnings)
    }

    /// Values with their build settings substituted; `missing` gets, per key, the names nothing defines.
    static func substitute(_ values: [String: PlistValue], _ s: BuildSettings, missing: inout [String: Set<String>]) -> [String: PlistValue] {
        var out: [String: PlistValue] = [:]
        for (k, v) in values {
            var names = Set<String>()
            out[k] = v.mapStrings { text in
                let r = s.expandTracking(text)
                names.formUnion(r.missing)
                return r.text
            }
            if !names.isEmpty { missing[k, default: []].formUnion(names) }
        }
        return out
    }

    /// The keys Xcode generates with GENERATE_INFOPLIST_FILE: the bundle's own and every
    /// `INFOPLIST_KEY_*` setting.
    static func generated(_ s: BuildSettings, platforms: [Platform], kind: TargetKind) -> [String: PlistValue] {
        var out: [String: PlistValue] = [:]
        let standard: [(String, String)] = [
            ("CFBundleIdentifier", "PRODUCT_BUNDLE_IDENTIFIER"), ("CFBundleName", "PRODUCT_NAME"),
            ("CFBundleExecutable", "EXECUTABLE_NAME"), ("CFBundleDevelopmentRegion", "DEVELOPMENT_LANGUAGE"),
            ("CFBundlePackageType", "PRODUCT_BUNDLE_PACKAGE_TYPE"), ("CFBundleShortVersionString", "MARKETING_VERSION"),
            ("CFBundleVersion", "CURRENT_PROJECT_VERSION"),
        ]
        for (key, setting) in standard {
            if let v = s.value(setting), !v.isEmpty { out[key] = .string(v) }
        }
        out["CFBundleInfoDictionaryVersion"] = .string("6.0")
        if platforms.contains(.iOS) && kind == .app { out["LSRequiresIPhoneOS"] = .bool(true) }
        for key in s.keys(withPrefix: "INFOPLIST_KEY_") {
            guard let v = s.value(key) else { continue }
            if let (k, pv) = infoKey(String(key.dropFirst("INFOPLIST_KEY_".count)), v) {
                if case .dict(let add) = pv, case .dict(let have)? = out[k] { out[k] = .dict(have.merging(add) { a, _ in a }) } else { out[k] = pv }
            }
        }
        return out
    }

    /// Keys whose INFOPLIST_KEY_ value is a list of words.
    static let listKeys: Set<String> = ["UISupportedInterfaceOrientations", "UIBackgroundModes", "UIRequiredDeviceCapabilities",
                                        "NSUserActivityTypes", "BGTaskSchedulerPermittedIdentifiers", "LSApplicationQueriesSchemes",
                                        "UIApplicationShortcutItems", "WKBackgroundModes"]

    /// One `INFOPLIST_KEY_NAME = value` setting as the key and value Xcode writes.
    static func infoKey(_ name: String, _ value: String) -> (String, PlistValue)? {
        var key = name
        if key.hasSuffix("_iPad") { key = String(key.dropLast(5)) + "~ipad" }
        if key.hasSuffix("_iPhone") { key = String(key.dropLast(7)) + "~iphone" }
        let v = value.trimmed(" ")
        let yes = ["yes", "true", "1"].contains(v.lowercased()), no = ["no", "false", "0"].contains(v.lowercased())
        switch name {
        case "UIApplicationSceneManifest_Generation":
            return yes ? ("UIApplicationSceneManifest", .dict(["UIApplicationSupportsMultipleScenes": .bool(false)])) : nil
        case "UILaunchScreen_Generation":
            return yes ? ("UILaunchScreen", .dict([:])) : nil
        case "UIApplicationSupportsMultipleScenes":
            return ("UIApplicationSceneManifest", .dict(["UIApplicationSupportsMultipleScenes": .bool(yes)]))
        default:
            break
        }
        let base = key.split(separator: "~").first.map(String.init) ?? key
        if listKeys.contains(base) { return (key, .array(BuildSettings.words(v).map(PlistValue.string))) }
        if yes && v.lowercased() != "1" || no && v.lowercased() != "0" { return (key, .bool(yes)) }
        return (key, .string(v))
    }
}

extension BuildSettings {
    /// Every key any level sets that starts with `prefix`, sorted.
    func keys(withPrefix prefix: String) -> [String] {
        Set(levels.flatMap { $0.keys.filter { $0.hasPrefix(prefix) } }).sorted()
    }
}

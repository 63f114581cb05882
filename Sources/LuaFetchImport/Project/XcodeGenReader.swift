// The targets of an XcodeGen spec (SPEC 18.8.1), merged by XcodeGenSpec: `targets` with their
// `templates` (`targetTemplates`, `${target_name}`), `type` and `platform` (a list makes one target
// per platform, `NAME_iOS`) or `supportedDestinations`; `sources` (a path or `{path, excludes,
// includes, buildPhase, type, destinationFilters, optional}`); `settings` (flat, or `base` /
// `configs` / `groups` of `settingGroups`) and `configFiles` at both levels, for Release;
// `info` (the Info.plist XcodeGen writes: its path and `properties`), `options.bundleIdPrefix`;
// `dependencies` (`target`, `framework`, `package` with `product`/`products`) and `packages`
// (local with `path`, remote with `url`). What it does not know is a warning, never a crash.
// Uses XcodeGenSpec, BuildSettings, XCConfig, FolderWalk, Glob.

struct XcodeGenReader {
    let specPath: String
    let root: String
    let spec: YAMLValue
    let shown: @Sendable (String) -> String
    var warnings: [(where: String, text: String)] = []

    /// Reads the spec at `path` (with its includes).
    static func read(_ path: String, shown: @escaping @Sendable (String) -> String) -> Result<Project, XcodeGenSpec.Unreadable> {
        var warnings: [(where: String, text: String)] = []
        switch XcodeGenSpec.load(path, shown: shown, warnings: &warnings) {
        case .failure(let u): return .failure(u)
        case .success(let spec):
            var r = XcodeGenReader(specPath: path, root: ProjectPaths.folder(of: path), spec: spec, shown: shown, warnings: warnings)
            return .success(r.project())
        }
    }

    /// The configuration used: `Release`, else the first of type release, else the first.
    var configuration: String {
        guard let configs = spec["configs"]?.map, !configs.isEmpty else { return "Release" }
        if configs["Release"] != nil { return "Release" }
        if let r = configs.keys.sorted().first(where: { configs[$0]?.string?.lowercased() == "release" }) { return r }
        return configs.keys.sorted().first { $0.lowercased().contains("release") } ?? configs.keys.sorted()[0]
    }

    private mutating func project() -> Project {
        let name = spec["name"]?.string ?? ProjectPaths.name(of: ProjectPaths.folder(of: specPath))
        var p = Project(kind: .xcodegen, path: specPath, root: root, name: name)
        let packages = spec["packages"]?.map ?? [:]
        for key in packages.keys.sorted() {
            if let path = packages[key]?["path"]?.string { p.localPackages.append(ProjectPaths.join(root, path)) }
        }
        for lp in spec["localPackages"]?.strings ?? [] { p.localPackages.append(ProjectPaths.join(root, lp)) }
        let targets = spec["targets"]?.map ?? [:]
        for key in targets.keys.sorted() {
            guard let body = targets[key] else { continue }
            let t = applyTemplates(body, name: key, depth: 0)
            let platforms = t["platform"]?.strings ?? []
            if platforms.count > 1 {
                // One target per platform.
                for platform in platforms {
                    let n = key.contains("${platform}") ? key.replacingAll("${platform}", platform) : "\(key)_\(platform)"
                    p.targets.append(target(n, substitute(t, platform: platform), platform: platform, projectName: name))
                }
            } else {
                p.targets.append(target(key, t, platform: platforms.first, projectName: name))
            }
        }
        p.targets.sort { $0.name < $1.name }
        p.warnings = warnings
        return p
    }

    /// A target with its templates merged under it, `${target_name}` replaced.
    private mutating func applyTemplates(_ body: YAMLValue, name: String, depth: Int) -> YAMLValue {
        var merged = YAMLValue.map([:])
        for tname in body["templates"]?.strings ?? [] {
            guard depth < 8, let tmpl = spec["targetTemplates"]?[tname] else {
                warnings.append((shown(specPath), "target \(name): template \(tname) is not in targetTemplates; it is left out"))
                continue
            }
            merged = merged.merged(with: applyTemplates(tmpl, name: name, depth: depth + 1))
        }
        return replaceStrings(merged.merged(with: body)) { $0.replacingAll("${target_name}", name) }
    }

    private func substitute(_ v: YAMLValue, platform: String) -> YAMLValue {
        replaceStrings(v) { $0.replacingAll("${platform}", platform) }
    }

    private func replaceStrings(_ v: YAMLValue, _ f: (String) -> String) -> YAMLValue {
        switch v {
        case .scalar(let s, let k): return .scalar(s.contains("${") ? f(s) : s, kind: k)
        case .map(let m): return .map(m.mapValues { replaceStrings($0, f) })
        case .list(let l): return .list(l.map { replaceStrings($0, f) })
        }
    }

    /// A settings block: flat, or `groups` (of `settingGroups`), `base` and `configs` for this
    /// configuration (a config key matches when the configuration's name contains it).
    private func settingsDict(_ node: YAMLValue?, depth: Int = 0) -> [String: PlistValue] {
        guard let m = node?.map else { return [:] }
        let structured = m.keys.contains { ["base", "configs", "groups"].contains($0) } && (m["base"]?.map != nil || m["configs"]?.map != nil || m["groups"] != nil)
        var out: [String: PlistValue] = [:]
        func add(_ flat: [String: YAMLValue]?) {
            for (k, v) in flat ?? [:] { if let s = v.setting { out[k] = s } }
        }
        guard structured else { add(m); return out }
        if depth < 8 {
            for g in m["groups"]?.strings ?? [] {
                for (k, v) in settingsDict(spec["settingGroups"]?[g] ?? spec["settingPresets"]?[g], depth: depth + 1) { out[k] = v }
            }
        }
        add(m["base"]?.map)
        let config = configuration.lowercased()
        if let configs = m["configs"]?.map {
            for key in configs.keys.sorted() where config.contains(key.lowercased()) { add(configs[key]?.map) }
        }
        return out
    }

    /// The xcconfig a `configFiles` block names for this configuration.
    private func configFile(_ node: YAMLValue?) -> String? {
        guard let m = node?.map else { return nil }
        if let p = m[configuration]?.string { return ProjectPaths.join(root, p) }
        return m.first { $0.key.lowercased() == configuration.lowercased() }?.value.string.map { ProjectPaths.join(root, $0) }
    }

    private mutating func xcconfigLevel(_ given: String?, into settings: inout BuildSettings) {
        guard let given else { settings.addLevel([Assignment]()); return }
        let path = ProjectPaths.onDisk(given) ?? given
        guard ProjectPaths.kind(path) == "f" else {
            warnings.append((shown(specPath), "configFiles \(shown(path)): no such file; its settings are left out"))
            settings.addLevel([Assignment]())
            return
        }
        let (a, w) = XCConfig.read(path, root: root, shown: shown)
        settings.addLevel(a)
        warnings += w
    }

    static let sdks: [String: String] = ["iOS": "iphoneos", "macOS": "macosx", "watchOS": "watchos", "tvOS": "appletvos", "visionOS": "xros"]

    /// One target.
    private mutating func target(_ name: String, _ t: YAMLValue, platform: String?, projectName: String) -> ProjectTarget {
        let before = warnings.count
        defer { warnings.removeSubrange(before...) }
        let type = t["type"]?.string ?? ""
        if type.isEmpty { warnings.append((shown(specPath), "target \(name) has no type; it is read as \"other\"")) }
        let productType = type.hasPrefix("com.apple.") ? type : "com.apple.product-type." + type
        var target = ProjectTarget(id: name, name: name, productType: productType, kind: type.isEmpty ? .other : TargetKind.productType(productType))
        var settings = BuildSettings()
        settings.configuration = configuration
        settings.builtins = BuildSettings.builtins(target: name, project: projectName, root: root, configuration: configuration)
        xcconfigLevel(configFile(spec["configFiles"]), into: &settings)
        settings.addLevel(settingsDict(spec["settings"]))
        xcconfigLevel(configFile(t["configFiles"]), into: &settings)
        // XcodeGen's presets go into the target's own settings, under what the spec says.
        var own: [String: PlistValue] = [:]
        let destinations = t["supportedDestinations"]?.strings ?? []
        if let p = platform, p != "auto", let sdk = Self.sdks[p] { own["SDKROOT"] = .string(sdk) }
        if !destinations.isEmpty {
            own["SDKROOT"] = .string("auto")
            let list = destinations.flatMap { d -> [String] in
                switch d {
                case "iOS", "macCatalyst": return ["iphoneos", "iphonesimulator"]
                case "macOS": return ["macosx"]
                case "tvOS": return ["appletvos", "appletvsimulator"]
                case "visionOS": return ["xros", "xrsimulator"]
                case "watchOS": return ["watchos", "watchsimulator"]
                default: return []
                }
            }
            own["SUPPORTED_PLATFORMS"] = .string(list.joined(separator: " "))
        }
        if let prefix = spec["options"]?["bundleIdPrefix"]?.string { own["PRODUCT_BUNDLE_IDENTIFIER"] = .string("\(prefix).\(name)") }
        if let info = t["info"], let p = info["path"]?.string {
            own["INFOPLIST_FILE"] = .string(p)
            target.generatedInfoPath = ProjectPaths.join(root, p)
            for (k, v) in info["properties"]?.map ?? [:] { if let pv = v.plist { target.infoProperties[k] = pv } }
        }
        for (k, v) in settingsDict(t["settings"]) { own[k] = v }
        settings.addLevel(own)
        target.settings = settings
        target.platforms = settings.platforms() ?? [.iOS]
        if target.kind == .watchApp { target.platforms = [.watchOS] }
        target.productFile = name + (target.kind == .framework ? ".framework" : "")
        let (sources, missing, plists) = self.sources(t["sources"], target: name)
        target.sources = sources
        target.missingSources = missing
        if !settings.isSet("INFOPLIST_FILE"), target.generatedInfoPath == nil, let plist = plists.first {
            // XcodeGen sets INFOPLIST_FILE to the Info.plist among the target's sources.
            target.settings.addLevel([Assignment(rawKey: "INFOPLIST_FILE", value: ProjectPaths.relative(plist, to: root))])
        }
        links(t["dependencies"], into: &target)
        target.warnings = Array(warnings[before...])
        return target
    }
}

extension String {
    /// Every occurrence of `a` replaced by `b` (no Foundation needed).
    func replacingAll(_ a: String, _ b: String) -> String {
        guard !a.isEmpty, contains(a) else { return self }
        return split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
    }
}

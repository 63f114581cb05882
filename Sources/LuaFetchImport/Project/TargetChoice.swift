// Which app target is imported (SPEC 18.8.2): `--target NAME` picks it (in any project found);
// without it, the iOS application target (product type application, built for iOS); among
// several, the one named like the project or the repository, else the one with the most Swift
// files. Extensions, watch and macOS apps, App Clips and test targets are never chosen by
// default. Also how targets are described in the report (`NAME (macOS app)`, `--target "A B"`).
// No iOS app, or an unknown `--target`, is an ImportError naming the targets found.
// Uses ProjectModel.

enum TargetChoice {
    /// The chosen target: its project's index, the target and why.
    struct Choice {
        var project: Int
        var target: ProjectTarget
        var reason: String
    }

    /// Whether a target is an iOS application (the kind chosen by default).
    static func isIOSApp(_ t: ProjectTarget) -> Bool {
        t.kind == .app && t.platforms.contains(.iOS)
    }

    /// A name's words for comparing (`NetNewsWire-iOS` → netnewswire ios), and without the
    /// platform words (`ios`, `iphone`, `app`, `mobile`).
    static func words(_ name: String) -> (all: String, core: String) {
        var words: [String] = []
        var w = ""
        for c in name {
            if c.isLetter || c.isNumber { w.append(c) } else if !w.isEmpty { words.append(w.lowercased()); w = "" }
        }
        if !w.isEmpty { words.append(w.lowercased()) }
        let core = words.filter { !["ios", "iphone", "iphoneos", "app", "mobile", "universal"].contains($0) }
        return (words.joined(), core.joined())
    }

    /// How closely a target's name follows `name`: 4 the same, 3 the same but for platform words,
    /// 0 unrelated.
    static func likeness(_ target: String, _ name: String) -> Int {
        let a = words(target), b = words(name)
        if !a.all.isEmpty && a.all == b.all { return 4 }
        if !a.core.isEmpty && a.core == b.core { return 3 }
        return 0
    }

    /// Describes a target for the report: `NAME (macOS app)`, `NAME (extension)`.
    static func describe(_ t: ProjectTarget) -> String {
        let platforms = t.platforms.filter { $0 != .iOS }
        switch t.kind {
        case .app:
            return t.platforms.contains(.iOS) ? (t.platforms.count > 1 ? "iOS and \(platforms.map(\.rawValue).joined(separator: ", ")) app" : "iOS app")
                : "\(t.platforms.map(\.rawValue).joined(separator: "/")) app"
        case .other:
            return t.productType.hasSuffix(".tool") ? "command-line tool" : "other"
        case .watchApp, .appClip, .framework, .test:
            return t.kind.rawValue
        case .library:
            return "library"
        case .appExtension:
            let type = t.productType.hasPrefix("com.apple.product-type.") ? String(t.productType.dropFirst(23)) : t.productType
            return type == "app-extension" ? "extension" : "extension, \(type)"
        }
    }

    /// `--target NAME` as a user types it (quoted when it has spaces).
    static func option(_ name: String) -> String {
        name.contains(where: { $0 == " " || $0 == "(" || $0 == ")" || $0 == "'" }) ? "--target \"\(name)\"" : "--target \(name)"
    }

    /// The target to import.
    static func choose(_ projects: [Project], requested: String?, repository: String, shown: (String) -> String) throws(ImportError) -> Choice {
        let all = projects.indices.flatMap { pi in projects[pi].targets.map { (pi, $0) } }
        if let requested {
            let exact = all.filter { $0.1.name == requested }
            let found = exact.isEmpty ? all.filter { $0.1.name.lowercased() == requested.lowercased() } : exact
            if let (pi, t) = found.first(where: { isIOSApp($0.1) }) ?? found.first {
                return Choice(project: pi, target: t, reason: "chosen with --target")
            }
            let names = all.map(\.1.name)
            var e = ImportError("luafetch import: --target \(requested): no such target in \(projects.map { shown($0.path) }.joined(separator: ", ")); its targets: \(names.joined(separator: ", "))")
            e.unknownTarget = requested
            e.targets = names
            throw e
        }
        let apps = all.filter { isIOSApp($0.1) }
        guard !apps.isEmpty else {
            let listed = all.filter { $0.1.kind != .test }.map { "\($0.1.name) (\(describe($0.1)))" }
            let what = projects.map { "\(shown($0.path)) (\($0.kind.rawValue))" }.joined(separator: ", ")
            var e = ImportError("luafetch import: no iOS application target in \(what); its targets: \(listed.isEmpty ? "none" : listed.joined(separator: ", ")). Pick one with --target NAME, or give the app's source folder")
            e.targets = all.map(\.1.name)
            throw e
        }
        if apps.count == 1 { return Choice(project: apps[0].0, target: apps[0].1, reason: "the only iOS application target") }
        // Named like its project, or like the repository; between equals, the one named like the
        // repository, then the project nearest the folder given (an example app of a vendored
        // project loses), then the most files.
        typealias Rank = (named: Int, repo: Int, project: Int, depth: Int, files: Int)
        func rank(_ pi: Int, _ t: ProjectTarget) -> Rank {
            let byProject = likeness(t.name, projects[pi].name), byRepo = likeness(t.name, repository)
            let depth = shown(projects[pi].path).split(separator: "/").count
            return (max(byProject, byRepo) > 0 ? 1 : 0, byRepo, byProject, -depth, t.sources.count)
        }
        let ranked = apps.map { (pi: $0.0, t: $0.1, r: rank($0.0, $0.1)) }.sorted { a, b in
            if a.r != b.r { return a.r > b.r }
            return a.t.name < b.t.name
        }
        if let best = ranked.first, best.r.named == 1 {
            let like = best.r.repo > 0 && best.r.project == 0 ? "the repository" : "the project"
            return Choice(project: best.pi, target: best.t, reason: "the iOS application target named like \(like)")
        }
        let sorted = apps.sorted { ($0.1.sources.count, $1.1.name) > ($1.1.sources.count, $0.1.name) }
        return Choice(project: sorted[0].0, target: sorted[0].1, reason: "the iOS application target with the most Swift files of its own (\(sorted[0].1.sources.count))")
    }
}

// The project-aware input stage (SPEC 18.8.1–18.8.3): for a folder (or an `.xcodeproj`, an
// XcodeGen spec, a Package.swift) given alone, finds the project files, reads them, chooses the
// app target, gathers its code and resolves its Info.plist; the report's first lines say what was
// read and chosen. An unreadable or malformed project file is a warning (path and line) and the
// folder search goes on when no project could be read. Uses every reader of Project/, TargetChoice,
// AppCode, InfoPlistResolver, SourceFiles.

enum ProjectInput {
    /// What the stage found: an input to translate, or nothing (the folder search follows) with
    /// the warnings about project files that could not be read.
    enum Outcome {
        case project(ImportInput)
        case none(warnings: [(where: String, text: String)])
    }

    /// Reads the project under `options.paths` (one folder or one project file).
    static func read(_ options: ImportOptions) throws(ImportError) -> Outcome {
        guard options.paths.count == 1 else { return .none(warnings: []) }
        let given = SourceFiles.trimSlash(options.paths[0])
        var root = given
        var onlyXcode: String?, onlySpec: String?, onlyPackage = false
        if given.hasSuffix(".xcodeproj") && ProjectPaths.kind(given) == "d" {
            onlyXcode = given
            root = ProjectPaths.folder(of: given)
        } else if given.hasSuffix("project.pbxproj") && ProjectPaths.kind(given) == "f" {
            onlyXcode = ProjectPaths.folder(of: given)
            root = ProjectPaths.folder(of: onlyXcode!)
        } else if (given.hasSuffix(".yml") || given.hasSuffix(".yaml")) && ProjectPaths.kind(given) == "f" {
            onlySpec = given
            root = ProjectPaths.folder(of: given)
        } else if given.hasSuffix("Package.swift") && ProjectPaths.kind(given) == "f" {
            onlyPackage = true
            root = ProjectPaths.folder(of: given)
        } else if ProjectPaths.kind(given) != "d" {
            return .none(warnings: [])
        }
        let shown: @Sendable (String) -> String = { [root] p in ProjectPaths.relative(p, to: root) }
        var warnings: [(where: String, text: String)] = []
        var projects: [Project] = []
        // Given a project file, only its folder's packages are looked for (a product it links
        // without saying where is one of them).
        var files = ProjectFiles.find(in: root)
        if onlyXcode != nil || onlySpec != nil || onlyPackage { files.xcodeProjects = []; files.yamlFiles = [] }
        if files.truncated {
            warnings.append((root, "more than \(FolderWalk.maxEntries) entries under the folder given; project files past them were not looked for"))
        }
        // Xcode projects.
        let xcodeprojs = onlyXcode.map { [$0] } ?? files.xcodeProjects.map { ProjectPaths.join(root, $0) }
        for path in xcodeprojs.prefix(16) {
            switch PBXReader.read(path, shown: shown) {
            case .success(let p): projects.append(p)
            case .failure(let u): warnings.append((u.place, "\(u.reason); this project is left out"))
            }
        }
        // XcodeGen specs: those no other spec includes, unless an Xcode project beside one was read.
        var specs: [String] = onlySpec.map { [$0] } ?? []
        if onlySpec == nil {
            var parsed: [(path: String, value: YAMLValue)] = []
            for rel in files.yamlFiles {
                let path = ProjectPaths.join(root, rel)
                switch XcodeGenSpec.parse(path, shown: rel) {
                case .success(let v) where XcodeGenSpec.looksLikeSpec(v): parsed.append((path, v))
                case .failure(let u) where rel.hasSuffix("project.yml"): warnings.append((u.place, "\(u.reason); this XcodeGen spec is left out"))
                default: break
                }
            }
            // Roots: named (XcodeGen requires `name`), included by no other spec, and of those the
            // nearest the folder given (a part's own spec deeper down is not the project's).
            let included = Set(parsed.flatMap { XcodeGenSpec.includes(of: $0.value, at: $0.path).map(\.path) })
            let roots = parsed.filter { !included.contains($0.path) && $0.value["name"]?.string != nil }.map(\.path)
            let depth = { (p: String) in ProjectPaths.relative(p, to: root).split(separator: "/").count }
            let nearest = roots.map(depth).min() ?? 0
            specs = roots.filter { depth($0) == nearest }
            let xcodeFolders = Set(projects.map { ProjectPaths.folder(of: $0.path) })
            specs = specs.filter { !xcodeFolders.contains(ProjectPaths.folder(of: $0)) }
        }
        for path in specs.prefix(8) {
            switch XcodeGenReader.read(path, shown: shown) {
            case .success(let p): projects.append(p)
            case .failure(let u): warnings.append((u.place, "\(u.reason); this XcodeGen spec is left out"))
            }
        }
        // A Swift package alone.
        if projects.isEmpty, onlyPackage || onlyXcode == nil && onlySpec == nil && files.packages.contains("Package.swift"),
           let pkg = SwiftPackageReader.read(root, shown: shown, warnings: &warnings) {
            var p = Project(kind: .package, path: ProjectPaths.join(root, "Package.swift"), root: root, name: pkg.name)
            for t in pkg.targets {
                let type = t.isTest ? "com.apple.product-type.bundle.unit-test" : t.isExecutable ? "com.apple.product-type.tool" : "com.apple.product-type.library.static"
                var target = ProjectTarget(id: t.name, name: t.name, productType: type, kind: t.isTest ? .test : t.isExecutable ? .other : .library)
                target.sources = t.sources
                target.links = [.package(folder: root, product: t.name)]
                p.targets.append(target)
            }
            projects.append(p)
        }
        guard !projects.isEmpty else {
            if let t = options.target {
                throw ImportError("luafetch import: --target \(t): no Xcode project, XcodeGen spec or Swift package under \(given); --target picks a target of one (give the folder that holds the project)")
            }
            return .none(warnings: warnings)
        }
        let repository = ProjectPaths.name(of: SourceFiles.canonicalOrSelf(root))
        let choice = try TargetChoice.choose(projects, requested: options.target, repository: repository, shown: shown)
        let project = projects[choice.project]
        warnings += project.warnings
        let known = files.packages.map { ProjectPaths.folder(of: ProjectPaths.join(root, $0)) }
        var code = AppCode.gather(choice.target, project: choice.project, projects: projects, knownPackages: known, shown: shown)
        if project.kind == .package {
            // A package target chosen with --target: its own sources are the code.
            code.files = choice.target.sources.map { ($0, choice.target.name) }
        }
        warnings += code.warnings
        var input = ImportInput()
        input.common = root == "." ? "" : root
        input.compilationConditions = BuildSettings.compilationConditions(choice.target.settings)
        input.sources = try readSources(code.files, root: root, warnings: &warnings)
        guard !input.sources.isEmpty else {
            throw ImportError("luafetch import: \(choice.target.name) (in \(shown(project.path))) has no Swift file luafetch can read\(code.missing > 0 ? " (\(code.missing) named by the project are not in the repository)" : ""); pick another with --target NAME")
        }
        let (plist, plistWarnings) = try InfoPlistResolver.resolve(choice.target, root: project.root, shown: shown)
        input.plist = plist
        warnings += plistWarnings
        input.reportHead = head(projects, choice: choice, code: code, imported: input.sources.count, shown: shown)
        if code.missing > 0 {
            input.notes.append("\(code.missing) Swift file\(code.missing == 1 ? "" : "s") the project names \(code.missing == 1 ? "is" : "are") not in the repository (a submodule not checked out, generated code): left out")
        }
        if !code.remote.isEmpty {
            let names = code.remote.sorted()
            input.notes.append("\(names.count) remote package\(names.count == 1 ? "" : "s") the app links left out (\(names.prefix(8).joined(separator: ", "))\(names.count > 8 ? ", ..." : "")): calls into them are stubs")
        }
        if plist == nil {
            input.notes.append("\(choice.target.name) has no Info.plist (neither INFOPLIST_FILE nor GENERATE_INFOPLIST_FILE)")
        }
        input.warnings = warnings
        return .project(input)
    }

    /// The Swift files read, with their modules, in path order; unreadable or binary ones are warnings.
    static func readSources(_ files: [(path: String, module: String)], root: String, warnings: inout [(where: String, text: String)]) throws(ImportError) -> [SwiftSource] {
        guard files.count <= SourceFiles.maxFiles else {
            throw ImportError("luafetch import: the app's target and what it links have more than \(SourceFiles.maxFiles) Swift files; luafetch imports at most that many")
        }
        var out: [SwiftSource] = []
        for (path, module) in files {
            let shownPath = ProjectPaths.relative(path, to: root)
            let bytes: [UInt8]
            do { bytes = try SourceFiles.read(path) } catch {
                warnings.append((shownPath, "\(error.message.replacingAll("luafetch import: ", "")); the file is left out"))
                continue
            }
            if bytes.contains(0) {
                warnings.append((shownPath, "a binary file, not Swift; it is left out"))
                continue
            }
            out.append(SwiftSource(path: path, shown: shownPath, text: String(decoding: bytes, as: UTF8.self), module: module))
        }
        out.sort { $0.shown < $1.shown }
        return out
    }

    /// The report's first lines: the project, the target and why, the other targets.
    static func head(_ projects: [Project], choice: TargetChoice.Choice, code: AppCode, imported: Int, shown: (String) -> String) -> [String] {
        let project = projects[choice.project]
        var lines: [String] = []
        let otherProjects = projects.indices.filter { $0 != choice.project }.map { shown(projects[$0].path) }
        lines.append("project  \(shown(project.path)) (\(project.kind.rawValue)\(otherProjects.isEmpty ? "" : "; also found: \(otherProjects.joined(separator: ", "))"))")
        let own = code.files.filter { $0.module == choice.target.module }.count
        var linked: [String] = []
        if !code.frameworks.isEmpty { linked.append("\(code.frameworks.count) framework\(code.frameworks.count == 1 ? "" : "s")") }
        if !code.packages.isEmpty { linked.append("\(code.packages.count) local package\(code.packages.count == 1 ? "" : "s")") }
        let files = linked.isEmpty ? "\(imported) Swift file\(imported == 1 ? "" : "s")"
            : "\(imported) Swift files: \(min(own, imported)) of its own, the rest from \(linked.joined(separator: " and ")) it links (\((code.frameworks + code.packages).prefix(6).joined(separator: ", "))\(code.frameworks.count + code.packages.count > 6 ? ", ..." : ""))"
        lines.append("target   \(choice.target.name) (\(choice.reason); \(files))")
        // The other targets a user may pick: apps first, then extensions (not tests or frameworks).
        var others: [ProjectTarget] = []
        for (pi, p) in projects.enumerated() {
            for t in p.targets where !(pi == choice.project && t.id == choice.target.id) && [.app, .watchApp, .appClip, .appExtension].contains(t.kind) {
                others.append(t)
            }
        }
        others.sort { ($0.kind == .app ? 0 : 1, $0.name) < ($1.kind == .app ? 0 : 1, $1.name) }
        if !others.isEmpty {
            let listed = others.prefix(6).map { "\(TargetChoice.option($0.name)) (\(TargetChoice.describe($0)))" }
            lines.append("others   \(listed.joined(separator: ", "))\(others.count > 6 ? ", +\(others.count - 6) more" : "")")
        }
        return lines
    }
}

// What an import reads (SPEC 18.1, 18.8.1–18.8.3): the Swift files of the app's code, each with the
// module it belongs to, and the app's Info.plist, from the paths given. A folder (or project file)
// given alone is read as a project when it holds one (Project/ProjectInput: the target, its
// sources and linked code, its resolved Info.plist, the report's first lines); otherwise the
// folder search of 18.1 (every `.swift` file and `Info.plist` under the paths, test targets and
// dependency folders skipped), preferring the iOS app's folder over a watch or macOS app's
// (Project/FolderChoice). Uses SourceFiles, InfoPlist, Project/; no Lua.

/// The input of one import: what the rest of the pipeline translates.
struct ImportInput {
    /// The Swift files, in path order (the scenario lists them in this order).
    var sources: [SwiftSource] = []
    /// Info.plists found; `plist` is the app's when the input decided it (a project's target).
    var plists: [InfoPlist] = []
    var plist: InfoPlist?
    /// The folder the shown paths are relative to (18.7.7).
    var common = ""
    /// The chosen target's SWIFT_ACTIVE_COMPILATION_CONDITIONS and OTHER_SWIFT_FLAGS' `-D` names
    /// (Release), sorted; empty without a project.
    var compilationConditions: [String] = []
    /// The report's first lines (the project, the target chosen and why, the other targets).
    var reportHead: [String] = []
    /// Notes and warnings the input stage has for the report.
    var notes: [String] = []
    var warnings: [(where: String, text: String)] = []

    /// Reads the paths of `options`.
    static func read(_ options: ImportOptions) throws(ImportError) -> ImportInput {
        var projectWarnings: [(where: String, text: String)] = []
        switch try ProjectInput.read(options) {
        case .project(let input): return input
        case .none(let w): projectWarnings = w
        }
        if let t = options.target {
            throw ImportError("luafetch import: --target \(t): the paths given are not one folder with a project; --target picks a target of an Xcode project, XcodeGen spec or Swift package")
        }
        let found = try SourceFiles.collect(options.paths)
        guard !found.swift.isEmpty else {
            throw ImportError("luafetch import: no .swift file under \(options.paths.joined(separator: ", ")); give the app's source folder or its Swift files")
        }
        var input = ImportInput()
        input.warnings = projectWarnings
        input.common = SourceFiles.commonFolder(found.swift + found.plists)
        for path in found.swift {
            let bytes = try SourceFiles.read(path)
            let shown = SourceFiles.relative(path, to: input.common)
            if bytes.contains(0) {
                input.warnings.append((shown, "a binary file, not Swift; it is left out"))
                continue
            }
            input.sources.append(SwiftSource(path: path, shown: shown, text: String(decoding: bytes, as: UTF8.self)))
        }
        guard !input.sources.isEmpty else {
            throw ImportError("luafetch import: no .swift file luafetch can read under \(options.paths.joined(separator: ", ")); give the app's source folder or its Swift files")
        }
        input.sources.sort { $0.shown < $1.shown }
        // The iOS app's folder over a watch or macOS app's.
        let (leftOut, line) = FolderChoice.choose(input.sources.map { ($0.shown, $0.text) })
        func kept(_ shown: String) -> Bool { !leftOut.contains { shown.hasPrefix($0 + "/") } }
        input.sources = input.sources.filter { kept($0.shown) }
        if let line {
            if !projectWarnings.isEmpty { input.reportHead.append("project  none read: the folder search") }
            input.reportHead.append(line)
        }
        for p in found.plists {
            let shown = SourceFiles.relative(p, to: input.common)
            guard kept(shown) else { continue }
            input.plists.append(try InfoPlist.read(p, shown: shown))
        }
        return input
    }
}

// What an import reads (SPEC 18.1, 18.8.1–18.8.3): the Swift files of the app's code, each with the
// module it belongs to, and the app's Info.plist, from the paths given. Today: the folder search
// of 18.1 (every `.swift` file and `Info.plist` under the paths, test targets and dependency
// folders skipped). The project files of 18.8 (an Xcode project, XcodeGen, Swift packages) plug
// in here: they decide the target, its sources and its resolved Info.plist, and the report's
// first lines. Uses SourceFiles and InfoPlist; no Lua.

/// The input of one import: what the rest of the pipeline translates.
struct ImportInput {
    /// The Swift files, in path order (the scenario lists them in this order).
    var sources: [SwiftSource] = []
    /// Info.plists found; `plist` is the app's when the input decided it (a project's target).
    var plists: [InfoPlist] = []
    var plist: InfoPlist?
    /// The folder the shown paths are relative to (18.7.7).
    var common = ""
    /// The report's first lines (the project, the target chosen and why, the other targets).
    var reportHead: [String] = []
    /// Notes and warnings the input stage has for the report.
    var notes: [String] = []
    var warnings: [(where: String, text: String)] = []

    /// Reads the paths of `options`.
    static func read(_ options: ImportOptions) throws(ImportError) -> ImportInput {
        let found = try SourceFiles.collect(options.paths)
        guard !found.swift.isEmpty else {
            throw ImportError("luafetch import: no .swift file under \(options.paths.joined(separator: ", ")); give the app's source folder or its Swift files")
        }
        var input = ImportInput()
        input.common = SourceFiles.commonFolder(found.swift + found.plists)
        for path in found.swift {
            let bytes = try SourceFiles.read(path)
            let text = String(decoding: bytes, as: UTF8.self)
            input.sources.append(SwiftSource(path: path, shown: SourceFiles.relative(path, to: input.common), text: text))
        }
        input.sources.sort { $0.shown < $1.shown }
        for p in found.plists {
            var plist = try InfoPlist.read(p)
            plist.path = SourceFiles.relative(p, to: input.common)
            input.plists.append(plist)
        }
        return input
    }
}

// `luafetch import PATH... [-o FILE] [--os PROFILE] [--name NAME] [--force]` (SPEC 18.1): writes
// a scenario from an app's Swift sources and Info.plist (LuaFetchImport), to standard output or
// FILE (an existing FILE is replaced only with --force), and the import report to standard
// error. Exit 0 when a scenario was written, 2 for unreadable input, no Swift file, or Swift
// that does not parse (`File.swift:LINE:COL: message`).
import ArgumentParser
import LuaFetchImport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a scenario from an app's Swift sources and Info.plist.",
        discussion: """
        Each PATH is a .swift file, an Info.plist, or a folder searched for both (test targets, Pods/, Carthage/, .build/ and DerivedData/ skipped). The scenario holds the app's background code translated to Lua, each line marked with the Swift line it came from, stubs for the code the files do not define, and a default day of use; every finding of run, test and explore then names the Swift line. The report (files, entry points, mapped APIs, stubs, what was left out, warnings) goes to standard error. docs/IMPORT.md walks from an app folder to a finding.

        Examples:
          luafetch import MyApp/ -o myapp.lua
          luafetch explore myapp.lua --runs 5000
          luafetch import Sources/App/AppDelegate.swift Sources/App/Info.plist
        """
    )

    @Argument(help: "Swift files, Info.plist files or folders.")
    var paths: [String] = []

    @Option(name: [.customShort("o"), .customLong("output")], help: "Write the scenario to FILE instead of standard output.")
    var output: String?

    @Option(name: .customLong("os"), help: "The profile: ios13 or ios26 (default: the lowest the code needs).")
    var osProfile: String?

    @Option(help: "The scenario's name (default: the app's name from Info.plist, or its folder).")
    var name: String?

    @Flag(help: "Replace FILE if it exists.")
    var force = false

    @Flag(help: "No colour (import prints none; accepted as by every command).")
    var noColor = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give the app's folder or its Swift files: luafetch import MyApp/ -o myapp.lua") }
    }

    func run() throws {
        Version.current = luafetchVersion
        var command = "luafetch import " + paths.joined(separator: " ")
        if let osProfile { command += " --os \(osProfile)" }
        if let name { command += " --name \(quoted(name))" }
        let result: ImportResult
        do {
            result = try Importer.run(ImportOptions(paths: paths, os: osProfile, name: name, command: command))
        } catch {
            Output.error(error.message + "\n")
            throw ExitCode(2)
        }
        if let output {
            if let problem = writeNew(output, result.scenario, replace: force) {
                Output.error("luafetch import: \(problem)\n")
                throw ExitCode(2)
            }
        } else {
            Output.writeAll(1, Array(result.scenario.utf8))
        }
        for line in result.report { Output.error(line + "\n") }
        for w in result.warnings { Output.error(w + "\n") }
        if let output { Output.error("wrote \(output); run it: luafetch run \(output), or explore it: luafetch explore \(output) --runs 5000\n") }
    }

    private func quoted(_ s: String) -> String { s.contains(" ") ? "\"\(s)\"" : s }
}

/// Writes `text` to `path` as a new regular file, or replaces a regular file when `replace`;
/// never writes through a symbolic link. Returns why it could not, or nil.
func writeNew(_ path: String, _ text: String, replace: Bool) -> String? {
    var st = stat()
    if lstat(path, &st) == 0 {
        if (st.st_mode & S_IFMT) == S_IFLNK { return "\(path) is a symbolic link; luafetch writes only regular files (remove the link or choose another name)" }
        if (st.st_mode & S_IFMT) != S_IFREG { return "\(path) is not a regular file" }
        if !replace { return "\(path) already exists; add --force to replace it" }
    }
    var flags = O_WRONLY | O_CREAT | O_NOFOLLOW
    flags |= replace ? O_TRUNC : O_EXCL
    let fd = open(path, flags, 0o644)
    guard fd >= 0 else { return "cannot write \(path): \(String(cString: strerror(errno)))" }
    let bytes = Array(text.utf8)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        if n <= 0 { close(fd); return "cannot write \(path): \(String(cString: strerror(errno)))" }
        done += n
    }
    close(fd)
    return nil
}

// `luafetch import PATH... [-o FILE] [--os PROFILE] [--name NAME] [--target NAME] [--all] [--force]`
// (SPEC 18.1, 18.8), the importer's own executable, `luafetch-import` (luafetch runs it for
// `luafetch import`, so the simulator is built and started without swift-syntax): writes a
// scenario from an app's Swift sources and Info.plist (LuaFetchImport), to standard output or
// FILE (an existing FILE is replaced only with --force), and the import report to standard error.
// A folder holding an Xcode project, an XcodeGen spec or a Swift package is read as that project
// (its app target, or the one --target names). Each unit of the scenario is compiled with Lua's
// own parser as it is written (18.8.5). Exit 0 when a scenario was written, 2 for unreadable
// input, no Swift file, no iOS app target, an unknown --target (with a "did you mean" from
// LuaFetchCore's ranking), or Swift that does not parse (`File.swift:LINE:COL: message`); a crash
// of the importer itself exits 3.
import ArgumentParser
import LuaFetchCore
import LuaFetchImport
import LuaFetchScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "luafetch import",
        abstract: "Write a scenario from an app's Swift sources and Info.plist.",
        discussion: """
        A folder that holds the project building the app (an .xcodeproj, an XcodeGen spec such as project.yml, or a Swift package) is read as that project: its iOS application target (or the one --target names), for the Release configuration, with the in-repository frameworks and local packages it links and its Info.plist resolved from the build settings. The report's first lines name the project, the target chosen and why, and the other targets with the option that picks each. Without a project file, each PATH is a .swift file, an Info.plist, or a folder searched for both (test targets, Pods/, Carthage/, .build/ and DerivedData/ skipped), preferring the iOS app's folder over a watch or macOS app's. The scenario holds the app's background code translated to Lua, each line marked with the Swift line it came from, stubs for the code the files do not define, and a default day of use; every finding of run, test and explore then names the Swift line. The report (files, entry points, mapped APIs, stubs, what was left out, warnings) goes to standard error. docs/IMPORT.md walks from an app folder to a finding.

        Examples:
          luafetch import MyApp/ -o myapp.lua
          luafetch import . --target "MyApp iOS" -o myapp.lua
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

    @Option(help: ArgumentHelp("The app target of the project to import (default: its iOS application target).", valueName: "name"))
    var target: String?

    @Flag(help: "Translate every function, not only what background life can reach.")
    var all = false

    @Flag(help: "Replace FILE if it exists.")
    var force = false

    @Flag(help: "No colour (import prints none; accepted as by every command).")
    var noColor = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give the app's folder or its Swift files: luafetch import MyApp/ -o myapp.lua") }
    }

    static func main() {
        installCrashHandler()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            Output.error("luafetch import: " + fullMessage(for: error) + "\n")
            Glibc.exit(2)
        }
    }

    func run() throws {
        Version.current = luafetchVersion
        var command = "luafetch import " + paths.joined(separator: " ")
        if let osProfile { command += " --os \(osProfile)" }
        if let name { command += " --name \(quoted(name))" }
        if let target { command += " --target \(quoted(target))" }
        if all { command += " --all" }
        let result: ImportResult
        do {
            var options = ImportOptions(paths: paths, os: osProfile, name: name, command: command, target: target, all: all)
            // A developer's question (docs/DEVELOPING.md): why the slice kept these units.
            options.why = getenv("LUAFETCH_SLICE_WHY").map { String(cString: $0) }
            if let checker = LuaSyntaxCheck() {
                options.luaCheck = { chunk, name in checker.check(chunk, name: name) }
            }
            result = try Importer.run(options)
            if !result.why.isEmpty { Output.error(result.why) }
        } catch {
            var message = error.message
            if let unknown = error.unknownTarget, let hint = closest(unknown, among: error.targets) {
                message += "; did you mean --target \(quoted(hint))?"
            }
            Output.error(message + "\n")
            throw ExitCode(2)
        }
        if let output {
            if let problem = writeFile(output, result.scenario, existing: force ? .replace : .keep) {
                let hint = problem == .exists ? "; add --force to replace it" : ""
                Output.error("luafetch import: cannot write \(output): \(problem.message)\(hint)\n")
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

/// Standard output and error, written whole (no Foundation).
enum Output {
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n <= 0 { return }
            done += n
        }
    }
    static func error(_ s: String) { writeAll(2, Array(s.utf8)) }
}

/// A crash of the importer itself (never the app's fault) exits 3 with a short note.
func installCrashHandler() {
    for sig in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] {
        signal(sig) { _ in
            let text = "luafetch import: internal error: this is a bug in luafetch, not in your app; please report it with the app's Swift\n"
            _ = text.withCString { write(2, $0, strlen($0)) }
            _exit(3)
        }
    }
}

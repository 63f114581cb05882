// The `luafetch` command: swift-argument-parser's root with `run` as the default subcommand (so
// `luafetch FILE` runs a scenario), plus `repl` and `explore`. Usage errors exit 2 (SPEC 1), not
// ArgumentParser's 64; a crash of luafetch itself exits 3.
import ArgumentParser
import LuaFetchCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let luafetchVersion = "0.1.0"

struct Luafetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "luafetch",
        abstract: "Simulate iOS background execution deterministically, from a Lua scenario.",
        discussion: """
        Runs a scenario on a virtual clock under iOS's rules (background-time budgets, expiration
        handlers, fetch deadlines, suspension, watchdog kills) and reports every rule the app broke.

        Examples:
          luafetch examples/twitter.lua
          luafetch run examples/leaky_task.lua --seed 3 --os ios7
          luafetch run examples/news.lua --until 6h --quiet
        """,
        version: luafetchVersion,
        subcommands: [Run.self, Repl.self, Explore.self],
        defaultSubcommand: Run.self
    )
}

@main
enum Main {
    static func main() {
        installCrashHandlers()
        do {
            if let spec = fastRun() {
                try spec.execute()
                Output.flush()
                return
            }
            var command = try Luafetch.parseAsRoot()
            try command.run()
            Output.flush()
        } catch let code as ExitCode {
            Output.flush()
            exit(code.rawValue)
        } catch {
            Output.flush()
            let code = Luafetch.exitCode(for: error)
            if code == .success { Luafetch.exit(withError: error) }
            Output.error("luafetch: " + Luafetch.fullMessage(for: error) + "\n")
            exit(2)
        }
    }
}

/// `luafetch FILE ...` and `luafetch run FILE ...` in their plain forms, parsed without
/// ArgumentParser (whose reflection was most of luafetch's start-up time; docs/PERFORMANCE.md).
/// Anything else, including help and every error, goes through ArgumentParser.
func fastRun() -> RunSpec? {
    let args = Array(CommandLine.arguments.dropFirst())
    guard let first = args.first, first != "repl", first != "explore", first != "help" else { return nil }
    return RunSpec.fastParse(first == "run" ? Array(args.dropFirst()) : args)
}

/// A crash of luafetch itself (never a scenario's fault) exits 3 with a short note.
func installCrashHandlers() {
    for sig in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] {
        signal(sig) { s in
            let text = "luafetch: internal error (signal \(s)): this is a bug in luafetch, not in your scenario; please report it\n"
            _ = text.withCString { write(2, $0, strlen($0)) }
            _exit(3)
        }
    }
}

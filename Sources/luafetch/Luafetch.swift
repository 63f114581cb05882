// The `luafetch` command: swift-argument-parser's root with `run` as the default subcommand (so
// `luafetch FILE` runs a scenario), plus `repl` and `explore`. Usage errors exit 2 (SPEC 1), not
// ArgumentParser's 64; a crash of luafetch itself exits 3.
import ArgumentParser
import LuaFetchCore
import LuaFetchScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif



struct Luafetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "luafetch",
        abstract: "Simulate iOS background execution deterministically, from a Lua scenario.",
        discussion: """
        Runs a scenario on a virtual clock under iOS's rules (background-time budgets, expiration handlers, fetch deadlines, suspension, watchdog kills) and reports every rule the app broke.

        Examples:
          luafetch examples/twitter.lua
          luafetch run examples/long_task.lua --seed 3 --os ios7
          luafetch run examples/news.lua --until 6h --quiet
          luafetch test examples --junit report.xml
          luafetch new my_app.lua
        """,
        version: luafetchVersion,
        subcommands: [Run.self, TestCommand.self, Repl.self, Explore.self, NewCommand.self, TypesCommand.self, ImportCommand.self],
        defaultSubcommand: Run.self
    )
}

@main
enum Main {
    static func main() {
        installCrashHandlers()
        // `luafetch import ...` (and `luafetch help import`) is the importer's own executable.
        let args = Array(CommandLine.arguments.dropFirst())
        if args.first == "import" { ImporterFront.run(Array(args.dropFirst())) }
        if args.count == 2, args[0] == "help", args[1] == "import" { ImporterFront.run(["--help"]) }
        if let typo = Diagnose.misspelledCommand(args) {
            Output.error(typo + "\n")
            exit(2)
        }
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
            // An unknown option is named first, whatever ArgumentParser noticed before it.
            if let unknown = Diagnose.unknownOption(args) {
                Output.error(unknown + "\n")
                exit(2)
            }
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
    guard let first = args.first, !["repl", "explore", "help", "test", "new", "types", "import"].contains(first) else { return nil }
    return RunSpec.fastParse(first == "run" ? Array(args.dropFirst()) : args)
}

/// A crash of luafetch itself (never a scenario's fault) exits 3 with a short note. The handler runs
/// on its own stack, so a stack overflow is reported too.
func installCrashHandlers() {
    let size = 1 << 16
    var stack = stack_t()
    stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    stack.ss_size = size
    stack.ss_flags = 0
    sigaltstack(&stack, nil)
    for sig in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] {
        var action = sigaction()
        action.sa_flags = SA_ONSTACK
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in
            let text = "luafetch: internal error: this is a bug in luafetch, not in your scenario; please report it\n"
            _ = text.withCString { write(2, $0, strlen($0)) }
            _exit(3)
        }
        #else
        action.__sigaction_u.__sa_handler = { _ in
            let text = "luafetch: internal error: this is a bug in luafetch, not in your scenario; please report it\n"
            _ = text.withCString { write(2, $0, strlen($0)) }
            _exit(3)
        }
        #endif
        sigaction(sig, &action, nil)
    }
}

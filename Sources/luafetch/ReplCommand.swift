// `luafetch repl [FILE]` (SPEC 9): the interactive prompt. On a terminal it uses libedit (line
// editing, history in ~/.luafetch_history, completion of API names; opened only here, see
// CEditLine) and Ctrl-C stops a running line or `.run`, not the session; from a pipe it reads lines
// without prompts until EOF. The session itself is LuaFetchScripting's ReplSession.
import ArgumentParser
import CEditLine
import LuaFetchCore
import LuaFetchScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Repl: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "An interactive Lua prompt with the simulator loaded.",
        discussion: """
        Lines are Lua, run at the current virtual time; expressions print their value. Dot commands drive the clock: .advance 40s, .step, .run [until 2h], .now, .state, .pending, .trace [N], .violations, .reset, .save FILE, .help, .quit.

        Example:
          luafetch repl examples/long_task.lua
          > user.home()
          > .advance 40s
          > .pending
        """
    )

    @Argument(help: "A scenario to load first (its servers, app and timeline, clock at 0).")
    var file: String?

    @Option(help: "The seed (overrides the scenario's).")
    var seed: Int64?

    @Option(name: .customLong("os"), help: "The OS profile: ios6, ios7, ios13 or ios26.")
    var osProfile: String?

    @Flag(help: "No colour.")
    var noColor = false

    @OptionGroup var limitOptions: LimitOptions

    func validate() throws {
        if let osProfile, OSProfile(rawValue: osProfile) == nil {
            throw ValidationError("unknown --os '\(osProfile)': use ios6, ios7, ios13 or ios26")
        }
    }

    func run() throws {
        let interactive = isatty(0) != 0
        let color = interactive && isatty(1) != 0 && !noColor && !Env.noColor
        let options = RunOptions(seed: seed, os: osProfile.flatMap(OSProfile.init(rawValue:)), limits: limitOptions.limits)
        let session: ReplSession
        // On a terminal the banner comes first, then what the scenario does at t = 0.
        let file = self.file
        let banner: ((World) -> String?)? = interactive ? { world in
            let what = file == nil ? "no scenario" : "scenario \"\(world.config.name)\""
            return "luafetch \(luafetchVersion) · \(what) · os \(world.os.rawValue) · seed \(world.seed) · .help for commands"
        } : nil
        do {
            session = try ReplSession(file: file, options: options, color: color, banner: banner) { line in
                Output.line(line)
                if interactive { Output.flush() }
            }
        } catch {
            Output.error(error.message + "\n")
            throw ExitCode(2)
        }
        if interactive {
            Output.flush()
            LineEditor.run(session)
        } else {
            while !session.quit, let line = readLine(strippingNewline: true) {
                session.feed(line)
            }
        }
        Output.flush()
    }
}

/// libedit glue: prompt, history file, completion, Ctrl-C. Without libedit (not installed, or
/// `LUAFETCH_LINE_EDITING=off`, for screen readers and editors' shells), plain lines with a prompt.
enum LineEditor {
    nonisolated(unsafe) static var current: ReplSession?
    nonisolated(unsafe) static var matches: [String] = []
    nonisolated(unsafe) static var matchIndex = 0

    static var historyPath: String {
        (Env.get("HOME") ?? ".") + "/.luafetch_history"
    }

    static func run(_ session: ReplSession) {
        current = session
        let edits = Env.get("LUAFETCH_LINE_EDITING") != "off" && cedit_open() != 0
        let complete: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = { text, state in
            // libedit calls this with state 0 first, then 1, 2, ... until it returns nil.
            if state == 0 {
                let prefix = text.map { String(cString: $0) } ?? ""
                LineEditor.matches = (LineEditor.current?.words ?? []).filter { $0.hasPrefix(prefix) }
                LineEditor.matchIndex = 0
            }
            guard LineEditor.matchIndex < LineEditor.matches.count else { return nil }
            defer { LineEditor.matchIndex += 1 }
            return strdup(LineEditor.matches[LineEditor.matchIndex])
        }
        if edits { cedit_start(historyPath, complete) }
        // A parent may have left SIGINT blocked or ignored (the mask survives exec): take it back.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in LineEditor.current?.interrupt() }
        while !session.quit {
            let line: String
            if edits {
                guard let raw = cedit_readline(session.prompt) else { Output.line(""); break }  // Ctrl-D
                line = String(cString: raw)
                free(raw)
                if !line.trimmedWhitespace().isEmpty { cedit_add_history(line) }
            } else {
                Output.flush()
                Output.writeAll(1, Array(session.prompt.utf8))
                guard let plain = readLine(strippingNewline: true) else { Output.line(""); break }
                line = plain
            }
            session.feed(line)
            Output.flush()
        }
        if edits { cedit_write_history(historyPath) }
        signal(SIGINT, SIG_DFL)
    }
}

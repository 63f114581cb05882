// Diagnose: better words for the first mistakes a person makes on the command line (issue 39.6).
// A misspelled subcommand (`luafetch explor ok.lua`) gets "did you mean"; an unknown option is
// named, with "did you mean", whatever follows it (`explore ok.lua --run 500`: ArgumentParser
// would first complain that 500 is a second file); a `.swift` file or an Xcode folder given to
// run, test or explore is pointed at `luafetch import` (ScenarioFile.swiftInput). The names each
// command knows are read from ArgumentParser's own help text; the ranking is LuaFetchCore's
// `closest` (Suggestions.swift), the project's one "did you mean".
import ArgumentParser
import LuaFetchCore
import LuaFetchScripting

enum Diagnose {
    /// The subcommands, by the names a person types.
    static let commands: [(name: String, type: ParsableCommand.Type)] = [
        ("run", Run.self), ("test", TestCommand.self), ("repl", Repl.self), ("explore", Explore.self),
        ("new", NewCommand.self), ("types", TypesCommand.self), ("import", ImportCommand.self),
    ]

    /// `luafetch WORD ...` where WORD is no subcommand and no file but close to a subcommand's
    /// name: the message, else nil. Cheap: only a word without `.` or `/` that names no file is
    /// compared (a scenario's path never gets here).
    static func misspelledCommand(_ args: [String]) -> String? {
        guard let first = args.first, !first.hasPrefix("-"), !first.contains("."), !first.contains("/"),
              !commands.contains(where: { $0.name == first }), first != "help", !ScenarioFile.exists(first),
              let near = closest(first, among: commands.map(\.name) + ["help"]) else { return nil }
        return "luafetch: unknown command '\(first)'; did you mean 'luafetch \(near)'? (luafetch --help lists the commands)"
    }

    /// The long option names `command` knows (from its help text: `--runs <runs>`, `-o, --output`).
    static func options(of command: ParsableCommand.Type) -> [String] {
        var names = ["--help", "--version"]
        for line in Luafetch.helpMessage(for: command, columns: 1000).split(separator: "\n") {
            for word in line.split(separator: " ").prefix(3) {
                var w = Substring(word)
                if w.hasSuffix(",") { w = w.dropLast() }
                if w.hasPrefix("--"), w.count > 2 { names.append(String(w)) }
            }
        }
        return names
    }

    /// After ArgumentParser refused `args`: the first unknown long option (before a `--`), named
    /// with the closest one the command knows, or nil when every option is known.
    static func unknownOption(_ args: [String]) -> String? {
        var rest = args[...]
        var command: (name: String, type: ParsableCommand.Type) = ("run", Run.self)
        if let first = rest.first, let c = commands.first(where: { $0.name == first }) {
            command = c
            rest = rest.dropFirst()
        }
        var known: [String]?
        for a in rest {
            if a == "--" { break }
            guard a.hasPrefix("--"), a.count > 2 else { continue }
            let name = String(a.split(separator: "=", maxSplits: 1).first ?? Substring(a))
            if known == nil { known = options(of: command.type) }
            if known!.contains(name) { continue }
            let hint = closest(name, among: known!).map { "; did you mean '\($0)'?" } ?? ""
            return "luafetch \(command.name): unknown option '\(name)'\(hint) (luafetch \(command.name) --help lists the options)"
        }
        return nil
    }
}

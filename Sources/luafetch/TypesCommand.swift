// `luafetch types [DIR]`: writes editor and linter support for a folder of scenarios: LuaLS
// definitions of the whole API in DIR/.luafetch/luafetch.lua (hidden, so `luafetch test` skips it),
// a .luarc.json that points LuaLS at them, and a .luacheckrc with the API as read-only globals.
// Uses LuaFetchScripting's TypeDefinitions (generated from the runtime's own declarations).
import ArgumentParser
import LuaFetchScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "Write LuaLS definitions and a luacheck configuration for a folder of scenarios.",
        discussion: """
        Writes DIR/.luafetch/luafetch.lua (LuaLS definitions of every global, API table, delegate callback, option table, object and constant, with their documentation), DIR/.luarc.json (so the Lua language server in VS Code, Neovim or Zed completes app:begin... and checks types) and DIR/.luacheckrc (the API as read-only globals, for `luacheck DIR`). The definitions are regenerated every time; an existing .luarc.json or .luacheckrc that luafetch did not write is kept unless --force.

        Examples:
          luafetch types scenarios
          luafetch types
        """
    )

    @Argument(help: "The folder of scenarios.")
    var dir: String = "."

    @Flag(help: "Replace an existing .luarc.json and .luacheckrc.")
    var force = false

    @Flag(help: "No colour (types prints none; accepted as by every command).")
    var noColor = false

    func run() throws {
        let base = dir.count > 1 && dir.hasSuffix("/") ? String(dir.dropLast()) : dir
        var st = stat()
        guard stat(base, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            Output.error("luafetch types: \(dir) is not a folder\n")
            throw ExitCode(2)
        }
        let folder = base + "/.luafetch"
        if let problem = makeOwnFolder(folder) {
            Output.error("luafetch types: cannot make \(folder): \(problem.message)\n")
            throw ExitCode(2)
        }
        try write(folder + "/luafetch.lua", TypeDefinitions.meta(version: luafetchVersion), always: true)
        try write(base + "/.luarc.json", TypeDefinitions.luarc(library: ".luafetch"), always: force)
        try write(base + "/.luacheckrc", TypeDefinitions.luacheckrc(version: luafetchVersion), always: force)
    }

    /// Writes `text` to `path` unless a file that luafetch did not write is there (and not `always`).
    /// Only a regular file is replaced: a link there is refused, even with --force.
    func write(_ path: String, _ text: String, always: Bool) throws {
        if !always, let old = readRegularFile(path), old != text, !old.contains("written by `luafetch types`") {
            Output.line("kept     \(path) (not written by luafetch; --force replaces it)")
            return
        }
        if let problem = writeFile(path, text, existing: .replace) {
            Output.error("luafetch types: cannot write \(path): \(problem.message)\n")
            throw ExitCode(2)
        }
        Output.line("wrote    \(path)")
    }
}

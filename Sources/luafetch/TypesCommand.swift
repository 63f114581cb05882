// `luafetch types [DIR]`: writes editor and linter support for a folder of scenarios: LuaLS
// definitions of the whole API in DIR/.luafetch/luafetch.lua (hidden, so `luafetch test` skips it),
// a .luarc.json that points LuaLS at them, and a .luacheckrc with the API as read-only globals.
// luacheck reads .luacheckrc from the folder it runs in (or the nearest above), not from the
// folder it checks: when DIR is below the current folder, a .luacheckrc here that applies the same
// settings to DIR (and to the other folders it already lists) makes `luacheck DIR` clean from here
// too. Uses LuaFetchScripting's TypeDefinitions (generated from the runtime's own declarations).
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
        Writes DIR/.luafetch/luafetch.lua (LuaLS definitions of every global, API table, delegate callback, option table, object and constant, with their documentation), DIR/.luarc.json (so the Lua language server in VS Code, Neovim or Zed completes app:begin... and checks types when DIR is the folder you open) and DIR/.luacheckrc (the API as read-only globals, for `luacheck .` inside DIR).

        luacheck reads .luacheckrc from the folder it runs in, not from the folder it checks: when DIR is below the current folder, types also writes a .luacheckrc here that applies the same settings to DIR only (and to the folders it listed before), so `luacheck DIR` from here is clean too; the project's other Lua files keep luacheck's defaults.

        The definitions are regenerated every time; an existing .luarc.json or .luacheckrc that luafetch did not write is kept unless --force.

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
        if let below = folderBelowHere(base) { try writeProjectLuacheckrc(for: below) }
    }

    /// DIR as a path relative to the current folder when it is strictly below it (`scenarios`,
    /// `./app/scenarios`, or an absolute path inside the current folder); nil otherwise.
    func folderBelowHere(_ path: String) -> String? {
        var p = path
        if p.hasPrefix("/") {
            var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            guard getcwd(&buf, buf.count) != nil else { return nil }
            let here = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let prefix = here.hasSuffix("/") ? here : here + "/"
            guard p.hasPrefix(prefix) else { return nil }
            p = String(p.dropFirst(prefix.count))
        }
        let parts = p.split(separator: "/").filter { $0 != "." }
        guard !parts.isEmpty, !parts.contains("..") else { return nil }
        return parts.joined(separator: "/")
    }

    /// `./.luacheckrc` for `luacheck DIR` from here: written when there is none, updated (DIR added
    /// to its folders) when luafetch wrote it for folders below; luafetch's settings for this whole
    /// folder (`luafetch types .`) already cover DIR and stay; a user's own file is kept unless
    /// --force.
    func writeProjectLuacheckrc(for folder: String) throws {
        let path = ".luacheckrc"
        var folders = [folder]
        if let old = readRegularFile(path) {
            if let listed = TypeDefinitions.projectFolders(in: old) {
                folders = Array(Set(listed + [folder])).sorted()
            } else if old.contains("written by `luafetch types`") {
                return  // this folder's own settings: they apply to everything below it, DIR included
            } else if !force {
                Output.line("kept     ./\(path) (not written by luafetch; --force replaces it): luacheck run here reads it, so lint \(folder) from inside it (cd \(folder) && luacheck .)")
                return
            }
        }
        try write(path, TypeDefinitions.projectLuacheckrc(folders: folders, version: luafetchVersion), always: true,
                  note: " (for `luacheck \(folder)` from here)")
    }

    /// Writes `text` to `path` unless a file that luafetch did not write is there (and not `always`).
    /// Only a regular file is replaced: a link there is refused, even with --force.
    func write(_ path: String, _ text: String, always: Bool, note: String = "") throws {
        if !always, let old = readRegularFile(path), old != text, !old.contains("written by `luafetch types`") {
            Output.line("kept     \(path) (not written by luafetch; --force replaces it)")
            return
        }
        if let problem = writeFile(path, text, existing: .replace) {
            Output.error("luafetch types: cannot write \(path): \(problem.message)\n")
            throw ExitCode(2)
        }
        Output.line("wrote    \(path)\(note)")
    }
}

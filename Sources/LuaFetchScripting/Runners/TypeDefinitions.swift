// TypeDefinitions: what `luafetch types` writes for editors and linters. A LuaLS meta file
// (`---@meta`) with every global and API table the runtime declares (their names come from the
// runtime itself: LuaState.declaredNames, so a name added to the API without a definition fails
// TypeDefinitionTests), the delegate callbacks, the option tables (generated from the OptionSpecs
// the runtime reads them with), the objects handed to scenario code and the request/response
// tables; plus a `.luarc.json` and a luacheck standard (`.luacheckrc`) for a scenario folder.
import LuaFetchCore

public enum TypeDefinitions {
    // The documentation of every name (Doc, docs, callbacks, objects) is TypeDefinitions+Docs.swift's.

    // MARK: - The meta file

    /// The LuaLS meta file for the runtime's declared names.
    public static func meta(version: String) -> String {
        let runtime = ScenarioRuntime(path: "types")
        return meta(names: runtime.lua.declaredNames, version: version)
    }

    static func meta(names declared: [String], version: String) -> String {
        var seen = Set<String>()
        let names = declared.filter { seen.insert($0).inserted }
        var out = """
        ---@meta luafetch
        -- LuaLS definitions of luafetch's scenario API, written by `luafetch types` (luafetch \(version))
        -- from the declarations the runtime uses. Regenerate them rather than editing this file.

        ---@alias luafetch.NetworkError "timeout"|"notConnected"|"connectionLost"|"cannotFindHost"


        """
        out += optionClasses()
        out += objectClasses()
        out += lazyDefinitions
        // Tables (names with members) and plain globals, in declaration order.
        let members = Dictionary(grouping: names.filter { $0.contains(".") || $0.contains(":") }) { name in
            String(name.prefix { $0 != "." && $0 != ":" })
        }
        for name in names where !name.contains(".") && !name.contains(":") {
            let doc = docs[name]
            if let ms = members[name] {
                let cls = name == "app" ? "luafetch.App" : "luafetch.\(name)"
                if let doc { out += "---\(doc.doc)\n" }
                out += "---@class \(cls)\n"
                for m in ms where m.contains(".") {
                    let field = String(m.split(separator: ".", maxSplits: 1)[1])
                    if docs[m]?.params.isEmpty ?? true, docs[m]?.returns == nil, !isFunctionMember(m) {
                        out += "---@field \(field) \(fieldType(m)) \(docs[m]?.doc ?? "")\n"
                    }
                }
                if name == "app" { out += "---@overload fun(options: luafetch.AppOptions)\n" }
                out += "\(name) = {}\n\n"
                for m in ms where isFunctionMember(m) || (docs[m].map { !$0.params.isEmpty || $0.returns != nil } ?? false) {
                    out += function(m, docs[m])
                }
            } else if let doc, !doc.params.isEmpty || doc.returns != nil || isFunction(name) {
                out += function(name, doc)
            } else {
                out += "---\(doc?.doc ?? "")\n\(name) = \(constantValue(name))\n\n"
            }
        }
        return out
    }

    static func isFunction(_ name: String) -> Bool {
        ["scenario", "at", "every", "typed", "after", "work", "now", "seconds", "minutes", "hours", "days", "server",
         "BGAppRefreshTaskRequest", "BGProcessingTaskRequest", "BGContinuedProcessingTaskRequest"].contains(name)
    }

    /// Members that are functions: methods (`:`) and the functions of API tables.
    static func isFunctionMember(_ name: String) -> Bool {
        if name.contains(":") { return true }
        let table = String(name.prefix { $0 != "." })
        return !["app", "device"].contains(table)
    }

    static func fieldType(_ name: String) -> String {
        switch name {
        case "app.state": return "\"notRunning\"|\"inactive\"|\"active\"|\"background\"|\"suspended\""
        case "app.backgroundTimeRemaining": return "number"
        default: return "boolean"
        }
    }

    static func constantValue(_ name: String) -> String {
        if name.hasSuffix("Notification") { return "\"\(name)\"" }
        switch name {
        case "UIBackgroundTaskInvalid": return "0"
        case let n where n.hasPrefix("UIBackgroundFetchResult"): return "\"\(n.dropFirst("UIBackgroundFetchResult".count).prefix(1).lowercased() + n.dropFirst("UIBackgroundFetchResult".count + 1))\""
        default: return "nil ---@type any"
        }
    }

    static func function(_ name: String, _ doc: Doc?) -> String {
        var out = ""
        if let doc { out += "---\(doc.doc)\n" }
        for (p, t) in doc?.params ?? [] { out += "---@param \(p) \(t)\n" }
        if let r = doc?.returns { out += "---@return \(r)\n" }
        out += "function \(name)(\((doc?.params ?? []).map(\.0).joined(separator: ", "))) end\n\n"
        return out
    }

    static func luaType(_ kind: Field.Kind) -> String {
        switch kind {
        case .string: return "string"
        case .boolean: return "boolean"
        case .function: return "function"
        case .number: return "number"
        case .integer: return "integer"
        case .choice(let values, _, _): return values.map { "\"\($0)\"" }.joined(separator: "|")
        case .list(let inner):
            if case .choice = inner { return "(\(luaType(inner)))[]" }
            return "\(luaType(inner))[]"
        case .options: return "table"
        case .table: return "table"
        case .any: return "any"
        }
    }

    /// `---@class` for each option table, generated from the OptionSpec that reads it.
    static func optionClasses() -> String {
        var out = ""
        func emit(_ cls: String, _ doc: String, _ spec: OptionSpec, nested: [String: String] = [:], types: [String: String] = [:]) {
            out += "---\(doc)\n---@class (exact) \(cls)\n"
            for f in spec.fields {
                let type = types[f.name] ?? nested[f.name] ?? luaType(f.kind)
                // "must be a string" restates the type; longer rules ("≥ 0", "like ...") say more.
                let note = f.must.count < 30 && f.must.hasPrefix("must be ") ? "" : " " + f.must
                out += "---@field \(f.name)? \(type)\(note)\n"
            }
            out += "\n"
        }
        func callback(_ name: String, scene: Bool = false) -> String {
            let params = scene ? [("scene", "luafetch.Scene")] : callbackParams[name] ?? [("app", "luafetch.App")]
            return "fun(\(params.map { "\($0.0): \($0.1)" }.joined(separator: ", ")))"
        }
        let scenario = ScenarioRuntime.scenarioSpec
        for f in scenario.fields {
            if case .options(let inner) = f.kind {
                emit("luafetch.Scenario\(f.name.prefix(1).uppercased() + f.name.dropFirst())", "`scenario{ \(f.name) = {...} }`.", inner)
            }
        }
        emit("luafetch.ScenarioOptions", "`scenario{...}`.", scenario, nested: [
            "device": "luafetch.ScenarioDevice", "budgets": "luafetch.ScenarioBudgets", "limits": "luafetch.ScenarioLimits",
        ])
        var delegateTypes: [String: String] = [:]
        for f in ScenarioRuntime.delegateFields where f.name != "scene" { delegateTypes[f.name] = callback(f.name) }
        delegateTypes["scene"] = "luafetch.SceneDelegate"
        delegateTypes["delegate"] = "fun(app: luafetch.App): luafetch.Delegate"
        if case .options(let sceneSpec)? = ScenarioRuntime.delegateFields.first(where: { $0.name == "scene" })?.kind {
            var sceneTypes: [String: String] = [:]
            for f in sceneSpec.fields { sceneTypes[f.name] = callback(f.name, scene: true) }
            emit("luafetch.SceneDelegate", "The scene delegate (`app{ scenes = true }`).", sceneSpec, types: sceneTypes)
        }
        emit("luafetch.Delegate", "What `delegate = function(app) ... end` returns: the delegate's methods.", ScenarioRuntime.delegateSpec, types: delegateTypes)
        emit("luafetch.AppOptions", "`app{...}`: the delegate's methods, or `delegate = function(app) return {...} end`.", ScenarioRuntime.appSpec, types: delegateTypes)
        emit("luafetch.ServerOptions", "`server \"host\" {...}`.", ScenarioRuntime.serverSpec("host"))
        emit("luafetch.RequestOptions", "`http.request{...}`.", ScenarioRuntime.requestSpec)
        emit("luafetch.TransferRequest", "A background session's request (`session:download{...}`).", ScenarioRuntime.transferSpec)
        emit("luafetch.BGTaskRequest", "A BGTask request (`BGAppRefreshTaskRequest(identifier)`, ...): set its fields, then submit it.", ScenarioRuntime.bgRequestSpec)
        emit("luafetch.ContinuedProcessingOptions", "`BGContinuedProcessingTaskRequest(identifier, {...})`.", ScenarioRuntime.continuedSpec)
        emit("luafetch.QueueOptions", "`dispatch.queue(label, {...})`.", ScenarioRuntime.queueOptions)
        emit("luafetch.AsyncOptions", "`q:async(fn, {...})`.", ScenarioRuntime.asyncOptions)
        emit("luafetch.PushOptions", "`system.remoteNotification(userInfo, {...})`.", ScenarioRuntime.pushOptions)
        out += "---A route's answer (`api:route(\"GET /feed\", {...})`, or what its handler returns).\n---@class (exact) luafetch.RouteResponse\n"
        for (name, type, doc) in ScenarioRuntime.responseFields { out += "---@field \(name)? \(type) \(doc)\n" }
        out += "\n"
        return out
    }

    static func objectClasses() -> String {
        var out = ""
        for o in objects {
            out += "---\(o.doc)\n---@class luafetch.\(o.name)\n"
            for (name, type, doc) in o.members { out += "---@field \(name) \(type) \(doc)\n" }
            out += "\n"
        }
        return out
    }

    // MARK: - Editor and linter settings

    /// `.luarc.json` for a scenario folder whose definitions are in `library` (relative).
    public static func luarc(library: String) -> String {
        """
        {
          "runtime.version": "Lua 5.4",
          "workspace.library": ["\(library)"],
          "diagnostics.disable": ["lowercase-global"],
          "completion.callSnippet": "Replace"
        }

        """
    }

    /// The global names of the API (what luacheck reads).
    public static func globals() -> [String] {
        var seen = Set<String>()
        return (ScenarioRuntime(path: "types").lua.declaredNames + lazyGlobals).filter { !$0.contains(".") && !$0.contains(":") && seen.insert($0).inserted }
    }

    /// Globals made on first use (the runtime of imported scenarios, SPEC 18): not among the
    /// runtime's declared names until a scenario reads one.
    public static let lazyGlobals = ["swift", "stubs", "unsupported"]

    /// Their LuaLS definitions.
    static let lazyDefinitions = """
        ---The runtime of scenarios written by `luafetch import` (docs/IMPORT.md): classes, structs and
        ---enums, optionals, Swift's operators, collections, errors, tasks, and the stubs' call sites.
        ---@type table
        swift = {}

        ---What the stubs of an imported scenario do (docs/IMPORT.md): `["Type.member"] = { seconds = 2 }`.
        ---A later call adds to the earlier ones and overrides the names it repeats.
        ---@param specs table<string, {seconds?: number|number[]|"never", result?: any, calls?: integer, blocking?: boolean, lock?: "sharedContainer"}>
        function stubs(specs) end

        ---Swift code `luafetch import` could not translate: a timeline line when it runs, nothing else.
        ---@param what string
        ---@param where string
        function unsupported(what, where) end


        """


    /// A luacheck configuration for a folder of scenarios (`DIR/.luacheckrc`: `luacheck .` inside
    /// it). Its exclusion matches `.luafetch` folders at any depth, so a folder whose subfolders
    /// have their own definitions lints clean too.
    public static func luacheckrc(version: String) -> String {
        return """
        -- luacheck settings for luafetch scenarios, written by `luafetch types` (luafetch \(version)).
        -- The sandbox's standard library is Lua 5.4's (io, debug and os.execute are absent: luacheck
        -- would not know), plus luafetch's API as read-only globals.
        std = "lua54"
        read_globals = {
        \(readGlobals(indent: "  "))
        }
        -- Delegate callbacks take (app, ...) whether or not they use it, and the delegate form
        -- names its argument app too: unused and shadowed callback arguments are the API's shape.
        ignore = { "212", "432" }
        max_line_length = 130
        -- A scenario's top-level code may declare globals (they are its own).
        allow_defined_top = true
        exclude_files = { "**/.luafetch/**" }

        """
    }

    /// The same settings for scenario folders below the folder luacheck runs in: luacheck reads
    /// `.luacheckrc` from its current folder (or the nearest one above), never from the folder it
    /// is given, so `luacheck scenarios` from a project's root needs this file in the root. The
    /// settings apply to the listed folders only (`files[folder]`), so the project's other Lua
    /// files keep their own rules. `luafetch types DIR` adds DIR to the list (`projectFolders`).
    public static func projectLuacheckrc(folders: [String], version: String) -> String {
        let list = folders.map { "\"\(luaEscaped($0))\"" }.joined(separator: ", ")
        return """
        -- luacheck settings written by `luafetch types` (luafetch \(version)) for the luafetch
        -- scenarios in the folders listed below. luacheck reads .luacheckrc from the folder it runs
        -- in, so this file makes `luacheck FOLDER` from here lint them with luafetch's API (each
        -- folder's own .luacheckrc does the same for `luacheck .` inside it). Other Lua files here
        -- keep their own rules.
        local folders = { \(list) }
        local luafetch = {
          -- The sandbox's standard library is Lua 5.4's, plus luafetch's API as read-only globals.
          std = "lua54",
          read_globals = {
        \(readGlobals(indent: "    "))
          },
          -- Unused and shadowed callback arguments are the API's shape (callbacks take app, ...).
          ignore = { "212", "432" },
          max_line_length = 130,
          allow_defined_top = true,
        }
        exclude_files = {}
        for _, folder in ipairs(folders) do
          files[folder] = luafetch
          exclude_files[#exclude_files + 1] = folder .. "/**/.luafetch/**"
        end

        """
    }

    /// The folders a `projectLuacheckrc` lists; nil when `text` is not one (a user's own file, or
    /// the settings of a single folder).
    public static func projectFolders(in text: String) -> [String]? {
        guard text.contains("`luafetch types`"),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("local folders = {") }) else { return nil }
        var out: [String] = [], current: String?, escaped = false
        for ch in line.dropFirst("local folders = {".count) {
            if var c = current {
                if escaped { c.append(ch); escaped = false; current = c }
                else if ch == "\\" { escaped = true }
                else if ch == "\"" { out.append(c); current = nil }
                else { c.append(ch); current = c }
            } else if ch == "\"" {
                current = ""
            }
        }
        return out
    }

    static func readGlobals(indent: String) -> String {
        (globals() + ["log"]).map { "\(indent)\"\($0)\"," }.joined(separator: "\n")
    }

    static func luaEscaped(_ s: String) -> String {
        var out = ""
        for ch in s {
            if ch == "\\" || ch == "\"" { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}

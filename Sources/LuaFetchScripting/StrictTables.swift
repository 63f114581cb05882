// Strict API tables and strict globals (SPEC 3): reading an unknown field of an API table, or a
// global never assigned, is an error that names the typo and suggests the closest name
// ("unknown field 'beginBackgroudTask' of app; did you mean beginBackgroundTask?"). API tables are
// read-only; assigning a new global declares it. Also the context checks shared by the API files.
import CLua
import LuaFetchCore

typealias HostBody = (LuaCall) throws(LuaFailure) -> Int32

extension ScenarioRuntime {
    // MARK: - Strict tables

    /// Builds a strict table on top of the stack: `methods` are its functions, `fields` are computed
    /// on read; anything else is an unknown field of `name`.
    func pushStrictTable(_ name: String, methods: [(String, HostBody)], fields: [String: (OpaquePointer) -> Void] = [:],
                         call: HostBody? = nil, methodSeparator: String = ".", on target: OpaquePointer? = nil) {
        let L = target ?? lua.L
        lua_checkstack(L, 8)
        lua_createtable(L, 0, 0)  // the proxy: always empty, so every write reaches __newindex
        lua_createtable(L, 0, Int32(methods.count))  // the methods, found by the VM's fast path
        for (method, body) in methods {
            LuaState.push(HostFunction("\(name)\(methodSeparator)\(method)", body), on: L)
            lua_setfield(L, -2, method)
        }
        let known = (methods.map(\.0) + fields.keys).sorted()
        lua_createtable(L, 0, 1)  // misses: computed fields, or an unknown-field error
        LuaState.push(HostFunction("\(name) field") { c throws(LuaFailure) in
            let key = c.type(2) == LUA_TSTRING ? LuaCall.text(c.L, 2) : nil
            if let key, let getter = fields[key] { getter(c.L); return 1 }
            let shown = key ?? (c.type(2) == LUA_TNUMBER ? LuaCall.text(c.L, 2) : c.typeName(2))
            let hint = key.map { c.didYouMean($0, among: known) } ?? ""
            throw .error("unknown field '\(shown)' of \(name)\(hint)")
        }, on: L)
        lua_setfield(L, -2, "__index")
        lua_setmetatable(L, -2)
        lua_createtable(L, 0, 6)  // the proxy's metatable
        clua_insert(L, -2)
        lua_setfield(L, -2, "__index")
        LuaState.push(HostFunction("\(name) field") { c throws(LuaFailure) in
            let key = c.type(2) == LUA_TSTRING ? LuaCall.text(c.L, 2) : c.typeName(2)
            throw .error("\(name) is read-only: cannot set field '\(key)' (keep your own state in local variables)")
        }, on: L)
        lua_setfield(L, -2, "__newindex")
        if let call {
            LuaState.push(HostFunction(name, call), on: L)
            lua_setfield(L, -2, "__call")
        }
        lua_pushstring(L, name)
        lua_setfield(L, -2, "__name")
        let label = name
        LuaState.push(HostFunction("tostring") { c throws(LuaFailure) in lua_pushstring(c.L, label); return 1 }, on: L)
        lua_setfield(L, -2, "__tostring")
        lua_pushboolean(L, 0)
        lua_setfield(L, -2, "__metatable")
        lua_setmetatable(L, -2)
    }

    /// Declares a global strict table.
    func installTable(_ name: String, methods: [(String, HostBody)], fields: [String: (OpaquePointer) -> Void] = [:]) {
        pushStrictTable(name, methods: methods, fields: fields)
        lua_setglobal(lua.L, name)
    }

    func setGlobal(_ name: String, _ body: @escaping HostBody) {
        lua.push(HostFunction(name, body))
        lua_setglobal(lua.L, name)
    }

    /// Makes reading an unassigned global an error that suggests the closest global: the
    /// prelude's `strict(miss)` gives `_G` a locked metatable whose __newindex declares every name
    /// assigned (nil too) and whose __index calls `miss` for names never assigned.
    func installStrictGlobals() {
        let L = lua.L
        lua_rawgeti(L, clua_registryindex(), lua_Integer(preludeExports))
        lua_getfield_raw(L, -1, "strict")
        LuaState.push(HostFunction("global") { c throws(LuaFailure) in
            let key = c.type(2) == LUA_TSTRING ? LuaCall.text(c.L, 2) : c.typeName(2)
            let names = c.unknownKeys(1, known: []).filter { !$0.hasPrefix("[") }
            throw .error("unknown global '\(key)'\(c.didYouMean(key, among: names)) (assign it first to declare a global)")
        }, on: L)
        if let err = lua.protectedCall(nargs: 1, nresults: 0) { fatalError("luafetch: strict globals: \(err)") }
        clua_pop(L, 1)
    }

    // MARK: - Who may call what

    /// App-side APIs: only app code (a delegate method, timer, callback) may call them.
    func requireApp(_ c: LuaCall, _ alternative: String) throws(LuaFailure) {
        switch world.context {
        case .app: return
        case .repl:
            guard world.isRunning else {
                throw .error("\(c.name): the app is not running (\(world.state.rawValue)); launch it first, e.g. user.launch()")
            }
            return
        default:
            throw .error("\(c.name) is app code: call it from a handler of app{} (a delegate method, a timer or a callback)\(alternative)")
        }
    }

    /// World APIs (the person, the system, the timeline): never from app code.
    func requireWorld(_ c: LuaCall, _ alternative: String) throws(LuaFailure) {
        if world.context == .app {
            throw .error("\(c.name) belongs to the world, not the app: call it from the timeline (at/every), top-level code or the REPL\(alternative)")
        }
    }

    /// Declarations (`scenario{}`, `app{}`, `server`, `expect`) belong to top-level code.
    func requireTopLevel(_ c: LuaCall) throws(LuaFailure) {
        guard world.context == .topLevel || world.context == .repl else {
            throw .error("\(c.name) is a declaration: call it from the scenario's top-level code")
        }
    }
}

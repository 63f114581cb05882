// Strict tables as LuaState makes them: API tables whose unknown fields are errors with "did you
// mean" and whose writes are refused, object metatables and objects made from them; each
// table's names go to `declaredNames` (the REPL's completion) and `objectMembers`. Uses the C
// API and StrictTables.swift's rules.
import CLua
import CLuaHost
import LuaFetchCore

extension LuaState {
    // MARK: - Strict tables

    /// Makes a strict table: `methods` are its functions, `fields` are computed on read; anything
    /// else is an unknown field of `name` ("did you mean"), and every write is refused.
    /// `metatableFor`: also return a metatable whose `__index` is the table (for objects such as
    /// timers, with `__tostring` from `label`).
    func strictTable(_ name: String, methods: [(String, HostBody)], fields: [String: () -> LuaValue] = [:],
                     call: HostBody? = nil, methodSeparator: String = ".", completes: Bool = true,
                     luaMethods: [(String, ScriptRef)] = []) -> ScriptRef {
        lua_checkstack(L, 8)
        lua_createtable(L, 0, 0)  // the proxy: always empty, so every write reaches __newindex
        lua_createtable(L, 0, Int32(methods.count))  // the methods, found by the VM's fast path
        for (method, body) in methods {
            LuaState.push(HostFunction("\(name)\(methodSeparator)\(method)", body), on: L)
            lua_setfield(L, -2, method)
        }
        for (method, fn) in luaMethods {  // methods written in Lua (the prelude's)
            lua_rawgeti(L, clua_registryindex(), lua_Integer(fn.id))
            lua_setfield(L, -2, method)
        }
        // The names "did you mean" chooses from: made only when a name is missed (most tables
        // never are), so making the API's tables costs no sorting.
        let methodNames = methods.map(\.0) + luaMethods.map(\.0)
        let fieldNames = Array(fields.keys)
        let known = { (methodNames + fieldNames).sorted() }
        if LuaState.recordObjectMembers && !completes {  // an object's methods (API tables are declared names)
            let kind = String(name.prefix { $0 != " " })  // `server "api.test"` is a server
            objectMembers[kind, default: []].formUnion(known())
        }
        if completes {
            declaredNames += fields.keys.sorted().map { "\(name).\($0)" } + methods.map { "\(name)\(methodSeparator)\($0.0)" }
        }
        lua_createtable(L, 0, 1)  // misses: computed fields, or an unknown-field error
        LuaState.push(HostFunction("\(name) field") { [unowned self] c throws(LuaFailure) in
            let key = c.type(2) == LUA_TSTRING ? LuaCall.text(c.L, 2) : nil
            if let key, let getter = fields[key] { getter().push(c.L); return 1 }
            let shown = key ?? (c.type(2) == LUA_TNUMBER ? LuaCall.text(c.L, 2) : c.typeName(2))
            // An API table's miss may be another table's name (`system.launch`: user.launch),
            // offered only when none of its own is as close.
            let others = completes ? declaredNames.filter { !$0.hasPrefix(name + ".") && !$0.hasPrefix(name + ":") && ($0.contains(".") || $0.contains(":")) } : []
            let hint = key.map { c.didYouMean($0, among: known(), elsewhere: others) } ?? ""
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
        luaPushString(L, name)
        lua_setfield(L, -2, "__name")
        let label = name
        LuaState.push(HostFunction("tostring") { c throws(LuaFailure) in luaPushString(c.L, label); return 1 }, on: L)
        lua_setfield(L, -2, "__tostring")
        lua_pushboolean(L, 0)
        lua_setfield(L, -2, "__metatable")
        lua_setmetatable(L, -2)
        return ScriptRef(id: Int(luaL_ref(L, clua_registryindex())))
    }

    /// A locked metatable for objects whose methods are the strict table `methods`, shown as
    /// `label(object)`.
    func objectMetatable(methods: ScriptRef, label: @escaping (LuaCall) -> String) -> ScriptRef {
        lua_createtable(L, 0, 3)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(methods.id))
        lua_setfield(L, -2, "__index")
        LuaState.push(HostFunction("tostring") { c throws(LuaFailure) in
            luaPushString(c.L, label(c)); return 1
        }, on: L)
        lua_setfield(L, -2, "__tostring")
        lua_pushboolean(L, 0)
        lua_setfield(L, -2, "__metatable")
        return ScriptRef(id: Int(luaL_ref(L, clua_registryindex())))
    }

    /// A new table with `fields` and the metatable `meta`, kept in the registry.
    func object(_ fields: [(String, LuaValue)], metatable meta: ScriptRef) -> ScriptRef {
        LuaValue.table(fields).push(L)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(meta.id))
        lua_setmetatable(L, -2)
        return ScriptRef(id: Int(luaL_ref(L, clua_registryindex())))
    }
}

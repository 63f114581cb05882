// References: values kept in the registry for the World (`ScriptRef`s) with where each was
// defined, globals, the host's helper calls, compiling chunks (cached for explore), fields and
// items of kept tables, the primitives of the swift runtime and the REPL's interrupt. Uses the C API;
// the door's operations the API files use instead of it.
import CLua
import CLuaHost
import LuaFetchCore

// MARK: - The door's operations (what the API files use instead of the C API)

extension LuaState {
    /// The state a `lua_State` (or one of its coroutines) belongs to.
    static func of(_ L: OpaquePointer) -> LuaState {
        Unmanaged<LuaState>.fromOpaque(clua_host(L).pointee.owner).takeUnretainedValue()
    }

    /// Pops the value on top of `L` into the registry, recording where it was defined (a
    /// function's definition, else the caller's line).
    func makeRef(_ L: OpaquePointer) -> ScriptRef {
        // Finding where a function was defined and keeping it (HostCosts.reference), while
        // scenario code runs: the run's, as the call that asked for it.
        if clua_host(L).pointee.top != nil { _ = clua_charge_total(L, HostCosts.reference) }
        var loc = lua_type(L, -1) == LUA_TFUNCTION ? LuaState.definition(ofTopFunctionIn: L) : nil
        if loc == nil { loc = LuaState.scenarioLocation(L, from: 1) }
        let r = luaL_ref(L, clua_registryindex())
        refLocations.record(r, loc)
        return ScriptRef(id: Int(r))
    }

    /// Pops the value on top of `L` into the registry: with where it was defined when `located`
    /// (see `makeRef`), plainly otherwise (option values that are not functions need no location).
    func keepTop(_ L: OpaquePointer, located: Bool) -> ScriptRef {
        if located { return makeRef(L) }
        return ScriptRef(id: Int(luaL_ref(L, clua_registryindex())))
    }

    /// Keeps `value` in the registry.
    func keep(_ value: LuaValue) -> ScriptRef {
        value.push(L)
        return ScriptRef(id: Int(luaL_ref(L, clua_registryindex())))
    }

    func release(_ ref: ScriptRef) { luaL_unref(L, clua_registryindex(), Int32(ref.id)) }

    /// The identity of the table (or function) `ref` names, as completion watching compares it
    /// (host.c, `reach`); nil for other values.
    func identity(of ref: ScriptRef) -> UnsafeMutableRawPointer? {
        lua_rawgeti(L, clua_registryindex(), lua_Integer(ref.id))
        defer { clua_pop(L, 1) }
        return lua_type(L, -1) == LUA_TTABLE ? UnsafeMutableRawPointer(mutating: lua_topointer(L, -1)) : nil
    }

    func location(of ref: ScriptRef) -> SourceLocation? {
        refLocations.location(of: ref.id)
    }

    /// `_G[name] = value`.
    func setGlobal(_ name: String, _ value: LuaValue) {
        declaredNames.append(name)
        value.push(L)
        lua_setglobal(L, name)
    }

    /// Calls `fn(args...)` directly (protected, with a traceback): for the host's own helpers.
    /// Returns the first result kept in the registry, or the error message.
    func callHelper(_ fn: ScriptRef, _ args: [LuaValue]) -> Result<ScriptRef, LuaMessage> {
        lua_checkstack(L, Int32(args.count) + 8)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(fn.id))
        for a in args { a.push(L) }
        let base = lua_gettop(L) - Int32(args.count)
        clua_pushmsghandler(L)
        clua_insert(L, base)
        let status = clua_pcall(L, Int32(args.count), 1, base)
        clua_remove(L, base)
        guard status == LUA_OK else {
            let msg = LuaState.describeError(L, -1)
            clua_pop(L, 1)
            return .failure(LuaMessage(text: msg))
        }
        return .success(ScriptRef(id: Int(luaL_ref(L, clua_registryindex()))))
    }

    /// The global `name` (read raw: no strict-global error), kept; nil when it is not set.
    func globalRef(_ name: String) -> ScriptRef? {
        lua_rawgeti(L, clua_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        if lua_getfield_raw(L, -1, name) <= LUA_TNIL { clua_pop(L, 2); return nil }
        let r = luaL_ref(L, clua_registryindex())
        clua_pop(L, 1)
        return ScriptRef(id: Int(r))
    }

    /// The string items 1...#t of the table `ref` holds.
    func strings(ofItemsOf ref: ScriptRef) -> [String] {
        lua_rawgeti(L, clua_registryindex(), lua_Integer(ref.id))
        defer { clua_pop(L, 1) }
        return LuaCall(L: L, name: "").strings(ofItemsOf: -1)
    }

    /// Field `key` of the table `ref` holds, kept in the registry.
    func field(_ key: String, of ref: ScriptRef) -> ScriptRef {
        lua_rawgeti(L, clua_registryindex(), lua_Integer(ref.id))
        lua_getfield_raw(L, -1, key)
        let r = luaL_ref(L, clua_registryindex())
        clua_pop(L, 1)
        return ScriptRef(id: Int(r))
    }

    /// Loads a chunk and keeps the function (nil and the message on a syntax error). With
    /// `cached`, a chunk this process compiled before (same name, same source) is loaded from its
    /// bytecode instead: the same function, without parsing again (explore's runs).
    func compile(_ source: [UInt8], chunkName: String, cached: Bool = false) -> Result<ScriptRef, LuaMessage> {
        if cached, let code = CompiledChunks.shared.bytecode(chunkName, source) {
            let status = code.withUnsafeBufferPointer { buf in
                buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buf.count, 1)) {
                    clua_loadbinary(L, $0, buf.count, chunkName)
                }
            }
            if status == LUA_OK { return .success(ScriptRef(id: Int(luaL_ref(L, clua_registryindex())))) }
            clua_pop(L, 1)  // fall back to the source
        }
        if let err = load(source, chunkName: chunkName) { return .failure(LuaMessage(text: err)) }
        if cached {
            var size = 0
            if let bytes = clua_dump(L, &size) {
                CompiledChunks.shared.keep(chunkName, source, Array(UnsafeRawBufferPointer(start: bytes, count: size)))
                clua_free(bytes)
            }
        }
        return .success(ScriptRef(id: Int(luaL_ref(L, clua_registryindex()))))
    }

    /// The prelude as a function: its recorded bytecode when that was compiled from `source` by
    /// this Lua release (a tenth of the cost of compiling it), else compiled from `source` (kept
    /// for the process when `cached`).
    func compilePrelude(_ source: String, cached: Bool) -> Result<ScriptRef, LuaMessage> {
        var text = source
        let status = text.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) { clua_loadprelude(L, $0.baseAddress, $0.count) }
        }
        if status == LUA_OK { return .success(ScriptRef(id: Int(luaL_ref(L, clua_registryindex())))) }
        if status != -1 { clua_pop(L, 1) }  // not loadable after all: compile it
        return compile(Array(source.utf8), chunkName: "=luafetch", cached: cached)
    }

    /// CLuaHost's primitives for the prelude (`charge`).
    func primitives() -> ScriptRef {
        clua_pushprimitives(L)
        return ScriptRef(id: Int(luaL_ref(L, clua_registryindex())))
    }

    /// Ctrl-C was pressed (the running line stops at its next instruction if interruptible).
    var interruptRequested: Bool {
        get { hostRecord.pointee.interrupt != 0 }
        set { hostRecord.pointee.interrupt = newValue ? 1 : 0 }
    }

    /// Whether a REPL line may be interrupted with Ctrl-C while it runs.
    var interruptible: Bool {
        get { hostRecord.pointee.interruptible != 0 }
        set {
            hostRecord.pointee.interrupt = 0
            hostRecord.pointee.interruptible = newValue ? 1 : 0
        }
    }

}

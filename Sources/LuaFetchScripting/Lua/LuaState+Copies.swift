// Copies: deep copies of values handed between the scenario and the World (tables copied in C
// under the memory cap), property lists for `defaults`, taking functions out of declared
// tables, and the host's own memory and work charged to the scenario's budgets. Uses the C API
// and CLuaHost's copier (libs.c).
import CLua
import CLuaHost
import LuaFetchCore

extension LuaState {
    /// Deep-copies the value `ref` holds (tables are copied in C under the memory cap: the copy
    /// is memory kept for the scenario) into a new reference; other values are referenced again.
    func copy(_ ref: ScriptRef, for owner: SourceLocation?) -> Result<ScriptRef, ScriptFailure> {
        lua_checkstack(L, 8)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(ref.id))
        if let f = copyTop(for: owner) { clua_pop(L, 1); return .failure(f) }
        return .success(ScriptRef(id: Int(luaL_ref(L, clua_registryindex()))))
    }

    /// Replaces the table on top of the stack by a deep copy; nil and the failure on failure.
    func copyTop(for owner: SourceLocation?) -> ScriptFailure? {
        guard lua_type(L, -1) == LUA_TTABLE else { return nil }
        clua_pushcopier(L)
        clua_insert(L, -2)
        guard let (message, memory) = runCopier(L, nargs: 1) else { return nil }
        if memory { return ScriptFailure(kind: .memoryCap, message: message, location: owner) }
        return ScriptFailure(kind: .error, message: "\(owner.map { "\($0): " } ?? "")\(message)", location: owner)
    }

    /// Calls the copier under `L`'s top `nargs` values with the memory cap and charges applied;
    /// its result replaces them. On failure pushes nil and returns the message and whether the
    /// memory cap refused it (between handlers the refusal is cleared: the caller fails the run;
    /// inside one it stays, and the handler ends as out-of-memory).
    func runCopier(_ L: OpaquePointer, nargs: Int32) -> (message: String, memory: Bool)? {
        let h = hostRecord
        let saved = h.pointee.enforce
        h.pointee.enforce = 1
        let status = clua_pcall(L, nargs, 1, 0)
        h.pointee.enforce = saved
        if status == LUA_OK { return nil }
        let msg = LuaState.describeError(L, -1)
        clua_pop(L, 1)
        lua_pushnil(L)
        guard h.pointee.memoryHit != 0 || status == LUA_ERRMEM else { return (msg, false) }
        if h.pointee.top == nil {
            h.pointee.memoryHit = 0
            h.pointee.killSource = nil
            clua_fullgc(L)
        }
        return (msg, true)
    }

    /// Replaces the value on top of `L`'s stack by its copy as a property list (SPEC 12.1's
    /// `defaults`: nil, booleans, numbers, strings and acyclic tables of those with string or
    /// integer keys), copied in C under the budgets. Otherwise pops it, pushes nil and returns
    /// why, naming places from `name` ("value.items[2] is a function: ...").
    func plistCopyTop(_ L: OpaquePointer, name: String) -> String? {
        let type = lua_type(L, -1)
        if type != LUA_TTABLE && type != LUA_TFUNCTION && type != LUA_TUSERDATA && type != LUA_TTHREAD
            && type != LUA_TLIGHTUSERDATA { return nil }
        lua_checkstack(L, 4)
        clua_pushplistcopier(L)
        clua_insert(L, -2)
        luaPushString(L, name)
        return runCopier(L, nargs: 2)?.message
    }

    /// Pushes on `L` a property-list copy of `store[key]` (nil when absent).
    func pushPlist(from store: ScriptRef, key: String, on L: OpaquePointer) -> String? {
        lua_checkstack(L, 4)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(store.id))
        luaPushString(L, key)
        lua_rawget(L, -2)
        clua_remove(L, -2)
        return plistCopyTop(L, name: key)
    }

    /// `store[key] =` a property-list copy of the value at `index` of `L` (nil removes the key);
    /// the reason when the value is not a property list (`name` starts the places it names).
    func setPlist(in store: ScriptRef, key: String, valueAt index: Int32, on L: OpaquePointer, name: String) -> String? {
        lua_checkstack(L, 6)
        let abs = lua_absindex(L, index)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(store.id))
        luaPushString(L, key)
        lua_pushvalue(L, abs)
        if let why = plistCopyTop(L, name: name) { clua_pop(L, 3); return why }
        lua_rawset(L, -3)
        clua_pop(L, 1)
        return nil
    }

    /// A new store holding a property-list copy of the table `ref` (whose keys must be strings).
    func plistStore(copying ref: ScriptRef?, name: String) -> Result<ScriptRef, LuaMessage> {
        lua_checkstack(L, 6)
        guard let ref else { clua_newtable(L); return .success(ScriptRef(id: Int(luaL_ref(L, clua_registryindex())))) }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(ref.id))
        if let why = plistCopyTop(L, name: name) { clua_pop(L, 1); return .failure(LuaMessage(text: why)) }
        lua_pushnil(L)
        while lua_next(L, -2) != 0 {
            clua_pop(L, 1)
            if lua_type(L, -1) != LUA_TSTRING {
                clua_pop(L, 2)
                return .failure(LuaMessage(text: "\(name) must have string keys (UserDefaults keys are strings)"))
            }
        }
        return .success(ScriptRef(id: Int(luaL_ref(L, clua_registryindex()))))
    }

    /// The function in the raw field `name` of the table `ref`, kept; nil when there is none.
    func functionField(_ name: String, of ref: ScriptRef) -> ScriptRef? {
        lua_checkstack(L, 4)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(ref.id))
        defer { clua_pop(L, 1) }
        guard lua_type(L, -1) == LUA_TTABLE else { return nil }
        guard lua_getfield_raw(L, -1, name) == LUA_TFUNCTION else { clua_pop(L, 1); return nil }
        return makeRef(L)
    }

    /// Takes the function in the raw field `name` of the table `ref` (kept, with where it was
    /// defined) and clears the field; nil when the field holds no function.
    func takeFunction(_ name: String, of ref: ScriptRef) -> ScriptRef? {
        guard let fn = functionField(name, of: ref) else { return nil }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(ref.id))
        luaPushString(L, name)
        lua_pushnil(L)
        lua_rawset(L, -3)
        clua_pop(L, 1)
        return fn
    }

    /// Counts the host's own memory for the scenario (pending events, the kept timeline) against
    /// the memory cap with the scenario's Lua memory; a run over the cap is stopped by C.
    func account(hostBytes: Int) {
        let h = hostRecord
        h.pointee.hostBytes = hostBytes
        if h.pointee.cap > 0 && h.pointee.used + h.pointee.hostBytes > h.pointee.cap { _ = clua_account(L, 0) }
    }

    /// Host work for the scenario (see ScriptHost.charge(hostWork:)): counted toward the run's
    /// instruction limit, not the running handler's budget; inside a handler a charge past the
    /// limit decides the kill, which the trampoline carries out when the host function returns;
    /// between handlers, the next handler call checks it before it runs.
    func chargeHostWork(_ units: Int64) { _ = clua_charge_total(L, units) }

    /// Units the run has spent so far (VM instructions and every charge; tests compare them).
    var unitsSpent: Int64 { hostRecord.pointee.total }

    /// Units the whole run may spend (SPEC 11).
    var totalBudget: Int64 {
        get { hostRecord.pointee.totalBudget }
        set { hostRecord.pointee.totalBudget = newValue }
    }

    /// Bytes of Lua memory the scenario may use.
    var memoryCap: Int {
        get { hostRecord.pointee.cap }
        set { hostRecord.pointee.cap = newValue }
    }
}

// ScenarioRuntime: the single door between Lua and the simulator. It owns a LuaState and a World,
// installs the sandbox (Prelude) and the API tables (one file each: app, user/system, timer, http,
// server, expect, scenario), loads the scenario file, and implements `ScriptHost` so the World can
// call handlers without seeing Lua. What the rest of the program sees is `load`, `run`, `world`.
import CLua
import CLuaHost
import LuaFetchCore

public final class ScenarioRuntime: ScriptHost {
    public let world: World
    let lua: LuaState
    let path: String
    var appObjectRef: Int32 = LUA_NOREF
    var timerMetaRef: Int32 = LUA_NOREF
    var responses: [Int: ServedResponse?] = [:]
    /// The Lua object of each live timer (`t` in `t:invalidate()`), made once per timer; by timer id.
    var timerObjects: [Int32] = []
    /// Where each referenced function came from, by registry reference.
    var refLocations: [SourceLocation?] = []
    var reseedRef: Int32 = LUA_NOREF
    /// The table the prelude returned (`show`, `strict`).
    var preludeExports: Int32 = LUA_NOREF
    /// Paths of every chunk loaded from disk (scenario and modules), to undo Lua's truncation.
    var chunkPaths: [String] = []
    var scenarioDeclaredAt: String?
    var appDeclaredAt: String?

    /// Creates the runtime for the scenario at `path` (used in messages and chunk names).
    /// `lazyBudget` (the command line only: one runtime per process) arms the instruction budget
    /// through a CPU-time watchdog instead of on every instruction; see LuaState.armBudgetLazily.
    /// `lazyTickMs`: the lazy watchdog's period (see LuaState.armBudgetLazily); only benchmarks
    /// under valgrind, where CPU time is inflated fiftyfold, raise it.
    public init(path: String, options: RunOptions = RunOptions(), instructionBudget: Int64 = 100_000_000,
                memoryCap: Int = 256 << 20, lazyBudget: Bool = false, lazyTickMs: Int = 10) {
        self.path = path
        world = World(file: path, options: options)
        world.config.instructionBudget = instructionBudget
        world.config.memoryCap = options.limits.memory ?? memoryCap
        world.config.instructionLimit = options.limits.instructions ?? world.config.instructionLimit
        world.config.eventLimit = options.limits.events ?? world.config.eventLimit
        lua = LuaState(memoryCap: world.config.memoryCap, instructionBudget: instructionBudget,
                       totalBudget: world.config.instructionLimit)
        world.host = self
        lua.mustStop = { [unowned self] in
            let h = lua.hostRecord
            h.pointee.hostBytes = world.hostBytes
            if h.pointee.cap > 0 && h.pointee.used + h.pointee.hostBytes > h.pointee.cap { _ = clua_account(lua.L, 0) }
            return (world.stopRequested && world.context == .app) || world.fatal != nil
        }
        installPrelude()
        installAPI()
        if lazyBudget { _ = lua.armBudgetLazily(tickMs: lazyTickMs) }
    }

    /// Applies `scenario{ limits = {...} }` (the command line's limits win).
    func applyLimits(instructions: Int64?, events: Int?, memory: Int?) {
        let given = world.options.limits
        if given.instructions == nil, let instructions {
            world.config.instructionLimit = instructions
            lua.hostRecord.pointee.totalBudget = instructions
        }
        if given.events == nil, let events { world.config.eventLimit = events }
        if given.memory == nil, let memory {
            world.config.memoryCap = memory
            lua.hostRecord.pointee.cap = memory
        }
    }

    /// The lazy budget doubted this run (see LuaState.armBudgetLazily; a run it abandoned was
    /// doubted first): its output may not be what an exact run prints; redo it with `lazyBudget: false`.
    public var needsExactRerun: Bool { lua.tripped }

    // MARK: - Loading

    /// Reads, checks and runs the scenario's top-level code. Throws a ScenarioError (exit 2).
    public func load() throws(ScenarioError) {
        let bytes = try ScenarioFile.read(path)
        try run(source: bytes, chunkName: "@" + path)
    }

    /// Runs a chunk of scenario source as top-level code (the REPL uses this too).
    public func run(source: [UInt8], chunkName: String) throws(ScenarioError) {
        if chunkName.hasPrefix("@") { notePath(String(chunkName.dropFirst())) }
        do { try runChunk(source: source, chunkName: chunkName) } catch { throw expand(error) }
    }

    private func runChunk(source: [UInt8], chunkName: String) throws(ScenarioError) {
        if let err = lua.load(source, chunkName: chunkName) { throw ScenarioError(err) }
        let saved = world.context
        if world.context != .repl { world.context = .topLevel }
        let r = lua.runHandler(nargs: 0)
        world.context = saved
        if let fatal = world.fatal { throw fatal }
        switch outcome(r, fallback: nil) {
        case .returned: return
        case .failed(let f):
            if f.kind == .error { throw ScenarioError(f.message, traceback: f.traceback) }
            world.failWorld(f)
            throw world.fatal ?? ScenarioError("\(path): scenario stopped")
        }
    }

    /// Runs the loaded scenario to its end.
    public func run() throws(ScenarioError) {
        do { try world.run() } catch { throw expand(error) }
    }

    // MARK: - Long chunk names

    func notePath(_ path: String) {
        if ("@" + path).utf8.count > 60, !chunkPaths.contains(path) { chunkPaths.append(path) }
    }

    /// Lua shortens a chunk name over 60 bytes to "..." and its last 56 bytes; put the path back.
    func expandChunkNames(_ text: String) -> String {
        var out = text
        for path in chunkPaths {
            let short = "..." + String(decoding: Array(path.utf8.suffix(56)), as: UTF8.self)
            out = out.replacingAll(short + ":", with: path + ":")
        }
        return out
    }

    func expand(_ e: ScenarioError) -> ScenarioError {
        chunkPaths.isEmpty ? e : ScenarioError(expandChunkNames(e.message), traceback: e.traceback.map(expandChunkNames))
    }

    // MARK: - References

    /// Pops the function or value on top of `L` into a ScriptRef.
    func makeRef(_ L: OpaquePointer) -> ScriptRef {
        var loc = lua_type(L, -1) == LUA_TFUNCTION ? LuaState.definition(ofTopFunctionIn: L) : nil
        if loc == nil { loc = LuaState.scenarioLocation(L, from: 1) }
        let r = luaL_ref(L, clua_registryindex())
        if r >= 0 {
            let i = Int(r)
            if i >= refLocations.count { refLocations += Array(repeating: nil, count: i + 1 - refLocations.count) }
            refLocations[i] = loc.map { SourceLocation(file: $0.file, line: $0.line) }
        }
        return ScriptRef(id: Int(r))
    }

    /// Pushes argument `i` of a call and turns it into a ScriptRef.
    func ref(_ call: LuaCall, _ i: Int32) -> ScriptRef {
        lua_pushvalue(call.L, i)
        return makeRef(call.L)
    }

    public func release(_ ref: ScriptRef) {
        luaL_unref(lua.L, clua_registryindex(), Int32(ref.id))
    }

    public func location(of ref: ScriptRef) -> SourceLocation? {
        ref.id >= 0 && ref.id < refLocations.count ? refLocations[ref.id] : nil
    }

    /// The caller's scenario line.
    func location(_ L: OpaquePointer) -> SourceLocation? {
        LuaState.scenarioLocation(L, from: 1).map { SourceLocation(file: $0.file, line: $0.line) }
    }

    /// Deep-copies the value on top of `L` (replacing it) in C, with the memory cap applied (the
    /// copy is memory kept for the scenario). Returns the failure, with nil on top, on failure.
    func copyTop(_ L: OpaquePointer, for owner: SourceLocation?) -> ScriptFailure? {
        guard lua_type(L, -1) == LUA_TTABLE else { return nil }
        let h = lua.hostRecord
        clua_pushcopier(L)
        clua_insert(L, -2)
        let saved = h.pointee.enforce
        h.pointee.enforce = 1
        let status = clua_pcall(L, 1, 1, 0)
        h.pointee.enforce = saved
        if status == LUA_OK { return nil }
        let msg = LuaState.describeError(L, -1)
        clua_pop(L, 1)
        lua_pushnil(L)
        if h.pointee.memoryHit != 0 || status == LUA_ERRMEM {
            if h.pointee.top == nil {  // host code between handlers: nothing to kill, the run fails
                h.pointee.memoryHit = 0
                h.pointee.killSource = nil
                clua_fullgc(L)
            }  // inside a handler the refusal stays: the handler is ended as out-of-memory
            return ScriptFailure(kind: .memoryCap, message: msg, location: owner)
        }
        return ScriptFailure(kind: .error, message: "\(owner.map { "\($0): " } ?? "")\(msg)", location: owner)
    }

    // MARK: - ScriptHost

    public func invoke(_ fn: ScriptRef, _ invocation: Invocation) -> Outcome {
        let L = lua.L
        lua_checkstack(L, 8)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(fn.id))
        var nargs: Int32 = 0
        switch invocation {
        case .delegate(let method, let launch):
            pushAppObject(L); nargs = 1
            if method == .didFinishLaunching {
                lua_createtable(L, 0, 1)
                lua_pushstring(L, (launch ?? .user).rawValue)
                lua_setfield(L, -2, "reason")
                nargs = 2
            }
        case .performFetch(let id):
            pushAppObject(L)
            pushCompletionHandler(L, fetchID: id)
            nargs = 2
        case .plain:
            nargs = 0
        case .timer(let id):
            pushTimerObject(L, id: id); nargs = 1
        case .http(let id, let error):
            if let error {
                lua_pushnil(L); lua_pushstring(L, error.rawValue)
                if let stored = responses[id], let response = stored { release(response.value) }
            } else {
                pushResponse(L, requestID: id); lua_pushnil(L)
            }
            responses[id] = nil
            nargs = 2
        case .notification(let name, let info):
            lua_pushstring(L, name)
            if let info { lua_rawgeti(L, clua_registryindex(), lua_Integer(info.id)) } else { lua_pushnil(L) }
            nargs = 2
        }
        let r = lua.runHandler(nargs: nargs)
        return outcome(r, fallback: r.status == .ok ? nil : location(of: fn))
    }

    func outcome(_ r: LuaRunResult, fallback: SourceLocation?) -> Outcome {
        let loc = r.location.map { SourceLocation(file: $0.file, line: $0.line) } ?? fallback
        switch r.status {
        case .ok: return .returned(truthy: r.truthy)
        case .error:
            var message = expandChunkNames(r.message)
            if !Self.hasLocation(message), let loc { message = "\(loc): \(message)" }
            return .failed(ScriptFailure(kind: .error, message: message, traceback: r.traceback.map(expandChunkNames), location: loc))
        case .budget: return .failed(ScriptFailure(kind: .instructionBudget, message: "", traceback: r.traceback, location: loc))
        case .memory: return .failed(ScriptFailure(kind: .memoryCap, message: r.message, traceback: r.traceback, location: loc))
        case .stopped, .interrupted: return .failed(ScriptFailure(kind: .stopped, message: "", location: loc))
        case .runLimit: return .failed(ScriptFailure(kind: .runLimit, message: "", traceback: r.traceback, location: loc))
        case .restart: return .failed(ScriptFailure(kind: .abandoned, message: ""))
        }
    }

    /// Whether an error message already starts with `something:LINE:`.
    static func hasLocation(_ message: String) -> Bool {
        guard let colon = message.firstIndex(of: ":") else { return false }
        let rest = message[message.index(after: colon)...]
        let digits = rest.prefix(while: { $0.isNumber })
        return !digits.isEmpty && rest.dropFirst(digits.count).first == ":"
    }

    public func respond(with responder: ScriptRef, isHandler: Bool, request: ScriptRef, requestID: Int)
        -> Result<ServedResponse, ScriptFailure> {
        let L = lua.L
        lua_checkstack(L, 8)
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(responder.id))
        if isHandler {
            lua_rawgeti(L, clua_registryindex(), lua_Integer(request.id))
            if let f = copyTop(L, for: location(of: responder)) { return .failure(f) }
            // The handler runs as a coroutine; its first result is the response.
            let r = runReturningTop(nargs: 1)
            switch r {
            case .failure(let f): return .failure(f)
            case .success: break
            }
        }
        // The response table is on top: validate and copy it.
        let where_ = location(of: responder).map { "\($0): " } ?? ""
        guard lua_type(L, -1) == LUA_TTABLE else {
            let got = lua_type(L, -1) <= LUA_TNIL ? "nil" : String(cString: lua_typename(L, lua_type(L, -1)))
            return .failure(ScriptFailure(kind: .error, message: "\(where_)a route must answer with a response table like { status = 200, body = ... }, got \(got)"))
        }
        var status = 200
        lua_getfield_raw(L, -1, "status")
        if lua_type(L, -1) == LUA_TNUMBER, clua_isinteger(L, -1) != 0 {
            status = Int(clua_tointeger(L, -1))
        } else if lua_type(L, -1) > LUA_TNIL {
            clua_pop(L, 1)
            return .failure(ScriptFailure(kind: .error, message: "\(where_)response status must be an integer like 200 or 404"))
        }
        clua_pop(L, 1)
        guard (100...599).contains(status) else {
            return .failure(ScriptFailure(kind: .error, message: "\(where_)response status \(status) is not an HTTP status (100–599)"))
        }
        if let f = copyTop(L, for: location(of: responder)) { return .failure(f) }
        if lua_getfield_raw(L, -1, "status") <= LUA_TNIL {
            clua_pop(L, 1); lua_pushinteger(L, lua_Integer(status)); lua_setfield(L, -2, "status")
        } else { clua_pop(L, 1) }
        if lua_getfield_raw(L, -1, "headers") <= LUA_TNIL {
            clua_pop(L, 1); clua_newtable(L); lua_setfield(L, -2, "headers")
        } else { clua_pop(L, 1) }
        let ref = luaL_ref(L, clua_registryindex())
        return .success(ServedResponse(status: status, value: ScriptRef(id: Int(ref))))
    }

    /// Runs the function (and args) on top of the main stack; leaves its first result there.
    func runReturningTop(nargs: Int32) -> Result<Void, ScriptFailure> {
        switch outcome(lua.runHandlerKeepingResult(nargs: nargs), fallback: nil) {
        case .returned: return .success(())
        case .failed(let f): return .failure(f)  // runHandlerKeepingResult left nil on the stack
        }
    }

    public func deliver(response: ServedResponse?, toRequest requestID: Int) {
        responses[requestID] = .some(response)
    }

    // MARK: - Argument objects

    func pushAppObject(_ L: OpaquePointer) {
        lua_rawgeti(L, clua_registryindex(), lua_Integer(appObjectRef))
    }

    /// Pushes the Lua object of the timer with this handle (made once, kept by the timer's slot).
    func pushTimerObject(_ L: OpaquePointer, id handle: Int) {
        let slot = handle & 0xFFFF_FFFF
        if slot < timerObjects.count, timerObjects[slot] > 0 {
            lua_rawgeti(L, clua_registryindex(), lua_Integer(timerObjects[slot]))
            return
        }
        makeTimerObject(L, handle: handle)
        lua_pushvalue(L, -1)
        if slot >= timerObjects.count { timerObjects += Array(repeating: 0, count: slot + 1 - timerObjects.count) }
        timerObjects[slot] = luaL_ref(L, clua_registryindex())
    }

    public func timerEnded(_ handle: Int) {
        let slot = handle & 0xFFFF_FFFF
        guard slot < timerObjects.count, timerObjects[slot] > 0 else { return }
        luaL_unref(lua.L, clua_registryindex(), timerObjects[slot])
        timerObjects[slot] = 0
    }

    func makeTimerObject(_ L: OpaquePointer, handle: Int) {
        lua_createtable(L, 0, 2)
        lua_pushinteger(L, lua_Integer(world.timerSerial(handle) ?? 0))
        lua_setfield(L, -2, "id")
        lua_pushinteger(L, lua_Integer(handle))
        lua_setfield(L, -2, "handle")
        lua_rawgeti(L, clua_registryindex(), lua_Integer(timerMetaRef))
        lua_setmetatable(L, -2)
    }

    func pushResponse(_ L: OpaquePointer, requestID: Int) {
        if let stored = responses[requestID], let response = stored {
            lua_rawgeti(L, clua_registryindex(), lua_Integer(response.value.id))
            luaL_unref(L, clua_registryindex(), Int32(response.value.id))
        } else {
            lua_createtable(L, 0, 2)
            lua_pushinteger(L, 404); lua_setfield(L, -2, "status")
            clua_newtable(L); lua_setfield(L, -2, "headers")
        }
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation needed).
    func replacingAll(_ target: String, with replacement: String) -> String {
        let t = Array(target.utf8), s = Array(utf8)
        guard !t.isEmpty, s.count >= t.count else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            if i + t.count <= s.count && s[i] == t[0] && Array(s[i..<i + t.count]) == t {
                out.append(contentsOf: replacement.utf8)
                i += t.count
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// `t[key]` raw for a string key; pushes the value and returns its type.
@discardableResult
func lua_getfield_raw(_ L: OpaquePointer, _ index: Int32, _ key: String) -> Int32 {
    let abs = lua_absindex(L, index)
    lua_pushstring(L, key)
    return lua_rawget(L, abs)
}

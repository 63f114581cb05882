// LuaState: the one owner of a `lua_State` (closed in deinit, watchdog first). It provides
// protected loading and calls with a traceback message handler, handler coroutines under the
// budgets and memory cap of CLuaHost's host record, Swift closures boxed in userdata (released by
// __gc) and called through CLuaHost's trampoline, and registry references. Swift code here never
// calls lua_error or luaL_check*: errors travel as statuses, and only C raises.
import CLua
import CLuaHost

/// A Swift function callable from Lua. It returns a result count, or throws `LuaFailure`.
final class HostFunction {
    let name: String
    let body: (LuaCall) throws(LuaFailure) -> Int32
    init(_ name: String, _ body: @escaping (LuaCall) throws(LuaFailure) -> Int32) {
        self.name = name; self.body = body
    }
}

/// How a host function ends abnormally.
enum LuaFailure: Error {
    /// A Lua error with this message (the caller's `file:line:` is prefixed).
    case error(String)
    /// Stop the running handler (the simulator decided: watchdog, crash).
    case stop
}

/// The result of running a chunk or handler. A success carries no strings (copying it is free); a
/// failure's details sit behind one reference.
struct LuaRunResult {
    enum Status { case ok, error, budget, memory, stopped, interrupted, runLimit, restart }
    var status: Status
    var truthy = false
    var detail: Detail?

    init(status: Status) { self.status = status }

    final class Detail {
        var message = ""
        var traceback: String?
        var location: SourceLocationRef?
    }

    private mutating func details() -> Detail {
        if let d = detail { return d }
        let d = Detail()
        detail = d
        return d
    }

    var message: String {
        get { detail?.message ?? "" }
        set { details().message = newValue }
    }
    var traceback: String? {
        get { detail?.traceback }
        set { details().traceback = newValue }
    }
    var location: SourceLocationRef? {
        get { detail?.location }
        set { details().location = newValue }
    }
}

typealias SourceLocationRef = (file: String, line: Int)

final class LuaState {
    let L: OpaquePointer
    let hostRecord: UnsafeMutablePointer<clua_Host>
    /// Called after every host function, to stop handlers the simulator ended.
    var mustStop: () -> Bool = { false }
    /// Finished coroutines kept for reuse (thread, registry reference): a handler call then costs
    /// no allocation. Threads that failed or were killed are dropped instead.
    private var idleThreads: [(OpaquePointer, Int32)] = []
    /// The coroutine running now (nested handler calls resume from it, so Lua's C-stack limit
    /// counts every level), and how many handler calls are nested.
    private var running: OpaquePointer?
    private var nesting = 0
    /// Handlers calling handlers (an observer posting what it observes) stop here with an error.
    static let maxNesting = 48

    init(memoryCap: Int, instructionBudget: Int64, totalBudget: Int64 = 0) {
        hostRecord = .allocate(capacity: 1)
        hostRecord.initialize(to: clua_Host())
        hostRecord.pointee.cap = memoryCap
        hostRecord.pointee.budget = instructionBudget
        hostRecord.pointee.totalBudget = totalBudget
        hostRecord.pointee.step = 1000
        hostRecord.pointee.dispatch = { L, box in
            let fn = Unmanaged<HostFunction>.fromOpaque(box!).takeUnretainedValue()
            return LuaState.dispatch(fn, L!)
        }
        hostRecord.pointee.release = { box in
            Unmanaged<HostFunction>.fromOpaque(box!).release()
        }
        L = clua_newstate(hostRecord)
        hostRecord.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        clua_openlibs(L)
    }

    deinit {
        clua_close(L)
        hostRecord.deinitialize(count: 1)
        hostRecord.deallocate()
    }

    /// Starts the budget lazily (see CLuaHost/host.c): no count hook until a CPU-time watchdog on
    /// this thread doubts the run (a handler call running at two 10 ms ticks, or a run past 1 s of
    /// CPU). A doubted run stops with `.restart` and must be redone with an eager state; a run
    /// that ends undoubted is exactly what the eager run would have been.
    func armBudgetLazily(tickMs: Int = 10) -> Bool {
        clua_start_watchdog(hostRecord, tickMs, tickMs * 100) == 0
    }

    /// Whether the lazy watchdog doubted this run (it must then be redone eagerly).
    var tripped: Bool { hostRecord.pointee.tripped != 0 }

    // MARK: - Host functions

    static func dispatch(_ fn: HostFunction, _ L: OpaquePointer) -> Int32 {
        let state = Unmanaged<LuaState>.fromOpaque(clua_host(L).pointee.owner).takeUnretainedValue()
        let call = LuaCall(L: L, name: fn.name)
        do {
            let n = try fn.body(call)
            return state.mustStop() ? CLUA_STATUS_KILL : n
        } catch {
            switch error {
            case .error(let message):
                let loc = LuaState.scenarioLocation(L, from: 1)
                let text = loc.map { "\($0.file):\($0.line): " } ?? ""
                lua_pushstring(L, text + message)
                return CLUA_STATUS_ERROR
            case .stop:
                return CLUA_STATUS_KILL
            }
        }
    }

    /// Pushes a Swift function as a Lua function.
    func push(_ fn: HostFunction) { LuaState.push(fn, on: L) }

    static func push(_ fn: HostFunction, on L: OpaquePointer) {
        clua_pushbox(L, Unmanaged.passRetained(fn).toOpaque())
    }

    /// Sets `t[name] = fn` for the table at `index`.
    func setFunction(_ index: Int32, _ name: String, _ body: @escaping (LuaCall) throws(LuaFailure) -> Int32) {
        let abs = lua_absindex(L, index)
        push(HostFunction(name, body))
        lua_setfield(L, abs, name)
    }

    // MARK: - Registry references

    /// Pops the top value into the registry; returns its reference.
    func ref() -> Int32 { luaL_ref(L, clua_registryindex()) }
    func unref(_ r: Int32) { luaL_unref(L, clua_registryindex(), r) }
    func pushRef(_ r: Int32, on thread: OpaquePointer? = nil) {
        lua_rawgeti(thread ?? L, clua_registryindex(), lua_Integer(r))
    }

    // MARK: - Locations

    /// The first stack frame at or above `level` that belongs to a scenario file (`@` chunk).
    static func scenarioLocation(_ L: OpaquePointer, from level: Int32) -> SourceLocationRef? {
        var ar = lua_Debug()
        var lvl = level
        while lua_getstack(L, lvl, &ar) != 0 {
            lua_getinfo(L, "Sl", &ar)
            if ar.currentline > 0, let src = ar.source, src.pointee == UInt8(ascii: "@") {
                return (String(cString: src + 1), Int(ar.currentline))
            }
            lvl += 1
        }
        return nil
    }

    /// Where the function on the top of `L`'s stack was defined (scenario functions only).
    static func definition(ofTopFunctionIn L: OpaquePointer) -> SourceLocationRef? {
        var ar = lua_Debug()
        lua_pushvalue(L, -1)
        lua_getinfo(L, ">S", &ar)
        guard ar.linedefined > 0, let src = ar.source, src.pointee == UInt8(ascii: "@") else { return nil }
        return (String(cString: src + 1), Int(ar.linedefined))
    }

    // MARK: - Running code

    /// Loads a text chunk named `@name`; on success the function is on the top of the stack.
    func load(_ source: [UInt8], chunkName: String) -> String? {
        let status = source.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buf.count, 1)) {
                clua_loadbuffer(L, $0, buf.count, chunkName)
            }
        }
        if status == LUA_OK { return nil }
        let msg = clua_tostring(L, -1).map { String(cString: $0) } ?? "cannot load \(chunkName)"
        clua_pop(L, 1)
        return msg
    }

    /// Runs the function on the top of `L`'s stack (with `nargs` arguments above it) in a fresh
    /// coroutine under the instruction budget and memory cap. Nested calls (host function →
    /// handler) keep their own budget. Leaves the stack as it was before the function was pushed.
    func runHandler(nargs: Int32) -> LuaRunResult { run(nargs: nargs, keepResult: false) }

    /// The prelude's `show(f, ...)`: calls `f` and turns every result into text with luafetch's
    /// own `tostring`, inside the handler (so `__tostring` runs under the budget).
    var showRef: Int32 = LUA_NOREF

    /// Runs like `runHandler` and returns every result as text.
    func runCollectingResults(nargs: Int32) -> (LuaRunResult, [String]) {
        var texts: [String] = []
        var nargs = nargs
        if showRef != LUA_NOREF {
            lua_rawgeti(L, clua_registryindex(), lua_Integer(showRef))
            clua_insert(L, -(nargs + 2))
            nargs += 1
        }
        let r = run(nargs: nargs, keepResult: false, collect: { co, n in
            for i in 0..<n {
                texts.append(lua_type(co, -n + i) == LUA_TSTRING ? LuaCall.string(co, -n + i) : "?")
            }
        })
        return (r, texts)
    }

    /// As `runHandler`, but leaves the first result (nil on failure) on the stack.
    func runHandlerKeepingResult(nargs: Int32) -> LuaRunResult { run(nargs: nargs, keepResult: true) }

    private func run(nargs: Int32, keepResult: Bool, collect: ((OpaquePointer, Int32) -> Void)? = nil) -> LuaRunResult {
        guard nesting < LuaState.maxNesting else {
            clua_pop(L, nargs + 1)
            if keepResult { lua_pushnil(L) }
            var r = LuaRunResult(status: .error)
            r.message = "handlers nested more than \(LuaState.maxNesting) deep (does an observer post the notification it observes?)"
            return r
        }
        let h = hostRecord
        let saved = (h.pointee.top, h.pointee.current, h.pointee.spent, h.pointee.enforce)
        let (co, coRef): (OpaquePointer, Int32)
        if let idle = idleThreads.popLast() {
            (co, coRef) = idle
        } else {
            co = lua_newthread(L)!
            coRef = luaL_ref(L, clua_registryindex())
        }
        lua_xmove(L, co, nargs + 1)       // function and args to the thread
        clua_arm(co, h)
        h.pointee.enforce = 1
        var nres: Int32 = 0
        let caller = running
        running = co
        nesting += 1
        let status = clua_resume(co, caller ?? L, nargs, &nres)
        nesting -= 1
        running = caller
        h.pointee.enforce = 0
        var result = LuaRunResult(status: .ok)
        let killed = h.pointee.killed
        if killed != CLUA_KILL_NONE {
            switch killed {
            case CLUA_KILL_BUDGET: result.status = .budget
            case CLUA_KILL_MEMORY: result.status = .memory
            case CLUA_KILL_INTERRUPT: result.status = .interrupted
            case CLUA_KILL_TOTAL: result.status = .runLimit
            case CLUA_KILL_RESTART: result.status = .restart
            default: result.status = .stopped
            }
            result.location = LuaState.scenarioLocation(co, from: 0)
            if let src = h.pointee.killSource, src.pointee == UInt8(ascii: "@"), h.pointee.killLine > 0 {
                result.location = (String(cString: src + 1), Int(h.pointee.killLine))
            }
            if result.status != .stopped && result.status != .interrupted && result.status != .restart {
                clua_traceback(L, co, nil, 0)
                result.traceback = clua_tostring(L, -1).map { String(cString: $0) }
                clua_pop(L, 1)
            }
        } else if status == LUA_OK {
            result.truthy = nres > 0 && lua_toboolean(co, -nres) != 0
            collect?(co, nres)
        } else if status == LUA_YIELD {
            result.status = .error
            result.location = LuaState.scenarioLocation(co, from: 0)
            result.message = (result.location.map { "\($0.file):\($0.line): " } ?? "")
                + "coroutine.yield outside a coroutine: a handler cannot yield to luafetch (wrap it in coroutine.wrap)"
        } else {
            result.status = h.pointee.memoryHit != 0 || status == LUA_ERRMEM ? .memory : .error
            result.message = LuaState.describeError(co, -1)
            result.location = LuaState.scenarioLocation(co, from: 0)
            clua_traceback(L, co, nil, 0)
            result.traceback = clua_tostring(L, -1).map { String(cString: $0) }
            clua_pop(L, 1)
        }
        if keepResult {
            if status == LUA_OK && killed == CLUA_KILL_NONE && nres > 0 {
                lua_pushvalue(co, -nres)
                lua_xmove(co, L, 1)
            } else {
                lua_pushnil(L)
            }
        }
        clua_settle(h)  // nothing may touch `co` from here on (a watchdog tick, a sticky kill)
        if status == LUA_OK && killed == CLUA_KILL_NONE {
            lua_settop(co, 0)
            idleThreads.append((co, coRef))
        } else {
            luaL_unref(L, clua_registryindex(), coRef)  // a dead or suspended thread: let it go
        }
        // A total-limit kill or a restart ends the whole run: they stay decided for outer handlers.
        let endsRun = killed == CLUA_KILL_TOTAL || killed == CLUA_KILL_RESTART
        if (killed != CLUA_KILL_NONE && !endsRun) || h.pointee.memoryHit != 0 {
            clua_fullgc(L)
            h.pointee.killed = CLUA_KILL_NONE
            h.pointee.memoryHit = 0
            h.pointee.killSource = nil
            h.pointee.killLine = 0
        }
        h.pointee.spent = saved.2
        h.pointee.enforce = saved.3
        if let outer = saved.0 {
            clua_rearm(outer, h)
            h.pointee.current = saved.1
        }
        return result
    }

    /// Calls the function on the top of the stack (with nargs above it) directly, protected, with
    /// the traceback handler; for short host-side helpers. Pops everything; returns an error message.
    func protectedCall(nargs: Int32, nresults: Int32) -> String? {
        let base = lua_gettop(L) - nargs
        clua_pushmsghandler(L)
        clua_insert(L, base)
        let status = clua_pcall(L, nargs, nresults, base)
        clua_remove(L, base)
        if status == LUA_OK { return nil }
        let msg = LuaState.describeError(L, -1)
        clua_pop(L, 1)
        return msg
    }

    static func describeError(_ L: OpaquePointer, _ index: Int32) -> String {
        if lua_type(L, index) == LUA_TSTRING || lua_type(L, index) == LUA_TNUMBER {
            return LuaCall.text(L, index)
        }
        return "(error object is a \(String(cString: lua_typename(L, lua_type(L, index)))) value)"
    }
}

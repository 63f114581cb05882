// LuaState: the one owner of a `lua_State` (closed in deinit, watchdog first). It provides
// protected loading and calls with a traceback message handler, handler coroutines under the
// budgets and memory cap of CLuaHost's host record, Swift closures boxed in userdata (released by
// __gc) and called through CLuaHost's trampoline, registry references (with where each value was
// defined), strict API tables, globals and deep copies: with LuaCall and OptionReader, all the
// Swift that touches the C API. Swift code here never calls lua_error or luaL_check*: errors
// travel as statuses, and only C raises.
import CLua
import CLuaHost
import LuaFetchCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Swift function callable from Lua. It returns a result count, or throws `LuaFailure`.
final class HostFunction {
    let name: String
    let body: (LuaCall) throws(LuaFailure) -> Int32
    /// See `LuaCall.callLevel`.
    let callLevel: Int32
    /// What a call costs the run beyond every call's 16 units (HostCosts).
    let units: Int64
    init(_ name: String, callLevel: Int32 = 0, _ body: @escaping (LuaCall) throws(LuaFailure) -> Int32) {
        self.name = name; self.callLevel = callLevel; self.body = body; units = HostCosts.units[name] ?? 0
    }
}

/// How a host function ends abnormally.
enum LuaFailure: Error {
    /// A Lua error with this message (the caller's `file:line:` is prefixed).
    case error(String)
    /// Stop the running handler (the simulator decided: watchdog, crash).
    case stop
    /// Park the handler thread (a background thread waits: `work`, a held lock, `q:sync`); the
    /// host resumes it later. Only where `LuaState.canPark` said yes.
    case park
}

/// The result of running a chunk or handler. A success carries no strings (copying it is free); a
/// failure's details sit behind one reference.
struct LuaRunResult {
    enum Status { case ok, error, budget, memory, stopped, interrupted, runLimit, restart, parked }
    var status: Status
    var truthy = false
    /// For `parked`: the registry reference of the parked thread (`LuaState.resume(parked:)`).
    var parkedThread: Int32 = 0
    var detail: Detail?

    init(status: Status) { self.status = status }

    final class Detail {
        var message = ""
        var traceback: String?
        var location: SourceLocationRef?
        /// A watched run (`LuaState.watchNext`): the tags of the completion handlers it could
        /// reach, and the scenario line where code holding one last returned, or where it parked
        /// (`waits`).
        var held: (tags: [Int], line: SourceLocationRef, waits: Bool)?
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
    var held: (tags: [Int], line: SourceLocationRef, waits: Bool)? {
        get { detail?.held }
        set { details().held = newValue }
    }
}

typealias SourceLocationRef = (file: String, line: Int)

final class LuaState {
    let L: OpaquePointer
    let hostRecord: UnsafeMutablePointer<clua_Host>
    /// Called after every host function, to stop handlers the simulator ended.
    var mustStop: () -> Bool = { false }
    /// Finished coroutines kept for reuse (thread, registry reference): a handler call then costs
    /// no allocation. Threads that failed or were killed are dropped instead. The one finished
    /// last waits in `spareThread` (most calls run no handler inside: they take and give back
    /// that one, and the array is left alone).
    private var idleThreads: [(OpaquePointer, Int32)] = []
    private var spareThread: OpaquePointer?
    private var spareRef: Int32 = 0
    /// Where each referenced value came from (4 bytes a reference).
    private var refLocations = RefLocations()
    /// Every name the API declared, for the REPL's completion: globals, and each strict table's
    /// methods and fields as `table.name` / `table:name`.
    private(set) var declaredNames: [String] = []
    /// The members of every strict table made so far, by its name's first word (`timer`, `queue`,
    /// `server`): what TypeDefinitionTests checks the objects' definitions against.
    private(set) var objectMembers: [String: Set<String>] = [:]
    /// Whether states made from now on keep `objectMembers` (only the definitions' test asks;
    /// runs do not pay for it).
    nonisolated(unsafe) static var recordObjectMembers = false
    /// The coroutine running now (nested handler calls resume from it, so Lua's C-stack limit
    /// counts every level), and how many handler calls are nested.
    private var running: OpaquePointer?
    private var nesting = 0
    /// The completion handlers (their boxes, with the host's tags) the next handler run watches:
    /// when the function, its arguments or a parked thread's frames reach one, the run records
    /// where a function holding it returned (`LuaRunResult.held`). Set by the runtime just before
    /// a call; used once.
    var watchNext: [(box: UnsafeMutableRawPointer, tag: Int)] = []
    /// The running handler calls that reached a watched handler: their nesting and tags
    /// (innermost last; calls that reached none are not listed, so most calls touch nothing).
    private var watching: [(nesting: Int, tags: [Int])] = []
    /// The tags the innermost running handler reached (none when it is not watched).
    var runningWatchTags: [Int] {
        guard let w = watching.last, w.nesting == nesting else { return [] }
        return w.tags
    }
    /// Handlers calling handlers (an observer posting what it observes) stop here with an error.
    static let maxNesting = 48

    /// `restorable`: the heap lives in a region that `save` and `restore` can copy (explore's warm
    /// runs); when the region cannot be reserved the state is an ordinary one and `save` says no.
    init(memoryCap: Int, instructionBudget: Int64, totalBudget: Int64 = 0, restorable: Bool = false) {
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
        hostRecord.pointee.release = { owner, box, slot in
            if let owner, Unmanaged<LuaState>.fromOpaque(owner).takeUnretainedValue().keepsBoxes {
                Unmanaged<LuaState>.fromOpaque(owner).takeUnretainedValue().boxCollected(box!, slot: slot!)
            } else {
                Unmanaged<HostFunction>.fromOpaque(box!).release()
            }
        }
        let reserve = min(max(memoryCap, 64 << 20) * 2 + (64 << 20), 16 << 30)
        L = (restorable ? clua_newstate_arena(hostRecord, reserve) : nil) ?? clua_newstate(hostRecord)
        hostRecord.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        clua_openlibs(L)
    }

    deinit {
        if saved != nil {
            // Back to the saved heap (every box it holds, once), then an ordinary close.
            restore()
            saved = nil
        }
        hostRecord.pointee.owner = nil
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
        if fn.units != 0, clua_charge_total(L, fn.units) != CLUA_KILL_NONE { return CLUA_STATUS_KILL }  // the work it starts
        let call = LuaCall(L: L, name: fn.name, callLevel: fn.callLevel)
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
            case .park:
                return state.mustStop() ? CLUA_STATUS_KILL : CLUA_STATUS_PARK
            }
        }
    }

    /// Pushes a Swift function as a Lua function.
    func push(_ fn: HostFunction) { LuaState.push(fn, on: L) }

    static func push(_ fn: HostFunction, on L: OpaquePointer) {
        let box = Unmanaged.passRetained(fn)
        let slot = clua_pushbox(L, box.toOpaque())
        if let owner = clua_host(L).pointee.owner {
            let state = Unmanaged<LuaState>.fromOpaque(owner).takeUnretainedValue()
            if state.keepsBoxes { state.transientBoxes[slot!] = box }
        }
    }

    // MARK: - Saving and restoring (explore's warm runs)

    /// What `save` kept: the host record and the Swift side of the state (the heap is the arena's);
    /// a class, so a restore reads it without copying it.
    private final class Saved {
        var host: clua_Host
        var idleThreads: [(OpaquePointer, Int32)]
        var spareThread: OpaquePointer?
        var spareRef: Int32
        var refLocations: RefLocations
        var declaredNames: [String]
        var objectMembers: [String: Set<String>]
        var show: ScriptRef?
        init(_ s: LuaState) {
            host = s.hostRecord.pointee; idleThreads = s.idleThreads; spareThread = s.spareThread; spareRef = s.spareRef
            refLocations = s.refLocations; declaredNames = s.declaredNames; objectMembers = s.objectMembers; show = s.show
        }
    }
    private var saved: Saved?
    /// While a state is saved, a box made before the save belongs to the saved heap: when a run's
    /// garbage collection frees its userdata the function stays alive (a restore brings the
    /// userdata back); boxes made since are released when collected, or by the restore.
    private var keepsBoxes: Bool { saved != nil }
    private var transientBoxes: [UnsafeMutableRawPointer: Unmanaged<HostFunction>] = [:]
    /// Boxes of the saved heap whose userdata a run collected (alive until the heap comes back).
    private var collectedSaved: [Unmanaged<HostFunction>] = []

    /// How many times a run collected a box of the saved heap (tests check the path is taken).
    private(set) var savedBoxesCollected = 0

    private func boxCollected(_ box: UnsafeMutableRawPointer, slot: UnsafeMutableRawPointer) {
        if let made = transientBoxes.removeValue(forKey: slot) {
            made.release()
        } else {
            collectedSaved.append(Unmanaged.fromOpaque(box))
            savedBoxesCollected += 1
        }
    }

    /// Saves the heap and the state's own bookkeeping, so `restore` can put them back (a second
    /// save replaces the first); false when the state cannot be saved (an ordinary heap, a block
    /// outside the region, a call running).
    func save() -> Bool {
        guard let arena = hostRecord.pointee.arena, running == nil, nesting == 0 else { return false }
        guard clua_arena_save(arena) == 0 else { return false }
        // The earlier image is gone: what it alone held goes now; what was made since is the new image's.
        for box in collectedSaved { box.release() }
        collectedSaved.removeAll()
        transientBoxes.removeAll()
        saved = Saved(self)
        return true
    }

    /// Puts the saved heap and bookkeeping back (everything since the save is forgotten).
    func restore() {
        guard let s = saved, let arena = hostRecord.pointee.arena else { return }
        for (_, box) in transientBoxes { box.release() }
        transientBoxes.removeAll(keepingCapacity: true)
        collectedSaved.removeAll(keepingCapacity: true)
        _ = clua_arena_restore(arena)
        hostRecord.pointee = s.host
        idleThreads = s.idleThreads
        spareThread = s.spareThread
        spareRef = s.spareRef
        refLocations = s.refLocations
        declaredNames = s.declaredNames
        objectMembers = s.objectMembers
        show = s.show
        running = nil
        nesting = 0
    }


    /// math.random's generator state now (empty when unknown).
    var randomState: [UInt8] {
        var buf = [UInt8](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBytes { clua_get_random(L, $0.baseAddress, 64) }
        return Array(buf.prefix(n))
    }

    /// The generator state `math.randomseed(seed)` leaves (empty when unknown).
    func seededRandomState(_ seed: Int64) -> [UInt8] {
        var buf = [UInt8](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBytes { clua_seeded_random(L, lua_Integer(seed), $0.baseAddress, 64) }
        return Array(buf.prefix(n))
    }

    /// Gives math.random the state `math.randomseed(seed)` leaves.
    func reseedRandom(_ seed: Int64) { clua_reseed_random(L, lua_Integer(seed)) }



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

    /// The line the running handler is at: its innermost frame in a scenario file (nil when no
    /// handler runs, or it runs no scenario code, as `at(5, user.home)`).
    func runningLocation() -> SourceLocationRef? {
        guard let co = running else { return nil }
        return LuaState.scenarioLocation(co, from: 0)
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
    var show: ScriptRef?

    /// Runs the chunk `fn` like `runHandler` and returns every result as text.
    func runCollectingResults(_ fn: ScriptRef) -> (LuaRunResult, [String]) {
        lua_rawgeti(L, clua_registryindex(), lua_Integer(fn.id))
        var texts: [String] = []
        var nargs: Int32 = 0
        if let show {
            lua_rawgeti(L, clua_registryindex(), lua_Integer(show.id))
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
            return LuaState.nestedTooDeep
        }
        let (co, coRef) = handlerThread()
        lua_xmove(L, co, nargs + 1)       // function and args to the thread
        return drive(co, coRef, nargs: nargs, keepResult: keepResult, collect: collect)
    }

    /// Whether a host function called on `L` may park its handler thread: `L` is the handler
    /// thread itself (not a coroutine it resumed, nor a handler nested in a host call) and can yield.
    func canPark(_ L: OpaquePointer) -> Bool {
        L == hostRecord.pointee.top && lua_isyieldable(L) != 0
    }

    /// Continues a parked handler thread where it waited (a fresh instruction budget, as a new call).
    func resume(parked ref: Int32) -> LuaRunResult {
        guard nesting < LuaState.maxNesting else {
            var r = LuaRunResult(status: .error)
            r.message = "handlers nested more than \(LuaState.maxNesting) deep"
            return r
        }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(ref))
        let co = lua_tothread(L, -1)!
        clua_pop(L, 1)
        return drive(co, ref, nargs: 0, keepResult: false, collect: nil)
    }

    /// Forgets a parked thread that will never continue (its process ended).
    func dropParked(_ ref: Int32) { luaL_unref(L, clua_registryindex(), ref) }

    /// Resumes `co` (with `nargs` arguments on its stack, or none when it continues a park) under
    /// the budgets, and turns how it stopped into a result.
    private func drive(_ co: OpaquePointer, _ coRef: Int32, nargs: Int32, keepResult: Bool,
                       collect: ((OpaquePointer, Int32) -> Void)?) -> LuaRunResult {
        let h = hostRecord
        let saved = (h.pointee.top, h.pointee.current, h.pointee.spent, h.pointee.enforce)
        // Most calls watch nothing and run inside no watched call: they leave the record alone.
        let savedWatch: clua_Watch? = watchNext.isEmpty && h.pointee.watch.count == 0 ? nil : h.pointee.watch
        let reached = savedWatch == nil ? [] : watch(co)
        if !reached.isEmpty { watching.append((nesting + 1, reached)) }
        clua_arm(co, h)
        h.pointee.parked = 0
        h.pointee.enforce = 1
        var nres: Int32 = 0
        let caller = running
        running = co
        nesting += 1
        let status = clua_resume(co, caller ?? L, nargs, &nres)
        nesting -= 1
        running = caller
        if !reached.isEmpty { watching.removeLast() }
        h.pointee.enforce = 0
        var result = LuaRunResult(status: .ok)
        let killed = h.pointee.killed
        if !reached.isEmpty {
            if status == LUA_YIELD && h.pointee.parked != 0 && killed == CLUA_KILL_NONE {
                if let at = LuaState.scenarioLocation(co, from: 0) { result.held = (reached, at, true) }  // the line it waits at
            } else if let src = h.pointee.watch.source, h.pointee.watch.line > 0 {
                result.held = (reached, (String(cString: src + 1), Int(h.pointee.watch.line)), false)  // a return statement
            } else if let src = h.pointee.watch.endSource, h.pointee.watch.endLine > 0 {
                result.held = (reached, (String(cString: src + 1), Int(h.pointee.watch.endLine)), false)  // the end of the outermost
            }
        }
        if let savedWatch { h.pointee.watch = savedWatch }
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
        } else if status == LUA_YIELD && h.pointee.parked != 0 {
            h.pointee.parked = 0
            result.status = .parked
            result.parkedThread = coRef
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
            if nres > 0 { lua_settop(co, 0) }  // its results (the function and arguments are gone)
            if spareThread == nil { (spareThread, spareRef) = (co, coRef) } else { idleThreads.append((co, coRef)) }
        } else if result.status == .parked {
            // kept until resumed or dropped
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

    /// Takes `watchNext` for the run of `co` (its function and arguments on its stack, or a parked
    /// thread): the tags of the watched completion handlers it can reach; the host record then
    /// watches those (clua_arm sets the return hook), or nothing.
    private func watch(_ co: OpaquePointer) -> [Int] {
        let h = hostRecord
        h.pointee.watch.count = 0
        guard !watchNext.isEmpty else { return [] }
        let boxes = watchNext.prefix(Int(CLUA_WATCH_MAX))
        watchNext = []
        withUnsafeMutableBytes(of: &h.pointee.watch.boxes) { raw in
            let slots = raw.bindMemory(to: UnsafeMutableRawPointer?.self)
            for (i, b) in boxes.enumerated() { slots[i] = b.box }
        }
        h.pointee.watch.count = Int32(boxes.count)
        let mask = clua_watch_reach(co, h)
        var tags: [Int] = []
        for (i, b) in boxes.enumerated() where mask & (1 << Int32(i)) != 0 { tags.append(b.tag) }
        if tags.isEmpty {
            h.pointee.watch.count = 0
        } else {
            // Only the reached boxes count as held from here on.
            var kept: [UnsafeMutableRawPointer] = []
            for (i, b) in boxes.enumerated() where mask & (1 << Int32(i)) != 0 { kept.append(b.box) }
            withUnsafeMutableBytes(of: &h.pointee.watch.boxes) { raw in
                let slots = raw.bindMemory(to: UnsafeMutableRawPointer?.self)
                for (i, b) in kept.enumerated() { slots[i] = b }
            }
            h.pointee.watch.count = Int32(kept.count)
        }
        return tags
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

// MARK: - The door's operations (what the API files use instead of the C API)

extension LuaState {
    /// The state a `lua_State` (or one of its coroutines) belongs to.
    static func of(_ L: OpaquePointer) -> LuaState {
        Unmanaged<LuaState>.fromOpaque(clua_host(L).pointee.owner).takeUnretainedValue()
    }

    /// Pops the value on top of `L` into the registry, recording where it was defined (a
    /// function's definition, else the caller's line).
    func makeRef(_ L: OpaquePointer) -> ScriptRef {
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

    func location(of ref: ScriptRef) -> SourceLocation? {
        refLocations.location(of: ref.id)
    }

    /// `_G[name] = value`.
    func setGlobal(_ name: String, _ value: LuaValue) {
        declaredNames.append(name)
        value.push(L)
        lua_setglobal(L, name)
    }

    /// Calls `fn(args...)` as a handler (a coroutine under the budgets); see `runHandler`.
    func call(_ fn: ScriptRef, _ args: [LuaValue]) -> LuaRunResult {
        call(fn, count: args.count) { args[$0] }
    }

    /// `fn()`: the common case of `call(_:count:_:)`, without arguments to make.
    func call(_ fn: ScriptRef) -> LuaRunResult {
        call(fn, count: 0) { _ in .null }
    }

    /// Calls `fn` as a handler with `count` (at most 3) arguments, the i-th being `argument(i)` (no
    /// array is made). The function and its arguments go straight onto the handler's thread (an
    /// idle thread's stack is empty, with room for them).
    func call(_ fn: ScriptRef, count: Int, _ argument: (Int) -> LuaValue) -> LuaRunResult {
        guard let thread = handlerThread(calling: fn) else { return LuaState.nestedTooDeep }
        for i in 0..<count { argument(i).push(thread.co) }
        return drive(thread.co, thread.ref, nargs: Int32(count), keepResult: false, collect: nil)
    }

    /// `fn(value)` for a value kept in the registry (a timer's object): `call(_:count:_:)` without
    /// an argument to make.
    func call(_ fn: ScriptRef, ref arg: ScriptRef) -> LuaRunResult {
        guard let thread = handlerThread(calling: fn) else { return LuaState.nestedTooDeep }
        lua_rawgeti(thread.co, clua_registryindex(), lua_Integer(arg.id))
        return drive(thread.co, thread.ref, nargs: 1, keepResult: false, collect: nil)
    }

    /// A handler thread with `fn` pushed on it, ready for its arguments; nil when handlers are
    /// nested too deep already.
    @inline(__always)
    private func handlerThread(calling fn: ScriptRef) -> (co: OpaquePointer, ref: Int32)? {
        guard nesting < LuaState.maxNesting else { return nil }
        let (co, coRef) = handlerThread()
        lua_rawgeti(co, clua_registryindex(), lua_Integer(fn.id))
        return (co, coRef)
    }

    /// What a call nested past `maxNesting` returns.
    private static var nestedTooDeep: LuaRunResult {
        var r = LuaRunResult(status: .error)
        r.message = "handlers nested more than \(LuaState.maxNesting) deep (does an observer post the notification it observes?)"
        return r
    }

    /// An idle handler thread (its stack empty), or a new one.
    private func handlerThread() -> (OpaquePointer, Int32) {
        if let co = spareThread { spareThread = nil; return (co, spareRef) }
        if let idle = idleThreads.popLast() { return idle }
        let co = lua_newthread(L)!
        return (co, luaL_ref(L, clua_registryindex()))
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
    private func runCopier(_ L: OpaquePointer, nargs: Int32) -> (message: String, memory: Bool)? {
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
        lua_pushstring(L, name)
        return runCopier(L, nargs: 2)?.message
    }

    /// Pushes on `L` a property-list copy of `store[key]` (nil when absent).
    func pushPlist(from store: ScriptRef, key: String, on L: OpaquePointer) -> String? {
        lua_checkstack(L, 4)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(store.id))
        lua_pushstring(L, key)
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
        lua_pushstring(L, key)
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
        lua_pushstring(L, name)
        lua_pushnil(L)
        lua_rawset(L, -3)
        clua_pop(L, 1)
        return fn
    }

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
        lua_pushstring(L, name)
        lua_setfield(L, -2, "__name")
        let label = name
        LuaState.push(HostFunction("tostring") { c throws(LuaFailure) in lua_pushstring(c.L, label); return 1 }, on: L)
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
            lua_pushstring(c.L, label(c)); return 1
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

/// An error message from Lua (a syntax error, a failed helper).
struct LuaMessage: Error { let text: String }

/// The body of a host function.
typealias HostBody = (LuaCall) throws(LuaFailure) -> Int32

extension LuaState {
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

/// Chunks compiled in this process, as bytecode by name and source (thread-safe): explore's runs
/// compile the prelude and the scenario once, not once per run.
final class CompiledChunks: @unchecked Sendable {
    static let shared = CompiledChunks()
    private var chunks: [String: (source: [UInt8], code: [UInt8])] = [:]
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private init() { pthread_mutex_init(lock, nil) }

    func bytecode(_ name: String, _ source: [UInt8]) -> [UInt8]? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard let c = chunks[name], c.source == source else { return nil }
        return c.code
    }

    func keep(_ name: String, _ source: [UInt8], _ code: [UInt8]) {
        pthread_mutex_lock(lock)
        chunks[name] = (source, code)
        pthread_mutex_unlock(lock)
    }
}

// MARK: - Coverage (CLuaHost/coverage.c)

extension LuaState {
    /// Starts line coverage of scenario chunks (`edges`: also the map of consecutive line pairs
    /// explore's guidance reads). Call before any handler runs; false when it cannot be started.
    func startCoverage(edges: Bool) -> Bool { clua_coverage_start(hostRecord, edges ? 1 : 0) != nil }

    var coverageOn: Bool { hostRecord.pointee.cov != nil }

    /// Hands this run's counts to `body`, chunk by chunk (the path without its '@', hit counts by
    /// line, functions entered by the line they are defined on), then clears them.
    func takeCoverage(_ body: (String, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt8>) -> Void) {
        guard let cov = hostRecord.pointee.cov else { return }
        for i in 0..<clua_coverage_count(cov) {
            var len = 0, size: Int32 = 0
            var lines: UnsafePointer<UInt32>?, fns: UnsafePointer<UInt8>?
            guard let name = clua_coverage_chunk(cov, Int32(i), &len, &lines, &fns, &size), len > 1, size > 0,
                  let lines, let fns else { continue }
            let path = UnsafeRawBufferPointer(start: name + 1, count: len - 1)
            body(String(decoding: path, as: UTF8.self), UnsafeBufferPointer(start: lines, count: Int(size)),
                 UnsafeBufferPointer(start: fns, count: Int(size)))
        }
        clua_coverage_clear(cov)
    }

    /// The run's map of consecutive line pairs (`CLUA_COVERAGE_EDGES` saturating counts), read
    /// before `takeCoverage` clears it; nil when coverage runs without it.
    func withCoverageEdges<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        guard let cov = hostRecord.pointee.cov, let edges = clua_coverage_edges(cov) else { return nil }
        return body(UnsafeBufferPointer(start: edges, count: Int(CLUA_COVERAGE_EDGES)))
    }

    /// `source` compiled as chunk `chunkName` (in a scratch state: nothing runs) and dumped as
    /// bytecode with its debug information, which says which lines hold code and where each
    /// function begins (ChunkShape reads it); nil when it does not compile.
    static func bytecode(of source: [UInt8], chunkName: String) -> [UInt8]? {
        guard let L = luaL_newstate() else { return nil }
        defer { lua_close(L) }
        let status = source.withUnsafeBufferPointer { buf in
            buf.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: max(buf.count, 1)) { clua_loadbuffer(L, $0, buf.count, chunkName) }
            } ?? clua_loadbuffer(L, "", 0, chunkName)
        }
        guard status == LUA_OK else { return nil }
        var size = 0
        guard let bytes = clua_dump(L, &size) else { return nil }
        defer { clua_free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: size))
    }
}

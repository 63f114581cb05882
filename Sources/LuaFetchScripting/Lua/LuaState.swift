// LuaState: the one owner of a `lua_State` (closed in deinit, watchdog first). It provides
// protected loading and calls with a traceback message handler, handler coroutines under the
// budgets and memory cap of CLuaHost's host record, Swift closures boxed in userdata (released by
// __gc) and called through CLuaHost's trampoline, registry references (with where each value was
// defined), strict API tables, globals and deep copies: with LuaCall and OptionReader, all the
// Swift that touches the C API. Swift code here never calls lua_error or luaL_check*: errors
// travel as statuses, and only C raises.
// This file holds the state itself (its stored properties, host functions, registry references,
// locations); its seams are extensions of their own: LuaState+Runs (handler runs), +References,
// +Copies, +StrictTables, +Saving (explore's warm runs) and +Chunks (compiled chunks, coverage).
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

/// Pushes a Swift string onto L's stack with `lua_pushlstring`. `lua_pushstring` goes through
/// Lua's API string cache, keyed by the C string's address, which ASLR and the heap move from run to
/// run: whether a long string was made anew (and its allocation charged) differed between runs, so a
/// run's limit was reached at different points (issue 40). Without the cache the same run makes the
/// same strings.
func luaPushString(_ L: OpaquePointer, _ s: String) {
    var s = s
    s.withUTF8 { b in
        if let base = b.baseAddress {
            _ = lua_pushlstring(L, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), b.count)
        } else {
            _ = lua_pushlstring(L, "", 0)
        }
    }
}

final class LuaState {
    let L: OpaquePointer
    let hostRecord: UnsafeMutablePointer<clua_Host>
    /// Called after every host function, to stop handlers the simulator ended.
    var mustStop: () -> Bool = { false }
    /// Finished coroutines kept for reuse (thread, registry reference): a handler call then costs
    /// no allocation. Threads that failed or were killed are dropped instead. The one finished
    /// last waits in `spareThread` (most calls run no handler inside: they take and give back
    /// that one, and the array is left alone).
    var idleThreads: [(OpaquePointer, Int32)] = []
    var spareThread: OpaquePointer?
    var spareRef: Int32 = 0
    /// Where each referenced value came from (4 bytes a reference).
    var refLocations = RefLocations()
    /// Every name the API declared, for the REPL's completion: globals, and each strict table's
    /// methods and fields as `table.name` / `table:name`.
    var declaredNames: [String] = []
    /// The members of every strict table made so far, by its name's first word (`timer`, `queue`,
    /// `server`): what TypeDefinitionTests checks the objects' definitions against.
    var objectMembers: [String: Set<String>] = [:]
    /// Whether states made from now on keep `objectMembers` (only the definitions' test asks;
    /// runs do not pay for it).
    nonisolated(unsafe) static var recordObjectMembers = false
    /// The coroutine running now (nested handler calls resume from it, so Lua's C-stack limit
    /// counts every level), and how many handler calls are nested.
    var running: OpaquePointer?
    var nesting = 0
    /// The completion handlers (their boxes, with the host's tags) the next handler run watches:
    /// when the function, its arguments or a parked thread's frames reach one, the run records
    /// where a function holding it returned (`LuaRunResult.held`). Set by the runtime just before
    /// a call; used once.
    var watchNext: [(box: UnsafeMutableRawPointer, tag: Int)] = []
    /// Alone in `watchNext`: the next run records where its own function returned (its last
    /// `return` statement, else its end) in `LuaRunResult.held` (no tags): an expiration handler's.
    static var watchSelf: (box: UnsafeMutableRawPointer, tag: Int) { (UnsafeMutableRawPointer(bitPattern: 1)!, -1) }
    /// Per running call that watches or runs inside one that does (`beginWatch`), innermost last:
    /// the record's watch before it, its nesting and the tags it reached (calls outside any watch
    /// are not listed, so most calls touch nothing).
    var watchSaves: [(saved: clua_Watch, nesting: Int, reached: [Int])] = []
    /// The tags the innermost running handler reached (none when it is not watched).
    var runningWatchTags: [Int] {
        guard let w = watchSaves.last, w.nesting == nesting else { return [] }
        return w.reached
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

    /// The prelude's `show(f, ...)`: calls `f` and turns every result into text with luafetch's
    /// own `tostring`, inside the handler (so `__tostring` runs under the budget).
    var show: ScriptRef?

    // The bookkeeping of a saved state (LuaState+Saving.swift).
    var saved: Saved?
    var transientBoxes: [UnsafeMutableRawPointer: Unmanaged<HostFunction>] = [:]
    /// Boxes of the saved heap whose userdata a run collected (alive until the heap comes back).
    var collectedSaved: [Unmanaged<HostFunction>] = []

    /// How many times a run collected a box of the saved heap (tests check the path is taken).
    var savedBoxesCollected = 0

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
                _ = clua_charge_total(L, HostCosts.error)  // the message built, the line found, the unwinding
                let loc = LuaState.scenarioLocation(L, from: 1)
                let text = loc.map { "\($0.file):\($0.line): " } ?? ""
                luaPushString(L, text + message)
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

}

/// An error message from Lua (a syntax error, a failed helper).
struct LuaMessage: Error { let text: String }

/// The body of a host function.
typealias HostBody = (LuaCall) throws(LuaFailure) -> Int32

// Handler runs: loading a chunk, running a handler as a coroutine under the budgets and memory
// cap (fresh or idle threads, nesting, parking and resuming background threads, the watched
// completion handlers), calls of kept functions with their arguments, protected calls and
// error text. Uses the C API and CLuaHost's host record; the state is LuaState.swift's.
import CLua
import CLuaHost
import LuaFetchCore

extension LuaState {
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

    func run(nargs: Int32, keepResult: Bool, collect: ((OpaquePointer, Int32) -> Void)? = nil) -> LuaRunResult {
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
    func drive(_ co: OpaquePointer, _ coRef: Int32, nargs: Int32, keepResult: Bool,
                       collect: ((OpaquePointer, Int32) -> Void)?) -> LuaRunResult {
        let h = hostRecord
        let saved = (h.pointee.top, h.pointee.current, h.pointee.spent, h.pointee.enforce)
        // Most calls watch nothing and run inside no watched call: they leave the record alone and
        // pay one test before and one after (the watched path is out of line).
        let watched = !watchNext.isEmpty || h.pointee.watch.count != 0
        if watched { beginWatch(co) }
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
        h.pointee.enforce = 0
        var result = LuaRunResult(status: .ok)
        let killed = h.pointee.killed
        if watched { endWatch(co, status: status, killed: killed, &result) }
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

    /// Before a run that watches completion handlers, or runs inside one that does: keeps the
    /// record's watch (restored by `endWatch`) and takes `watchNext` for `co`.
    @inline(never) func beginWatch(_ co: OpaquePointer) {
        let saved = hostRecord.pointee.watch
        let reached = watch(co)
        watchSaves.append((saved, nesting + 1, reached))
    }

    /// After that run (before `co` settles): where code holding a reached handler returned or
    /// waits (`LuaRunResult.held`), then the outer run's watch back.
    @inline(never) func endWatch(_ co: OpaquePointer, status: Int32, killed: Int32, _ result: inout LuaRunResult) {
        let h = hostRecord
        let (saved, _, reached) = watchSaves.removeLast()
        if !reached.isEmpty || h.pointee.watch.own != 0 {
            if status == LUA_YIELD && h.pointee.parked != 0 && killed == CLUA_KILL_NONE {
                if let at = LuaState.scenarioLocation(co, from: 0) { result.held = (reached, at, true) }  // the line it waits at
            } else if let src = h.pointee.watch.source, h.pointee.watch.line > 0 {
                result.held = (reached, (String(cString: src + 1), Int(h.pointee.watch.line)), false)  // a return statement
            } else if let src = h.pointee.watch.endSource, h.pointee.watch.endLine > 0 {
                result.held = (reached, (String(cString: src + 1), Int(h.pointee.watch.endLine)), false)  // the end of the outermost
            }
        }
        h.pointee.watch = saved
    }

    /// Takes `watchNext` for the run of `co` (its function and arguments on its stack, or a parked
    /// thread): the tags of the watched completion handlers it can reach; the host record then
    /// watches those (clua_arm sets the return hook), or nothing.
    func watch(_ co: OpaquePointer) -> [Int] {
        let h = hostRecord
        h.pointee.watch.count = 0
        h.pointee.watch.own = 0
        guard !watchNext.isEmpty else { return [] }
        // `LuaState.watchSelf` first: the handler's own return too (kept watched with a box that
        // nothing holds when no completion is reached).
        if watchNext[0].tag == LuaState.watchSelf.tag {
            h.pointee.watch.own = 1
            watchNext.removeFirst()
            defer {
                if h.pointee.watch.count == 0 {
                    withUnsafeMutableBytes(of: &h.pointee.watch.boxes) { raw in
                        raw.bindMemory(to: UnsafeMutableRawPointer?.self)[0] = LuaState.watchSelf.box
                    }
                    h.pointee.watch.count = 1
                }
            }
            if watchNext.isEmpty { return [] }
        }
        let n = min(watchNext.count, Int(CLUA_WATCH_MAX))
        var tags: [Int] = []
        withUnsafeMutableBytes(of: &h.pointee.watch.boxes) { raw in
            let slots = raw.bindMemory(to: UnsafeMutableRawPointer?.self)
            for i in 0..<n { slots[i] = watchNext[i].box }
            h.pointee.watch.count = Int32(n)
            let mask = clua_watch_reach(co, h)
            guard mask != 0 else { h.pointee.watch.count = 0; return }
            // Only the reached boxes count as held from here on (moved down, in order).
            var kept = 0
            for i in 0..<n where mask & (1 << Int32(i)) != 0 {
                tags.append(watchNext[i].tag)
                slots[kept] = watchNext[i].box
                kept += 1
            }
            h.pointee.watch.count = Int32(kept)
        }
        watchNext = []
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
    func handlerThread(calling fn: ScriptRef) -> (co: OpaquePointer, ref: Int32)? {
        guard nesting < LuaState.maxNesting else { return nil }
        let (co, coRef) = handlerThread()
        lua_rawgeti(co, clua_registryindex(), lua_Integer(fn.id))
        return (co, coRef)
    }

    /// What a call nested past `maxNesting` returns.
    static var nestedTooDeep: LuaRunResult {
        var r = LuaRunResult(status: .error)
        r.message = "handlers nested more than \(LuaState.maxNesting) deep (does an observer post the notification it observes?)"
        return r
    }

    /// An idle handler thread (its stack empty), or a new one.
    func handlerThread() -> (OpaquePointer, Int32) {
        if let co = spareThread { spareThread = nil; return (co, spareRef) }
        if let idle = idleThreads.popLast() { return idle }
        let co = lua_newthread(L)!
        return (co, luaL_ref(L, clua_registryindex()))
    }
}

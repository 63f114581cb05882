// Threads and queues in Lua (SPEC 12.2): `dispatch.main(fn)`, `dispatch.global(fn)`,
// `dispatch.queue(label)` with `q:async(fn)` and `q:sync(fn)` (written in the prelude on top of
// two host functions, so a block can wait inside it), `dispatch.lock()` with `m:lock()`,
// `m:unlock()` and `m:tryLock()`. Waiting calls park a background thread (LuaFailure.park) or
// block the main thread (the World runs the world meanwhile). App code only. Uses the World's
// threads and LuaState's objects.
import LuaFetchCore

extension ScenarioRuntime {
    func installDispatchAPI() {
        installTable("dispatch", methods: [
            ("main", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "; the world uses at(time, fn)")
                try c.function(1)
                world.dispatchMain(c.ref(1))
                return 0 }),
            ("global", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "; the world uses at(time, fn)")
                try c.function(1)
                world.dispatchGlobal(c.ref(1))
                return 0 }),
            ("queue", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                let label = c.isNil(1) ? "queue" : try c.string(1)
                let q = world.makeQueue(label: label)
                let object = lua.object([("queue", .integer(Int64(q))), ("label", .string(label))], metatable: queueMeta)
                defer { lua.release(object) }
                return c.returns(.ref(object)) }),
            ("lock", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                let m = world.makeMutex()
                let object = lua.object([("mutex", .integer(Int64(m)))], metatable: mutexMeta)
                defer { lua.release(object) }
                return c.returns(.ref(object)) }),
        ])

        // Called by the prelude's q:sync, so the user's call is one level up (callLevel: 1).
        let begin = HostFunction("q:sync", callLevel: 1) { [unowned self] c throws(LuaFailure) in
            let q = try queueSelf(c, "sync")
            try c.function(2)
            return try waited(world.queueSyncBegin(q, canPark: lua.canPark(c.L), at: c.location), c)
        }
        let finish = HostFunction("q:sync", callLevel: 1) { [unowned self] c throws(LuaFailure) in
            world.queueSyncEnd(try queueSelf(c, "sync"))
            return 0
        }
        let makeSync = lua.field("makeSync", of: preludeExports)
        guard case .success(let sync) = lua.callHelper(makeSync, [.function(begin), .function(finish)]) else {
            fatalError("luafetch: the prelude's makeSync failed")
        }
        lua.release(makeSync)
        let queueMethods = lua.strictTable("queue", methods: [
            ("async", { [unowned self] c throws(LuaFailure) in
                let q = try queueSelf(c, "async")
                try c.function(2)
                world.queueAsync(q, c.ref(2))
                return 0 }),
        ], methodSeparator: ":", completes: false, luaMethods: [("sync", sync)])
        lua.release(sync)
        queueMeta = lua.objectMetatable(methods: queueMethods) { c in "queue \"\(c.stringField(1, "label") ?? "")\"" }
        lua.release(queueMethods)

        let mutexMethods = lua.strictTable("lock", methods: [
            ("lock", { [unowned self] c throws(LuaFailure) in
                let m = try mutexSelf(c, "lock")
                return try waited(world.mutexLock(m, canPark: lua.canPark(c.L), at: c.location), c) }),
            ("unlock", { [unowned self] c throws(LuaFailure) in
                let m = try mutexSelf(c, "unlock")
                world.mutexUnlock(m, at: c.location)
                return 0 }),
            ("tryLock", { [unowned self] c throws(LuaFailure) in
                let m = try mutexSelf(c, "tryLock")
                return c.returns(.boolean(world.mutexTryLock(m))) }),
        ], methodSeparator: ":", completes: false)
        mutexMeta = lua.objectMetatable(methods: mutexMethods) { c in "mutex #\((c.integerField(1, "mutex") ?? 0) + 1)" }
        lua.release(mutexMethods)
    }

    /// The queue a `q:method(...)` call is made on.
    func queueSelf(_ c: LuaCall, _ method: String) throws(LuaFailure) -> Int {
        guard let q = c.integerField(1, "queue"), world.isQueue(Int(q)) else {
            throw c.wrongSelf("a queue", dotted: "q:\(method) is a method of a queue from dispatch.queue(label): call it with a colon, q:\(method)(fn)")
        }
        try requireApp(c, "")
        return Int(q)
    }

    /// The mutex an `m:method()` call is made on.
    func mutexSelf(_ c: LuaCall, _ method: String) throws(LuaFailure) -> Int {
        guard let m = c.integerField(1, "mutex"), world.isMutex(Int(m)) else {
            throw c.wrongSelf("a lock", dotted: "m:\(method) is a method of a lock from dispatch.lock(): call it with a colon, m:\(method)()")
        }
        try requireApp(c, "")
        return Int(m)
    }

    /// What a call that may wait returns to Lua.
    func waited(_ outcome: WaitOutcome, _ c: LuaCall) throws(LuaFailure) -> Int32 {
        switch outcome {
        case .proceed: return 0
        case .park: throw .park
        case .stopped: throw .stop
        case .cannotWait:
            throw .error("\(c.name) cannot wait here: a background thread waits (work, a held lock, q:sync) only in its block's own code, not inside a coroutine or a callback it called")
        }
    }

    // MARK: - ScriptHost: threads

    public func runThread(_ fn: ScriptRef, _ invocation: Invocation) -> ThreadRun {
        thread(lua.call(fn, count: invocation.count) { value(invocation[$0]) }, fallback: fn)
    }

    public func resumeThread(_ parked: Int) -> ThreadRun {
        thread(lua.resume(parked: Int32(parked)), fallback: nil)
    }

    public func dropThread(_ parked: Int) { lua.dropParked(Int32(parked)) }

    private func thread(_ r: LuaRunResult, fallback: ScriptRef?) -> ThreadRun {
        if r.status == .parked { return .parked(Int(r.parkedThread)) }
        return .finished(outcome(r, fallback: r.status == .ok ? nil : fallback.flatMap { location(of: $0) }))
    }
}

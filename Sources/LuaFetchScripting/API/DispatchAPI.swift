// Threads and queues in Lua (SPEC 12.2, 18.7.3): `dispatch.main(fn)`, `dispatch.global(fn)`,
// `dispatch.asyncAfter(seconds, fn)`, `dispatch.queue(label [, { concurrent = true }])` with
// `q:async(fn [, { barrier = true }])`, `q:asyncAfter(seconds, fn)` and `q:sync(fn)` (written in
// the prelude on top of two host functions, so a block can wait inside it), `dispatch.lock()` with
// `m:lock()`, `m:unlock()` and `m:tryLock()`, `dispatch.group()` with `g:enter()`, `g:leave()`,
// `g:notify(fn [, queue])` and `g:wait([seconds])`, `dispatch.semaphore(value)` with
// `s:wait([seconds])` and `s:signal()` (the waits are the prelude's too, on two host functions
// each). Waiting calls park a background thread (LuaFailure.park) or block the main thread (the
// World runs the world meanwhile). App code only. Uses the World's threads and dispatch
// primitives and LuaState's objects.
import LuaFetchCore

extension ScenarioRuntime {
    /// `dispatch.queue(label, { ... })`.
    static let queueOptions = OptionSpec(what: "dispatch.queue", unknownIn: "the options", fields: [
        Field("concurrent", .boolean, must: "must be true or false"),
    ])
    /// `q:async(fn, { ... })`.
    static let asyncOptions = OptionSpec(what: "q:async", unknownIn: "the options", fields: [
        Field("barrier", .boolean, must: "must be true or false"),
    ])

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
            ("asyncAfter", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "; the world uses at(time, fn)")
                let delay = try c.duration(1)
                try c.function(2)
                world.asyncAfter(delay, c.ref(2), on: nil)
                return 0 }),
            ("queue", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                let label = c.isNil(1) ? "queue" : try c.string(1)
                var concurrent = false
                if !c.isNil(2) {
                    try c.table(2, hint: " (options, like { concurrent = true })")
                    concurrent = try c.read(2, Self.queueOptions, refs: lua.keepTop(_:located:)).boolean("concurrent") ?? false
                }
                let q = world.makeQueue(label: label, concurrent: concurrent)
                let object = lua.object([("queue", .integer(Int64(q))), ("label", .string(label))], metatable: queueMeta)
                defer { lua.release(object) }
                return c.returns(.ref(object)) }),
            ("lock", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                let m = world.makeMutex()
                let object = lua.object([("mutex", .integer(Int64(m)))], metatable: mutexMeta)
                defer { lua.release(object) }
                return c.returns(.ref(object)) }),
            ("group", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                let object = lua.object([("group", .integer(Int64(world.makeGroup())))], metatable: groupMeta)
                defer { lua.release(object) }
                return c.returns(.ref(object)) }),
            ("semaphore", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                let value = try c.integer(1)
                guard value >= 0 else { throw c.badArgument(1, "a value of 0 or more expected, got \(value)") }
                let object = lua.object([("semaphore", .integer(Int64(world.makeSemaphore(Int(value)))))], metatable: semaphoreMeta)
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
                var barrier = false
                if !c.isNil(3) {
                    try c.table(3, hint: " (options, like { barrier = true })")
                    barrier = try c.read(3, Self.asyncOptions, refs: lua.keepTop(_:located:)).boolean("barrier") ?? false
                }
                world.queueAsync(q, c.ref(2), barrier: barrier)
                return 0 }),
            ("asyncAfter", { [unowned self] c throws(LuaFailure) in
                let q = try queueSelf(c, "asyncAfter", "seconds, fn")
                let delay = try c.duration(2)
                try c.function(3)
                world.asyncAfter(delay, c.ref(3), on: q)
                return 0 }),
        ], methodSeparator: ":", completes: false, luaMethods: [("sync", sync)])
        lua.release(sync)
        queueMeta = lua.objectMetatable(methods: queueMethods) { [unowned self] c in
            let concurrent = c.integerField(1, "queue").map { world.isConcurrentQueue(Int($0)) } ?? false
            return "\(concurrent ? "concurrent " : "")queue \"\(c.stringField(1, "label") ?? "")\""
        }
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
        installGroupsAndSemaphores()
    }

    /// `dispatch.group()`'s and `dispatch.semaphore(value)`'s objects.
    private func installGroupsAndSemaphores() {
        let groupWait = makeWait("group:wait") { [unowned self] c throws(LuaFailure) in .group(try groupSelf(c, "wait", "[seconds]")) }
        let groupMethods = lua.strictTable("group", methods: [
            ("enter", { [unowned self] c throws(LuaFailure) in
                world.groupEnter(try groupSelf(c, "enter", ""))
                return 0 }),
            ("leave", { [unowned self] c throws(LuaFailure) in
                guard world.groupLeave(try groupSelf(c, "leave", "")) else {
                    // Dispatch traps (EXC_BAD_INSTRUCTION): no pcall catches it.
                    world.crashApp(.appCrash, at: c.location, "Unbalanced call to dispatch_group_leave() (g:leave() without a matching g:enter())")
                    throw .stop
                }
                return 0 }),
            ("notify", { [unowned self] c throws(LuaFailure) in
                let g = try groupSelf(c, "notify", "fn [, queue]")
                try c.function(2)
                let target = c.isNil(3) ? DispatchTarget.main : try dispatchTarget(c, 3)
                world.groupNotify(g, c.ref(2), on: target)
                return 0 }),
        ], methodSeparator: ":", completes: false, luaMethods: [("wait", groupWait)])
        lua.release(groupWait)
        groupMeta = lua.objectMetatable(methods: groupMethods) { c in "group #\((c.integerField(1, "group") ?? 0) + 1)" }
        lua.release(groupMethods)

        let semaphoreWait = makeWait("semaphore:wait") { [unowned self] c throws(LuaFailure) in .semaphore(try semaphoreSelf(c, "wait", "[seconds]")) }
        let semaphoreMethods = lua.strictTable("semaphore", methods: [
            ("signal", { [unowned self] c throws(LuaFailure) in
                c.returns(.boolean(world.semaphoreSignal(try semaphoreSelf(c, "signal", "")))) }),
        ], methodSeparator: ":", completes: false, luaMethods: [("wait", semaphoreWait)])
        lua.release(semaphoreWait)
        semaphoreMeta = lua.objectMetatable(methods: semaphoreMethods) { c in "semaphore #\((c.integerField(1, "semaphore") ?? 0) + 1)" }
        lua.release(semaphoreMethods)
    }

    /// `o:wait([seconds])` written in the prelude (`makeWait`) for the group or semaphore `which`
    /// names: its first host function decides the wait at once, blocks the main thread or parks a
    /// background thread; the second tells a woken thread how its wait ended.
    private func makeWait(_ name: String, _ which: @escaping (LuaCall) throws(LuaFailure) -> PrimitiveWait) -> ScriptRef {
        let beginFn = HostFunction(name) { [unowned self] c throws(LuaFailure) in
            let w = try which(c)
            let (outcome, result) = world.wait(in: w, timeout: try waitTimeout(c, 2), canPark: lua.canPark(c.L), at: c.location)
            guard outcome == .proceed else { return try waited(outcome, c) }
            return c.returns(.boolean(result))
        }
        let finishFn = HostFunction(name) { [unowned self] c throws(LuaFailure) in c.returns(.boolean(world.waitEnded(try which(c)))) }
        let make = lua.field("makeWait", of: preludeExports)
        defer { lua.release(make) }
        guard case .success(let wait) = lua.callHelper(make, [.function(beginFn), .function(finishFn)]) else {
            fatalError("luafetch: the prelude's makeWait failed")
        }
        return wait
    }

    /// A wait's `seconds`: nil or `math.huge` wait forever.
    private func waitTimeout(_ c: LuaCall, _ i: Int32) throws(LuaFailure) -> Millis? {
        if c.isNil(i) { return nil }
        if try c.number(i, hint: " (seconds, or nil to wait forever)") == .infinity { return nil }
        return try c.duration(i)
    }

    /// Where a block goes: `"main"`, `"global"` or a queue object.
    func dispatchTarget(_ c: LuaCall, _ i: Int32) throws(LuaFailure) -> DispatchTarget {
        let expected = "\"main\", \"global\" or a queue from dispatch.queue"
        if c.isString(i) {
            let s = c.text(i)
            if s == "main" { return .main }
            if s == "global" { return .global }
            throw c.bad(i, expected, hint: ": \"\(s)\"\(c.didYouMean(s, among: ["global", "main"]))")
        }
        if let q = c.integerField(i, "queue"), world.isQueue(Int(q)) { return .queue(Int(q)) }
        throw c.bad(i, expected)
    }

    /// The queue a `q:method(...)` call is made on.
    func queueSelf(_ c: LuaCall, _ method: String, _ arguments: String = "fn") throws(LuaFailure) -> Int {
        guard let q = c.integerField(1, "queue"), world.isQueue(Int(q)) else {
            throw c.wrongSelf("a queue", dotted: "q:\(method) is a method of a queue from dispatch.queue(label): call it with a colon, q:\(method)(\(arguments))")
        }
        try requireApp(c, "")
        return Int(q)
    }

    /// The group a `g:method(...)` call is made on.
    func groupSelf(_ c: LuaCall, _ method: String, _ arguments: String) throws(LuaFailure) -> Int {
        guard let g = c.integerField(1, "group"), world.isGroup(Int(g)) else {
            throw .error("g:\(method) is a method of a group from dispatch.group(): call it with a colon, g:\(method)(\(arguments))")
        }
        try requireApp(c, "")
        return Int(g)
    }

    /// The semaphore an `s:method(...)` call is made on.
    func semaphoreSelf(_ c: LuaCall, _ method: String, _ arguments: String) throws(LuaFailure) -> Int {
        guard let s = c.integerField(1, "semaphore"), world.isSemaphore(Int(s)) else {
            throw .error("s:\(method) is a method of a semaphore from dispatch.semaphore(value): call it with a colon, s:\(method)(\(arguments))")
        }
        try requireApp(c, "")
        return Int(s)
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
            throw .error("\(c.name) cannot wait here: a background thread waits (work, a held lock, q:sync, g:wait, s:wait) only in its block's own code, not inside a coroutine or a callback it called")
        }
    }

    // MARK: - ScriptHost: threads

    public func runThread(_ fn: ScriptRef, _ invocation: Invocation) -> ThreadRun {
        let watched = watchCompletions(invocation)
        let r = lua.call(fn, count: invocation.count) { value(invocation[$0]) }
        if watched { noteHeld(r) }
        return thread(r, fallback: fn)
    }

    public func resumeThread(_ parked: Int) -> ThreadRun {
        let watched = watchCompletions(Invocation())
        let r = lua.resume(parked: Int32(parked))
        if watched { noteHeld(r) }
        return thread(r, fallback: nil)
    }

    public func dropThread(_ parked: Int) { lua.dropParked(Int32(parked)) }

    private func thread(_ r: LuaRunResult, fallback: ScriptRef?) -> ThreadRun {
        if r.status == .parked { return .parked(Int(r.parkedThread)) }
        return .finished(outcome(r, fallback: r.status == .ok ? nil : fallback.flatMap { location(of: $0) }))
    }
}

// Threads and queues (SPEC 12.2): the process's main thread and its background threads, run
// cooperatively and deterministically on the virtual clock. `dispatch.global` blocks each get a
// thread, a serial queue runs its blocks one after another on its own thread, `dispatch.lock()`
// mutexes hand over in request order, and `work`, a held lock or `q:sync` make only the calling
// thread wait. A background thread waits by parking its coroutine (ScriptHost.runThread); the
// main thread waits in `blockMain`, which runs the world at its own times while main-thread work
// (delegate calls, timers, blocks, transitions) waits in `mainWaiting` until the main thread is
// free. Also: suspension freezes waiting threads, termination ends them, a wait-for cycle is the
// warning `deadlock`, a transition that waits too long for a blocked main thread is
// `main-thread-hang`. Groups, semaphores, concurrent queues and asyncAfter are DispatchPrimitives.swift's.
// A subsystem of World.

/// What a thread waits for.
enum ThreadWait: Equatable {
    case none
    /// `work`: continues at `wakeAt` (or after `frozen` once the process runs again).
    case work
    case lock(Int)
    case queue(Int)
    /// `g:wait` / `s:wait` (DispatchPrimitives.swift).
    case primitive(PrimitiveWait)
}

/// A block for a background thread: a function, its arguments, and whether the thread releases
/// the function once it ran (a registered BGTask launch handler is kept).
struct ThreadBlock {
    let fn: ScriptRef
    var invocation = Invocation.none
    var release = true
    /// The BGTask (its grant serial) whose launch handler this block is (0: none): what reaches
    /// the task waits until the block returns (SPEC 13).
    var launchOf = 0
}

/// A background thread of the process (the main thread is 0 and has no record).
struct AppThread {
    let id: Int
    /// The serial queue it serves (nil: the thread of one `dispatch.global` block).
    let queue: Int?
    /// The block to start (a global thread's, or the queue's block handed to it).
    var block: ThreadBlock?
    /// The host's parked coroutine while it waits.
    var parked: Int?
    var wait = ThreadWait.none
    /// Where it waits (the line of `work`, `m:lock()`, `q:sync`).
    var waitingAt: SourceLocation?
    /// Its pending start or wake event, and when that falls due.
    var event: EventID?
    var due: Millis?
    /// Work left when the process was suspended in the middle of it.
    var frozen: Millis?
    /// The BGTask whose launch handler it runs now (0: none).
    var launchOf = 0
}

/// A serial queue (`dispatch.queue(label)`): its waiting items and who holds it now.
struct SerialQueue {
    enum Item { case block(ThreadBlock), sync(Int) }
    let label: String
    var thread: Int?
    var items: [Item] = []
    /// The thread running a block of it or inside `q:sync` (0: the main thread).
    var owner: Int?
}

/// A `dispatch.lock()` mutex.
struct Mutex {
    var owner: Int?
    var waiters: [Int] = []
}

/// The main thread blocked in `work`, a lock or `q:sync`, and what a transition waiting for it may wait.
public struct MainBlock: Sendable {
    public let location: SourceLocation?
    public let what: String
}

/// Work for the main thread that fell due while it was blocked, with what its wait may last.
struct MainWaiter {
    enum Limit {
        /// A transition without its own limit: at most `mainThreadHang` (main-thread-hang).
        case hang(String)
        /// A delegate callback with its own limit: the wait counts toward it (callback-overrun).
        case own(DelegateMethod, Millis)
    }
    let due: Millis
    let event: Event
    let limit: Limit?
}

final class ThreadBook: Subsystem {
    enum Kind: UInt8 { case start, wake }
    /// Background threads by number (lookups only; ordered walks sort the keys).
    var threads: [Int: AppThread] = [:]
    var queues: [SerialQueue] = []
    var mutexes: [Mutex] = []
    var lastThread = 0
    /// The thread running app code now (0: the main thread).
    var current = 0
    /// Threads already reported in a deadlock.
    var deadlocked: Set<Int> = []

    /// The instant whose order of runnable background blocks was decided (SPEC 12.4).
    var decidedInstant: Millis = -1

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        guard var t = threads[event.a] else { return }
        if delivery == .due && decidedInstant != time {
            let others = threads.keys.sorted().filter { $0 != event.a && threads[$0]!.due == time && threads[$0]!.event != nil }
            if !others.isEmpty {
                decidedInstant = time
                // SPEC 12.4: blocks of different queues runnable at one instant run in submission
                // order, or (the other order) in reverse.
                if world.chooseOther("\(others.count + 1) background blocks runnable at this instant run in reverse order") {
                    let order = others.sorted { threads[$0]!.event!.seq < threads[$1]!.event!.seq }
                    for id in order.reversed() + [event.a] {
                        let kind: Kind = threads[id]!.parked != nil ? .wake : .start
                        world.scheduleThread(id, kind, at: time)
                    }
                    return
                }
            }
        }
        t.event = nil
        t.due = nil
        threads[event.a] = t
        switch event.kind(Kind.self) {
        case .start:
            guard let block = t.block else { return }
            threads[event.a]!.block = nil
            threads[event.a]!.launchOf = block.launchOf
            world.runThread(t.id, block: block)
            if block.release { world.host.release(block.fn) }
        case .wake:
            guard let parked = t.parked else { return }
            threads[event.a]!.parked = nil
            threads[event.a]!.wait = .none
            threads[event.a]!.waitingAt = nil
            world.runThread(t.id, parked: parked)
        }
        if delivery == .due { world.settle() }
    }

    /// Background threads run while the main thread is blocked.
    func needsMainThread(_ event: Event) -> Bool { false }

    /// Blocks runnable now hold off suspension (SPEC 12.2); waits for later, locks or work do not.
    func keepsAppRunning(_ world: World) -> Bool {
        threads.values.contains { $0.due.map { $0 <= world.now } ?? false }
    }

    /// Suspension freezes threads in `work` where they stand.
    func appSuspending(_ world: World) {
        for id in threads.keys.sorted() where threads[id]!.wait == .work {
            guard let due = threads[id]!.due else { continue }
            world.queue.cancel(threads[id]!.event)
            threads[id]!.frozen = max(0, due - world.now)
            threads[id]!.event = nil
            threads[id]!.due = nil
        }
    }

    /// They continue when the process runs code again, with the rest of their work from then.
    func appResumed(_ world: World) {
        for id in threads.keys.sorted() {
            guard let left = threads[id]!.frozen else { continue }
            threads[id]!.frozen = nil
            world.scheduleThread(id, .wake, at: world.now + left)
        }
    }

    /// Termination ends every thread; queues and locks forget what the process held.
    func processEnding(_ pid: Int, in world: World) {
        for id in threads.keys.sorted() {
            let t = threads[id]!
            world.queue.cancel(t.event)
            if let p = t.parked { world.host.dropThread(p) }
            if let b = t.block, b.release { world.host.release(b.fn) }
        }
        threads.removeAll()
        for i in queues.indices {
            for case .block(let b) in queues[i].items where b.release { world.host.release(b.fn) }
            queues[i].items.removeAll()
            queues[i].owner = nil
            queues[i].thread = nil
        }
        for i in mutexes.indices { mutexes[i] = Mutex() }
        deadlocked.removeAll()
        current = 0
    }

    func pendingLines(in world: World) -> [String] {
        var out: [String] = []
        if let b = world.mainBlock {
            out.append("thread     main \(b.what)\(b.location.map { " at \($0)" } ?? "")")
        }
        for id in threads.keys.sorted() {
            let t = threads[id]!
            let name = t.queue.map { "\"\(queues[$0].label)\"" } ?? "global"
            let what: String
            switch t.wait {
            case .none: what = t.due != nil ? "runnable" : "idle"
            case .work: what = t.frozen.map { "in work, \(Time.human($0)) left (frozen: app suspended)" } ?? "in work until \(Time.stamp(t.due ?? world.now))"
            case .lock(let m): what = "waiting for mutex #\(m + 1)"
            case .queue(let q): what = "waiting for queue \"\(queues[q].label)\""
            case .primitive(let p): what = world.describe(p)
            }
            guard t.wait != .none || t.due != nil else { continue }
            out.append("thread     #\(id) (\(name)) \(what)\(t.waitingAt.map { " at \($0)" } ?? "")")
        }
        return out
    }

    func pendingAtEnd(in world: World) -> (parts: [String], location: SourceLocation?) {
        let waiting = threads.keys.sorted().compactMap { id -> AppThread? in
            let t = threads[id]!
            if case .lock = t.wait { return t }
            if case .queue = t.wait { return t }
            return t.wait == .work ? t : nil
        }
        var parts: [String] = []
        if !waiting.isEmpty { parts.append("\(waiting.count) background thread\(waiting.count == 1 ? "" : "s") waiting (on locks or work)") }
        if world.mainBlock != nil { parts.append("the main thread blocked") }
        return (parts, world.mainBlock?.location ?? waiting.first?.waitingAt)
    }
}

/// How a call that may wait goes on.
public enum WaitOutcome: Sendable {
    /// It did not have to wait, or its wait is over: the caller continues.
    case proceed
    /// A background thread must park: the host yields it, and it continues when woken.
    case park
    /// The app did not survive the wait (or the run ended): stop the handler.
    case stopped
    /// A background thread cannot wait here (inside a coroutine or a nested handler).
    case cannotWait
}

extension World {
    // MARK: - Submitting blocks

    /// The thread running app code now (0: main).
    public var currentThread: Int { threads.current }

    /// `dispatch.main(fn)`: the main queue, as soon as the main thread is free.
    public func dispatchMain(_ fn: ScriptRef) { after(0, fn) }

    /// `dispatch.global(fn)`: a new background thread runs `fn`.
    public func dispatchGlobal(_ fn: ScriptRef) {
        let id = newThread(queue: nil)
        threads.threads[id]!.block = ThreadBlock(fn: fn)
        scheduleThread(id, .start, at: now)
    }

    /// `dispatch.queue(label)`: a new serial queue; returns its number.
    public func makeQueue(label: String) -> Int {
        threads.queues.append(SerialQueue(label: label))
        return threads.queues.count - 1
    }

    /// `q:async(fn)` (with arguments, for the system's own queues).
    public func queueAsync(_ q: Int, _ fn: ScriptRef, _ invocation: Invocation = .none, release: Bool = true, launchOf: Int = 0) {
        let block = ThreadBlock(fn: fn, invocation: invocation, release: release, launchOf: launchOf)
        if isConcurrentQueue(q) { return concurrentAsync(q, block, barrier: false) }
        threads.queues[q].items.append(.block(block))
        advanceQueue(q)
    }

    /// `q:sync(fn)` begins: the caller waits until the queue is its own, then runs `fn` itself.
    public func queueSyncBegin(_ q: Int, canPark: Bool, at location: SourceLocation?) -> WaitOutcome {
        if isConcurrentQueue(q) { return concurrentSyncBegin(q, canPark: canPark, at: location) }
        let me = threads.current
        if threads.queues[q].owner == nil && threads.queues[q].items.isEmpty {
            threads.queues[q].owner = me
            return .proceed
        }
        if me != 0 && !canPark { return .cannotWait }
        threads.queues[q].items.append(.sync(me))
        return wait(.queue(q), at: location, canPark: canPark) { [unowned self] in threads.queues[q].owner == me }
    }

    /// `q:sync(fn)` ends: the queue goes on with its next item.
    public func queueSyncEnd(_ q: Int) {
        if isConcurrentQueue(q) { return concurrentSyncEnd(q) }
        guard threads.queues[q].owner == threads.current else { return }
        threads.queues[q].owner = nil
        advanceQueue(q)
    }

    /// Whether `q` names a queue (objects are tables: their numbers are checked).
    public func isQueue(_ q: Int) -> Bool { threads.queues.indices.contains(q) }
    public func isMutex(_ m: Int) -> Bool { threads.mutexes.indices.contains(m) }

    // MARK: - Locks

    /// `dispatch.lock()`: a new mutex; returns its number.
    public func makeMutex() -> Int {
        threads.mutexes.append(Mutex())
        return threads.mutexes.count - 1
    }

    /// `m:lock()`.
    public func mutexLock(_ m: Int, canPark: Bool, at location: SourceLocation?) -> WaitOutcome {
        let me = threads.current
        if threads.mutexes[m].owner == nil {
            threads.mutexes[m].owner = me
            return .proceed
        }
        if me != 0 && !canPark { return .cannotWait }
        threads.mutexes[m].waiters.append(me)
        return wait(.lock(m), at: location, canPark: canPark) { [unowned self] in threads.mutexes[m].owner == me }
    }

    /// `m:tryLock()`.
    public func mutexTryLock(_ m: Int) -> Bool {
        guard threads.mutexes[m].owner == nil else { return false }
        threads.mutexes[m].owner = threads.current
        return true
    }

    /// `m:unlock()`: hands the lock to the first thread waiting for it. Unlocking a lock this
    /// thread does not hold is ignored (NSLock logs it); returns false then.
    @discardableResult
    public func mutexUnlock(_ m: Int, at location: SourceLocation? = nil) -> Bool {
        guard threads.mutexes[m].owner == threads.current else {
            log("app", .info, "(\(location.map { "\($0): " } ?? "")unlock of a lock this thread does not hold: ignored, as NSLock logs and ignores it)")
            return false
        }
        if threads.mutexes[m].waiters.isEmpty {
            threads.mutexes[m].owner = nil
        } else {
            let next = threads.mutexes[m].waiters.removeFirst()
            threads.mutexes[m].owner = next
            if next != 0 { scheduleThread(next, .wake, at: now) }
        }
        return true
    }

    // MARK: - Work

    /// `work(seconds)` on the calling thread (amends 4.2): a background thread parks until then;
    /// the main thread blocks (the world goes on; main-thread work waits).
    public func work(_ duration: Millis, at location: SourceLocation?, canPark: Bool) -> WaitOutcome {
        guard duration > 0 else { return .proceed }
        let me = threads.current
        if me == 0 { return blockMain(for: duration, what: "in work", at: location) ? .proceed : .stopped }
        guard canPark else { return .cannotWait }
        guard threads.threads[me] != nil else { return .stopped }  // its process ended
        threads.threads[me]!.wait = .work
        threads.threads[me]!.waitingAt = location
        stats.busyTime += duration
        scheduleThread(me, .wake, at: now + duration)
        return .park
    }

    // MARK: - Running threads

    func newThread(queue: Int?) -> Int {
        threads.lastThread += 1
        let id = threads.lastThread
        threads.threads[id] = AppThread(id: id, queue: queue)
        return id
    }

    /// Schedules a thread's start or wake. Background threads run after the main thread's events
    /// of the same instant (the main-first rule of SPEC 12.2).
    func scheduleThread(_ id: Int, _ kind: ThreadBook.Kind, at time: Millis) {
        guard threads.threads[id] != nil else { return }
        queue.cancel(threads.threads[id]!.event)
        threads.threads[id]!.event = schedule(Event(.threads, kind, pid: pid, a: id), at: time, phase: .background)
        threads.threads[id]!.due = max(time, now)
    }

    /// Gives a queue that is free its next item: a block starts on its thread, or a `q:sync`
    /// caller gets the queue.
    func advanceQueue(_ q: Int) {
        guard threads.queues[q].owner == nil, !threads.queues[q].items.isEmpty else { return }
        switch threads.queues[q].items.removeFirst() {
        case .block(let fn):
            let t = threads.queues[q].thread ?? newThread(queue: q)
            threads.queues[q].thread = t
            threads.queues[q].owner = t
            threads.threads[t]!.block = fn
            scheduleThread(t, .start, at: now)
        case .sync(let waiter):
            threads.queues[q].owner = waiter
            if waiter != 0 { scheduleThread(waiter, .wake, at: now) }
        }
    }

    func runThread(_ id: Int, block: ThreadBlock) { runThread(id) { host.runThread(block.fn, block.invocation) } }
    func runThread(_ id: Int, parked: Int) { runThread(id) { host.resumeThread(parked) } }

    /// Runs a background thread until its block returns or it parks; a failure is the app's.
    private func runThread(_ id: Int, _ body: () -> ThreadRun) {
        let saved = threads.current
        threads.current = id
        var parkedAs: Int?
        let survived = runApp {
            switch body() {
            case .finished(let outcome): return outcome
            case .parked(let p): parkedAs = p; return .returned(truthy: false)
            }
        }
        threads.current = saved
        guard survived, threads.threads[id] != nil else {
            if let parkedAs { host.dropThread(parkedAs) }
            return
        }
        if let parkedAs {
            threads.threads[id]!.parked = parkedAs
            return
        }
        // The block returned: its queue goes on, a global thread ends.
        let launchOf = threads.threads[id]!.launchOf
        threads.threads[id]!.launchOf = 0
        if let q = threads.threads[id]!.queue, !isConcurrentQueue(q) {
            if threads.queues[q].owner == id { threads.queues[q].owner = nil }
            advanceQueue(q)
        } else {
            let q = threads.threads[id]!.queue
            threads.threads[id] = nil
            if let q { concurrentBlockReturned(q, thread: id) }  // a concurrent queue's thread ends too
        }
        if launchOf != 0 { bgLaunchHandlerReturned(serial: launchOf) }
    }

    /// The calling thread waits until `granted()`: a background thread parks (it is woken when
    /// granted), the main thread blocks. Reports a wait-for cycle as `deadlock`.
    func wait(_ what: ThreadWait, at location: SourceLocation?, canPark: Bool, granted: @escaping () -> Bool) -> WaitOutcome {
        let me = threads.current
        if me != 0 {
            guard threads.threads[me] != nil else { return .stopped }
            threads.threads[me]!.wait = what
            threads.threads[me]!.waitingAt = location
        } else {
            mainWait = (what, location)
        }
        reportDeadlock(from: me)
        if me != 0 { return .park }
        defer { mainWait = nil }
        let label: String
        switch what {
        case .lock(let m): label = "waiting for mutex #\(m + 1)"
        case .queue(let q): label = "waiting in sync for queue \"\(threads.queues[q].label)\""
        case .primitive(let p): label = describe(p)
        default: label = "waiting"
        }
        return blockMain(for: nil, until: granted, what: label, at: location) ? .proceed : .stopped
    }

    /// Whom thread `t` waits for (nil: nobody, or it is not waiting).
    private func waitsFor(_ t: Int) -> Int? {
        let what: ThreadWait
        if t == 0 { what = mainWait?.what ?? .none } else { what = threads.threads[t]?.wait ?? .none }
        switch what {
        case .lock(let m): return threads.mutexes[m].owner
        case .queue(let q): return threads.queues[q].owner
        default: return nil
        }
    }

    /// A set of threads that wait for each other forever is reported once (SPEC 12.2).
    private func reportDeadlock(from start: Int) {
        var path = [start]
        var t = start
        while let next = waitsFor(t) {
            if let i = path.firstIndex(of: next) {
                let cycle = Array(path[i...])
                guard !cycle.contains(where: { threads.deadlocked.contains($0) }) else { return }
                threads.deadlocked.formUnion(cycle)
                let lines = cycle.map { id -> String in
                    let at = id == 0 ? mainWait?.location : threads.threads[id]?.waitingAt
                    return "\(id == 0 ? "the main thread" : "thread #\(id)") at \(at.map { "\($0)" } ?? "?")"
                }
                let first = cycle.first == 0 ? mainWait?.location : threads.threads[cycle.first!]?.waitingAt
                violate(.deadlock, at: first,
                        "deadlock: \(lines.joined(separator: ", ")) wait for each other (locks or sync) and never continue; take locks in one order, and never sync onto the queue you are on")
                return
            }
            guard path.count < 10_000 else { return }
            path.append(next)
            t = next
        }
    }

    // MARK: - The main thread blocked

    /// The main thread waits (`work` for `duration`, or until `done()`): the world's events run at
    /// their own times, background threads run, and everything that needs the main thread waits
    /// in `mainWaiting`. Watchdog limits cut the wait short: the limit of the delegate callback
    /// running now, and the limit of the first transition waiting for the main thread
    /// (`mainThreadHang`). Suspension freezes the wait's clock. Returns false when the app did not
    /// survive (or the run ended with the main thread still blocked: the handler is stopped).
    func blockMain(for duration: Millis?, until done: (() -> Bool)? = nil, what: String, at location: SourceLocation?) -> Bool {
        let myPid = pid
        let outer = mainBlock
        mainBlock = MainBlock(location: location, what: what)
        let began = now
        defer {
            mainBlock = outer
            // For the HTML page's lane of the main thread's waits (only when a timeline is kept).
            if recordTimeline, outer == nil, now > began, mainBlockSpans.count < HTMLReport.maxEntries {
                mainBlockSpans.append((began, now, "\(what)\(location.map { " at \($0)" } ?? "")"))
            }
        }
        var remaining = duration
        var maskedLimits = 0  // limits the debugger masked: they no longer cut the wait short
        settle()  // waiting does not hold off suspension (except inside a callback with a limit)
        enum Stop { case done, overrun(DelegateMethod, Millis), waited(MainWaiter.Limit), blocked(String), end }
        while true {
            if let done, done() { return true }
            guard pid == myPid, isRunning || state == .suspended, fatal == nil, !stopRequested else { return false }
            let running = state != .suspended
            var stop: (time: Millis, what: Stop) = (endTime, .end)
            func consider(_ t: Millis, _ w: Stop) { if t < stop.time || (t == stop.time && { if case .end = stop.what { return true } else { return false } }()) { stop = (t, w) } }
            if running, let r = remaining { consider(now + r, .done) }
            if let cb = callbackLimit, maskedLimits & 1 == 0 { consider(cb.deadline, .overrun(cb.method, cb.allowed)) }
            // A transition's own call without a limit of its own blocks the main thread (third amendment).
            if callbackLimit == nil, let h = transitionHang, maskedLimits & 4 == 0 { consider(h.deadline, .blocked(h.call)) }
            if let first = mainWaiting.first, let limit = first.limit, maskedLimits & 2 == 0 {
                switch limit {
                case .hang: consider(first.due + budgets.mainThreadHang, .waited(limit))
                case .own(_, let allowed): consider(first.due + allowed, .waited(limit))
                }
            }
            if let next = queue.peekTime(), next < stop.time {
                guard stats.events < config.eventLimit else {
                    fatal = ScenarioError("\(location.map { "\($0)" } ?? file): the run passed its limit of \(config.eventLimit) events at \(Time.stamp(now)) while the main thread was blocked here; raise it with scenario{ limits = { events = N } } or --limit-events")
                    return false
                }
                // Only recurring events left and no duration: the run is idle (as `step` decides),
                // unless this wait ends by itself (`work` while the process runs).
                let idle = (remaining == nil || !running) && config.duration == nil && queue.liveNonRecurring == 0
                if !idle {
                    let ev = queue.pop()!
                    if running, remaining != nil { remaining! -= ev.time - now; stats.busyTime += ev.time - now }
                    if ev.time > now { now = ev.time }
                    stats.events += 1
                    dispatch(ev)
                    continue
                }
                stop = (now, .end)
            }
            if case .end = stop.what, done != nil || !running {
                // Nothing will free the main thread before the run ends: it stays blocked.
                if stop.time > now && config.duration != nil { now = min(stop.time, config.duration ?? stop.time) }
                stopRequested = true
                return false
            }
            if running, remaining != nil { stats.busyTime += stop.time - now; remaining! -= stop.time - now }
            if stop.time > now { now = stop.time }
            switch stop.what {
            case .done:
                return true
            case .end:
                stopRequested = true
                return false
            case .overrun(let method, let allowed):
                let who = observing.map { "an observer of \($0) computed past \(method.rawValue)'s" } ?? "\(method.rawValue) computed past its"
                if watchdogTerminate(.callbackOverrun, at: location, "\(who) \(Time.human(allowed)) limit (the main thread was \(what) here); the watchdog terminated the app") { return false }
                maskedLimits |= 1
            case .waited(.hang(let transition)):
                if watchdogTerminate(.mainThreadHang, at: location,
                                     "\(transition) waited \(Time.human(budgets.mainThreadHang)) for the main thread, which was \(what) here; the watchdog terminated the app: keep the main thread free (move work to a background queue)") { return false }
                maskedLimits |= 2
            case .blocked(let call):
                if watchdogTerminate(.mainThreadHang, at: location,
                                     "\(call) kept the main thread \(what) here past the \(Time.human(budgets.mainThreadHang)) a transition may take; the watchdog terminated the app: keep the main thread free in life-cycle calls (move the work to a background queue)") { return false }
                maskedLimits |= 4
            case .waited(.own(let method, let allowed)):
                if watchdogTerminate(.callbackOverrun, at: location,
                                     "\(method.rawValue) waited past its \(Time.human(allowed)) limit for the main thread, which was \(what) here; the watchdog terminated the app") { return false }
                maskedLimits |= 2
            }
        }
    }

    /// Work for the main thread that falls due while it is blocked waits until it is free (SPEC
    /// 12.2). `limit`: how long a transition may wait. Returns true when `body` was put off.
    func waitForMain(_ limit: MainWaiter.Limit?, note: String? = nil, _ body: @escaping () -> Void) -> Bool {
        guard mainBlock != nil || !mainWaiting.isEmpty else { return false }
        mainWaiting.append(MainWaiter(due: now, event: Event(.timeline, Timeline.Kind.action, a: timelineEvents.keep(body)), limit: limit))
        if let note, let b = mainBlock {
            log("app", .info, "(\(note) waits: the main thread is \(b.what)\(b.location.map { " at \($0)" } ?? ""))")
        }
        return true
    }

    /// Runs the first piece of main-thread work that waited, once the main thread is free.
    /// Returns false when none could run.
    func runMainWaiter() -> Bool {
        guard appDepth == 0, mainBlock == nil, !mainWaiting.isEmpty else { return false }
        let w = mainWaiting.removeFirst()
        if w.event.pid != 0 {
            guard Int(w.event.pid) == pid, state != .notRunning else { return true }  // its process is gone
            if state == .suspended { parked.append(QueuedEvent(time: w.due, event: w.event)); return true }
        }
        switch w.limit {
        case .own?: transitionStart = w.due
        case .hang?: transitionDue = w.due
        case nil: break
        }
        deliver(w.event, at: w.due, .due)
        transitionStart = nil
        transitionDue = nil
        return true
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension ThreadBook {
    func copyState(from o: ThreadBook) {
        threads = o.threads; queues = o.queues; mutexes = o.mutexes; lastThread = o.lastThread; current = o.current
        deadlocked = o.deadlocked; decidedInstant = o.decidedInstant
    }
}

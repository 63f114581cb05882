// Dispatch's other primitives (SPEC 18.7.3, on top of 12.2's threads and queues): groups
// (`dispatch.group()`: enter, leave, notify, wait), counting semaphores (`dispatch.semaphore(n)`:
// wait and signal, handed over in request order like mutexes), concurrent queues
// (`dispatch.queue(label, { concurrent = true })`: each block on a thread of its own, started in
// submission order; a barrier block runs alone; `q:sync` runs beside the queue's blocks unless a
// barrier is pending or running) and blocks submitted later (`q:asyncAfter`,
// `dispatch.asyncAfter`), which are events of the process like `after`: they do not hold off
// suspension and run when the process next runs code. Waits use Threads.swift's machinery: a
// background thread parks (its timeout is a wake of the thread, an event of the process), the main
// thread blocks in `blockMain` (its timeout is an event of this book that does not need the main
// thread). A wait in a group or a semaphore has no owner to follow, so it is never part of a
// reported `deadlock`; a wait nothing ends stays blocked until the run ends. A subsystem of World;
// Threads.swift calls in where a queue is concurrent.

/// Where a block goes: the main queue, a new background thread, or a queue (`dispatch.queue`).
public enum DispatchTarget: Equatable, Sendable {
    case main, global
    case queue(Int)
}

/// What a thread waits for in `g:wait` or `s:wait` (ThreadWait.primitive).
public enum PrimitiveWait: Equatable, Sendable {
    case group(Int), semaphore(Int)
}

/// A `dispatch.group()`.
struct DispatchGroupState {
    /// Enters not yet balanced by a leave.
    var count = 0
    /// Threads in `g:wait` (ThreadRef.main: the main thread), in request order.
    var waiters: [ThreadRef] = []
    /// `g:notify` blocks waiting for the count to reach zero, in order, with their queues.
    var notify: [(fn: ScriptRef, target: DispatchTarget)] = []
}

/// A `dispatch.semaphore(value)`.
struct SemaphoreState {
    let initial: Int
    var value: Int
    /// Threads in `s:wait` (ThreadRef.main: the main thread), in request order.
    var waiters: [ThreadRef] = []
}

/// A concurrent queue's state (its label and number are ThreadBook's, like a serial queue's).
struct ConcurrentQueue {
    enum Item { case block(ThreadBlock, barrier: Bool), sync(ThreadRef) }
    /// Blocks running on it and callers inside `q:sync` (a barrier aside).
    var running = 0
    /// The thread running a barrier block.
    var barrier: ThreadRef?
    /// What waits for a barrier: the barrier itself and everything submitted after it.
    var items: [Item] = []
}

/// A block `asyncAfter` submits later: its event and where it goes (nil: a new background thread).
struct DelayedBlock {
    let event: EventID
    let due: Millis
    let queue: Int?
}

final class DispatchBook: Subsystem {
    enum Kind: UInt8 { case delayed, timeout }
    var groups: [DispatchGroupState] = []
    var semaphores: [SemaphoreState] = []
    /// Concurrent queues by queue number.
    var concurrent: [Int: ConcurrentQueue] = [:]
    /// Blocks submitted later, by the reference of their function.
    var delayed: [Int: DelayedBlock] = [:]
    /// The main thread's timed waits: the number of the last, the one waiting now and when its
    /// time passes, and the last whose time passed.
    var mainWaits = 0
    var mainDeadline: (serial: Int, due: Millis)?
    var mainTimedOut = 0

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        switch event.kind(Kind.self) {
        case .delayed:
            guard let d = delayed.removeValue(forKey: event.a) else { return }
            world.submit(ScriptRef(id: event.a), to: d.queue.map(DispatchTarget.queue) ?? .global)
        case .timeout:
            mainTimedOut = event.a
        }
    }

    /// Submitting a block to a background queue and ending a wait's time need no main thread.
    func needsMainThread(_ event: Event) -> Bool { false }

    /// A main thread that was suspended in a timed wait whose time passed meanwhile stops waiting
    /// as the process runs again (its timeout event is parked until after the transition that
    /// resumes it, which itself waits for the main thread).
    func appResumed(_ world: World) {
        if let d = mainDeadline, d.due <= world.now { mainTimedOut = d.serial }
    }

    /// Termination ends every thread: groups and semaphores are as made, concurrent queues empty,
    /// blocks submitted for later are dropped.
    func processEnding(_ pid: Int, in world: World) {
        for i in groups.indices {
            for n in groups[i].notify { world.host.release(n.fn) }
            groups[i] = DispatchGroupState()
        }
        for i in semaphores.indices { semaphores[i] = SemaphoreState(initial: semaphores[i].initial, value: semaphores[i].initial) }
        for q in concurrent.keys.sorted() {
            for case .block(let b, _) in concurrent[q]!.items where b.release { world.host.release(b.fn) }
            concurrent[q] = ConcurrentQueue()
        }
        for ref in delayed.keys.sorted() {
            world.queue.cancel(delayed[ref]!.event)
            world.host.release(ScriptRef(id: ref))
        }
        delayed.removeAll()
    }

    func pendingLines(in world: World) -> [String] {
        var out: [String] = []
        for (i, g) in groups.enumerated() where g.count > 0 {
            out.append("group      #\(i + 1) entered \(g.count) time\(g.count == 1 ? "" : "s") more than left\(g.notify.isEmpty ? "" : ", \(g.notify.count) notify block\(g.notify.count == 1 ? "" : "s") waiting")")
        }
        for (ref, d) in delayed.sorted(by: { ($0.value.due, $0.value.event.seq) < ($1.value.due, $1.value.event.seq) }) {
            let target = d.queue.map { "queue \"\(world.threads.queues[$0].label)\"" } ?? "a background thread"
            out.append("asyncAfter block for \(target) at \(Time.stamp(d.due))\(world.host.location(of: ScriptRef(id: ref)).map { " (\($0))" } ?? "")")
        }
        return out
    }

    /// Threads that wait in a group or a semaphore, and notify blocks whose group never emptied.
    func pendingAtEnd(in world: World) -> (parts: [String], location: SourceLocation?) {
        let waiting = world.threads.primitiveWaiting
        let first = waiting > 0 ? world.threads.firstWaiting { if case .primitive = $0 { return true } else { return false } } : nil
        let notify = groups.flatMap(\.notify)
        var parts: [String] = []
        if waiting > 0 { parts.append("\(waiting) background thread\(waiting == 1 ? "" : "s") waiting in a group or semaphore") }
        if !notify.isEmpty { parts.append("\(notify.count) group notify block\(notify.count == 1 ? "" : "s") never run (more enters than leaves)") }
        return (parts, first?.waitingAt ?? notify.first.flatMap { world.host.location(of: $0.fn) })
    }

    func location(of event: Event, in world: World) -> SourceLocation? {
        event.kind(Kind.self) == .delayed ? world.host.location(of: ScriptRef(id: event.a)) : nil
    }
}

extension World {
    // MARK: - Submitting

    /// Submits `fn` to `target`: the main queue (`dispatch.main`), a new background thread
    /// (`dispatch.global`) or a queue (`q:async`).
    func submit(_ fn: ScriptRef, to target: DispatchTarget) {
        switch target {
        case .main: dispatchMain(fn)
        case .global: dispatchGlobal(fn)
        case .queue(let q): queueAsync(q, fn)
        }
    }

    /// `q:asyncAfter(seconds, fn)` (`queue` nil: `dispatch.asyncAfter`, a new background thread):
    /// submitted `delay` from now; a delay of 0 submits at once, as `q:async` does.
    public func asyncAfter(_ delay: Millis, _ fn: ScriptRef, on queue: Int?) {
        guard delay > 0 else { return submit(fn, to: queue.map(DispatchTarget.queue) ?? .global) }
        let event = schedule(Event(.dispatch, DispatchBook.Kind.delayed, pid: pid, a: fn.id, b: queue ?? -1), at: now + delay)
        dispatchBook.delayed[fn.id] = DelayedBlock(event: event, due: now + delay, queue: queue)
    }

    // MARK: - Concurrent queues

    /// `dispatch.queue(label, { concurrent = true })`: returns the queue's number (serial queues
    /// share the numbering).
    public func makeQueue(label: String, concurrent: Bool) -> Int {
        let q = makeQueue(label: label)
        if concurrent { dispatchBook.concurrent[q] = ConcurrentQueue() }
        return q
    }

    public func isConcurrentQueue(_ q: Int) -> Bool { dispatchBook.concurrent[q] != nil }

    /// `q:async(fn, { barrier = true })`: on a concurrent queue the block runs alone; on a serial
    /// queue every block already does.
    public func queueAsync(_ q: Int, _ fn: ScriptRef, barrier: Bool) {
        guard barrier, isConcurrentQueue(q) else { return queueAsync(q, fn) }
        concurrentAsync(q, ThreadBlock(fn: fn), barrier: true)
    }

    /// A block for a concurrent queue: it starts now on a thread of its own unless a barrier
    /// runs or waits before it.
    func concurrentAsync(_ q: Int, _ block: ThreadBlock, barrier: Bool) {
        dispatchBook.concurrent[q]!.items.append(.block(block, barrier: barrier))
        advanceConcurrent(q)
    }

    /// Starts what a concurrent queue can run now, in submission order: blocks and `q:sync`
    /// callers up to the first barrier, which waits until nothing runs and then runs alone.
    func advanceConcurrent(_ q: Int) {
        while let first = dispatchBook.concurrent[q]!.items.first, dispatchBook.concurrent[q]!.barrier == nil {
            switch first {
            case .block(let block, barrier: true):
                guard dispatchBook.concurrent[q]!.running == 0 else { return }
                dispatchBook.concurrent[q]!.items.removeFirst()
                let t = startThread(queue: q, block)
                dispatchBook.concurrent[q]!.barrier = t
                threads.queues[q].owner = t  // a q:sync from inside the barrier is a deadlock (SPEC 12.2)
            case .block(let block, barrier: false):
                dispatchBook.concurrent[q]!.items.removeFirst()
                dispatchBook.concurrent[q]!.running += 1
                startThread(queue: q, block)
            case .sync(let waiter):
                dispatchBook.concurrent[q]!.items.removeFirst()
                dispatchBook.concurrent[q]!.running += 1
                if waiter.id != 0 { scheduleThread(waiter, .wake, at: now) }
            }
        }
    }

    /// A new background thread that starts `block` now: a concurrent queue's (`queue`), or one
    /// of its own (nil, as `dispatch.global`'s).
    @discardableResult
    func startThread(queue q: Int?, _ block: ThreadBlock) -> ThreadRef {
        let t = newThread(queue: q)
        threads.slots[Int(t.slot)].block = block
        scheduleThread(t, .start, at: now)
        return t
    }

    /// A block of concurrent queue `q` returned on thread `t` (which has ended).
    func concurrentBlockReturned(_ q: Int, thread t: ThreadRef) {
        if dispatchBook.concurrent[q]!.barrier == t {
            dispatchBook.concurrent[q]!.barrier = nil
            threads.queues[q].owner = nil
        } else {
            dispatchBook.concurrent[q]!.running -= 1
        }
        advanceConcurrent(q)
    }

    /// `q:sync(fn)` on a concurrent queue begins: the caller runs `fn` at once beside the queue's
    /// blocks, or waits while a barrier is pending or running.
    func concurrentSyncBegin(_ q: Int, canPark: Bool, at location: SourceLocation?) -> WaitOutcome {
        let me = self.me
        if dispatchBook.concurrent[q]!.barrier == nil && dispatchBook.concurrent[q]!.items.isEmpty {
            dispatchBook.concurrent[q]!.running += 1
            return .proceed
        }
        if me.id != 0 && !canPark { return .cannotWait }
        dispatchBook.concurrent[q]!.items.append(.sync(me))
        return wait(.queue(q), at: location, canPark: canPark) { [unowned self] in
            !dispatchBook.concurrent[q]!.items.contains { if case .sync(me) = $0 { return true } else { return false } }
        }
    }

    /// `q:sync(fn)` on a concurrent queue ends.
    func concurrentSyncEnd(_ q: Int) {
        guard dispatchBook.concurrent[q]!.running > 0 else { return }
        dispatchBook.concurrent[q]!.running -= 1
        advanceConcurrent(q)
    }

    // MARK: - Groups

    /// `dispatch.group()`: returns the group's number.
    public func makeGroup() -> Int {
        dispatchBook.groups.append(DispatchGroupState())
        return dispatchBook.groups.count - 1
    }

    public func isGroup(_ g: Int) -> Bool { dispatchBook.groups.indices.contains(g) }

    /// `g:enter()`.
    public func groupEnter(_ g: Int) { dispatchBook.groups[g].count += 1 }

    /// `g:leave()`: false when no enter is left to balance (Dispatch traps: the caller crashes
    /// the app). The last leave submits the notify blocks, then ends the waits.
    public func groupLeave(_ g: Int) -> Bool {
        guard dispatchBook.groups[g].count > 0 else { return false }
        dispatchBook.groups[g].count -= 1
        guard dispatchBook.groups[g].count == 0 else { return true }
        let notify = dispatchBook.groups[g].notify
        let waiters = dispatchBook.groups[g].waiters
        dispatchBook.groups[g].notify = []
        dispatchBook.groups[g].waiters = []
        for n in notify { submit(n.fn, to: n.target) }
        for w in waiters where w.id != 0 { scheduleThread(w, .wake, at: now) }
        return true
    }

    /// `g:notify(fn, queue)`: `fn` goes to `target` once the count is zero (now, if it is).
    public func groupNotify(_ g: Int, _ fn: ScriptRef, on target: DispatchTarget) {
        if dispatchBook.groups[g].count == 0 { return submit(fn, to: target) }
        dispatchBook.groups[g].notify.append((fn, target))
    }

    // MARK: - Semaphores

    /// `dispatch.semaphore(value)` (value ≥ 0): returns the semaphore's number.
    public func makeSemaphore(_ value: Int) -> Int {
        dispatchBook.semaphores.append(SemaphoreState(initial: value, value: value))
        return dispatchBook.semaphores.count - 1
    }

    public func isSemaphore(_ s: Int) -> Bool { dispatchBook.semaphores.indices.contains(s) }

    /// `s:signal()`: hands the count to the first waiting thread (true), or keeps it (false).
    public func semaphoreSignal(_ s: Int) -> Bool {
        guard !dispatchBook.semaphores[s].waiters.isEmpty else {
            dispatchBook.semaphores[s].value += 1
            return false
        }
        let next = dispatchBook.semaphores[s].waiters.removeFirst()
        if next.id != 0 { scheduleThread(next, .wake, at: now) }
        return true
    }

    // MARK: - Waiting in a group or a semaphore

    /// `g:wait(seconds)` / `s:wait(seconds)` begins (`timeout` nil: forever). `.proceed` with the
    /// result (true: the group was empty / the semaphore was taken; false: the time passed), or
    /// `.park` for a background thread, which asks `waitEnded` once woken.
    public func wait(in w: PrimitiveWait, timeout: Millis?, canPark: Bool, at location: SourceLocation?) -> (WaitOutcome, Bool) {
        switch w {
        case .group(let g) where dispatchBook.groups[g].count == 0:
            return (.proceed, true)
        case .semaphore(let s) where dispatchBook.semaphores[s].value > 0:
            dispatchBook.semaphores[s].value -= 1
            return (.proceed, true)
        default:
            break
        }
        if timeout == 0 { return (.proceed, false) }
        let me = self.me
        if me.id != 0 && !canPark { return (.cannotWait, false) }
        setWaiting(me, w, true)
        if me.id != 0 {
            let outcome = wait(.primitive(w), at: location, canPark: canPark) { false }
            if outcome == .park, let timeout { scheduleThread(me, .wake, at: now + timeout) }
            if outcome != .park { setWaiting(me, w, false) }
            return (outcome, false)
        }
        dispatchBook.mainWaits += 1
        let serial = dispatchBook.mainWaits
        let timer = timeout.map { schedule(Event(.dispatch, DispatchBook.Kind.timeout, pid: pid, a: serial), at: now + $0) }
        let outer = dispatchBook.mainDeadline
        if let timeout { dispatchBook.mainDeadline = (serial, now + timeout) }
        let outcome = wait(.primitive(w), at: location, canPark: canPark) { [unowned self] in
            !isWaiting(.main, w) || dispatchBook.mainTimedOut == serial
        }
        dispatchBook.mainDeadline = outer
        queue.cancel(timer)
        return (outcome, waitEnded(w))
    }

    /// After the calling thread's wait in `w` was woken: true when it was granted, false when its
    /// time passed (it then stops waiting).
    public func waitEnded(_ w: PrimitiveWait) -> Bool {
        let me = self.me
        guard isWaiting(me, w) else { return true }
        setWaiting(me, w, false)
        return false
    }

    private func isWaiting(_ thread: ThreadRef, _ w: PrimitiveWait) -> Bool {
        switch w {
        case .group(let g): return dispatchBook.groups[g].waiters.contains(thread)
        case .semaphore(let s): return dispatchBook.semaphores[s].waiters.contains(thread)
        }
    }

    private func setWaiting(_ thread: ThreadRef, _ w: PrimitiveWait, _ waiting: Bool) {
        switch w {
        case .group(let g):
            if waiting { dispatchBook.groups[g].waiters.append(thread) } else { dispatchBook.groups[g].waiters.removeAll { $0 == thread } }
        case .semaphore(let s):
            if waiting { dispatchBook.semaphores[s].waiters.append(thread) } else { dispatchBook.semaphores[s].waiters.removeAll { $0 == thread } }
        }
    }

    /// What a thread waiting in a group or semaphore does, for `.pending` and watchdog messages.
    func describe(_ w: PrimitiveWait) -> String {
        switch w {
        case .group(let g): return "waiting for group #\(g + 1)"
        case .semaphore(let s): return "waiting for semaphore #\(s + 1)"
        }
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension DispatchBook {
    func copyState(from o: DispatchBook) {
        groups = o.groups; semaphores = o.semaphores; concurrent = o.concurrent; delayed = o.delayed
        mainWaits = o.mainWaits; mainDeadline = o.mainDeadline; mainTimedOut = o.mainTimedOut
    }
}

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
//
// Every structure here grows with what the scenario submits, so each operation is near-constant
// (issue 29): threads live in reusable slots that their events name (no hashing on an event's
// path), queues and lock waiters are deques, the threads runnable at each instant are counted, a
// deadlock walk marks the threads it visits, and the book's memory counts against the cap.

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

/// A block for a background thread: a function, its arguments, whether the thread releases
/// the function once it ran (a registered BGTask launch handler is kept), and whether its
/// arguments' references are held for it (a URL session's delegate call: `World.letGo`).
struct ThreadBlock {
    let fn: ScriptRef
    var invocation = Invocation.none
    var release = true
    var holds = false
    /// The BGTask (its grant serial) whose launch handler this block is (0: none): what reaches
    /// the task waits until the block returns (SPEC 13).
    var launchOf = 0
}

/// A thread as queues and locks name it: its number (never reused) and its slot in the book (the
/// main thread: 0 and -1). A slot is reused once its thread ended, so a lookup checks the number.
struct ThreadRef: Equatable {
    let id: Int
    let slot: Int32
    static let main = ThreadRef(id: 0, slot: -1)
}

/// A background thread of the process (the main thread is 0 and has no record).
struct AppThread {
    /// 0: the slot is free.
    var id: Int
    /// The serial queue it serves (nil: the thread of one `dispatch.global` block).
    var queue: Int?
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
    /// The last deadlock walk that visited it (ThreadBook.walks).
    var walk = 0
    /// The BGTask whose launch handler it runs now (0: none).
    var launchOf = 0
}

/// First-in-first-out items with a head index: taking the first is O(1), and the taken part is
/// dropped once it is most of the array.
struct Deque<Element> {
    private(set) var items: [Element] = []
    private(set) var head = 0
    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }
    /// The pending items, first to last.
    var pending: ArraySlice<Element> { items[head...] }
    mutating func append(_ e: Element) { items.append(e) }
    mutating func removeFirst() -> Element {
        let e = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: items.count <= 1024)
            head = 0
        } else if head >= 1024 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return e
    }
    mutating func removeAll() { items.removeAll(); head = 0 }
}

/// A min-heap of values in an array (copyable, so a World's copy is plain).
struct ArrayHeap<Element: Comparable> {
    private(set) var items: [Element] = []
    var min: Element? { items.first }
    var count: Int { items.count }
    mutating func insert(_ e: Element) {
        items.append(e)
        var i = items.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            guard e < items[p] else { break }
            items[i] = items[p]
            i = p
        }
        items[i] = e
    }
    mutating func popMin() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        var i = 0
        let n = items.count
        while true {
            let l = 2 * i + 1
            guard l < n else { break }
            let c = l + 1 < n && items[l + 1] < items[l] ? l + 1 : l
            guard items[c] < last else { break }
            items[i] = items[c]
            i = c
        }
        items[i] = last
    }
    /// A heap of `elements` (any order).
    mutating func rebuild(_ elements: [Element]) {
        items.removeAll(keepingCapacity: true)
        for e in elements { insert(e) }
    }
}

/// A serial queue (`dispatch.queue(label)`): its waiting items and who holds it now.
struct SerialQueue {
    enum Item { case block(ThreadBlock), sync(ThreadRef) }
    let label: String
    var thread: ThreadRef?
    var items = Deque<Item>()
    /// The thread running a block of it or inside `q:sync` (the main thread: ThreadRef.main).
    var owner: ThreadRef?
}

/// A `dispatch.lock()` mutex.
struct Mutex {
    var owner: ThreadRef?
    var waiters = Deque<ThreadRef>()
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
    /// Background threads in slots (a free slot has id 0; `free` lists them). A thread's events
    /// carry its number in `a` and its slot in `b`.
    @exclusivity(unchecked) var slots: [AppThread] = []
    var free: [Int32] = []
    /// The slot of each live thread by number (lookups only; ordered walks sort the numbers).
    var slotOf: [Int: Int32] = [:]
    var queues: [SerialQueue] = []
    var mutexes: [Mutex] = []
    var lastThread = 0
    /// The thread running app code now (0: the main thread) and its slot.
    @exclusivity(unchecked) var current = 0
    var currentSlot: Int32 = -1
    /// Threads already reported in a deadlock.
    var deadlocked: Set<Int> = []
    /// Deadlock walks made (a walk marks the threads it visits with its number).
    var walks = 0

    /// The instant whose order of runnable background blocks was decided (SPEC 12.4).
    var decidedInstant: Millis = -1
    /// How many threads have their start or wake due at each time, and those times, earliest
    /// first (a heap that may also hold times whose count fell to zero; they leave at the top).
    var dueCount: [Millis: Int] = [:]
    var dueTimes = ArrayHeap<Millis>()
    /// Threads in `work` (what suspension freezes), and the frozen ones in number order.
    var working: Set<Int> = []
    var frozen: [Int] = []
    /// Threads waiting on a lock, a queue or work, and the numbers of those that began to wait,
    /// lowest first (with numbers no longer waiting, which leave at the top).
    var waitingCount = 0
    var waitingIDs = ArrayHeap<Int>()
    /// Of those, the threads waiting in a group or a semaphore (DispatchPrimitives.swift reports them).
    var primitiveWaiting = 0

    /// Host memory a thread's records take: its slot, its number's entry, its share of the
    /// structures that grow with it (measured: RSS of a million threads, issue 29).
    static let bytesPerThread = MemoryLayout<AppThread>.stride + 96
    /// A queue item or a lock waiter.
    static let bytesPerItem = MemoryLayout<SerialQueue.Item>.stride + 16

    /// Host-side memory of the threads, queues and locks (counted against the cap, World.hostBytes).
    var hostBytes: Int {
        slots.count * ThreadBook.bytesPerThread + queuedItems * ThreadBook.bytesPerItem
    }
    /// Items waiting in queues and threads waiting on locks.
    @exclusivity(unchecked) var queuedItems = 0
    /// What one step of host work over the threads costs the run (a deadlock walk's step, a
    /// thread frozen or woken with its process): about what four VM instructions take.
    static let unitsPerStep = 4

    // MARK: - Slots

    /// The live thread of number `id` (nil: it ended).
    func ref(_ id: Int) -> ThreadRef? { id == 0 ? .main : slotOf[id].map { ThreadRef(id: id, slot: $0) } }

    /// Whether `r` names a live background thread.
    @inline(__always)
    func isLive(_ r: ThreadRef) -> Bool { r.slot >= 0 && Int(r.slot) < slots.count && slots[Int(r.slot)].id == r.id && r.id != 0 }

    func add(queue: Int?, id: Int) -> ThreadRef {
        let t = AppThread(id: id, queue: queue)
        let s: Int32
        if let f = free.popLast() { s = f; slots[Int(s)] = t } else { s = Int32(slots.count); slots.append(t) }
        slotOf[id] = s
        return ThreadRef(id: id, slot: s)
    }

    func remove(_ r: ThreadRef) {
        let s = Int(r.slot)
        setDue(s, nil)
        setWait(s, .none)
        slots[s] = AppThread(id: 0)
        slotOf[r.id] = nil
        free.append(r.slot)
    }

    /// Sets when a thread's start or wake falls due, keeping the counts per time.
    func setDue(_ s: Int, _ due: Millis?) {
        let old = slots[s].due
        guard old != due else { return }
        slots[s].due = due
        if let old {
            let n = dueCount[old]! - 1
            if n == 0 {
                dueCount[old] = nil
                dropStaleDueTimes()
            } else {
                dueCount[old] = n
            }
        }
        if let due {
            let n = (dueCount[due] ?? 0) + 1
            dueCount[due] = n
            if n == 1 {
                if dueTimes.count > 2 * dueCount.count + 16 { dueTimes.rebuild(dueCount.keys.sorted()) } else { dueTimes.insert(due) }
            }
        }
    }

    private func dropStaleDueTimes() {
        while let t = dueTimes.min, dueCount[t] == nil { dueTimes.popMin() }
    }

    /// Sets what a thread waits for, keeping the waiting count, the working set and the order.
    func setWait(_ s: Int, _ w: ThreadWait) {
        let old = slots[s].wait
        guard old != w else { return }
        slots[s].wait = w
        let id = slots[s].id
        if old == .work { working.remove(id) }
        if w == .work { working.insert(id) }
        if case .primitive = old { primitiveWaiting -= 1 }
        if case .primitive = w { primitiveWaiting += 1 }
        if old == .none {
            waitingCount += 1
            if waitingIDs.count > 2 * waitingCount + 16 {
                // Mostly numbers no longer waiting: keep those still waiting, once each (the work
                // is proportional to the heap, which is at most about twice the waiting threads).
                var ids = waitingIDs.items.filter { slotOf[$0].map { slots[Int($0)].wait != .none } ?? false } + [id]
                ids.sort()
                waitingIDs.rebuild(ids.enumerated().filter { $0.offset == 0 || ids[$0.offset - 1] != $0.element }.map(\.element))
            } else {
                waitingIDs.insert(id)
            }
        } else if w == .none {
            waitingCount -= 1
        }
    }

    /// The lowest-numbered thread that waits on a lock, a queue or work (for `pending-at-end`):
    /// from the heap, or, when some wait in groups or semaphores, by one ordered walk.
    private func firstWaiting() -> AppThread? {
        if primitiveWaiting > 0 { return firstWaiting { if case .primitive = $0 { return false } else { return $0 != .none } } }
        while let id = waitingIDs.min {
            if let s = slotOf[id], slots[Int(s)].wait != .none { return slots[Int(s)] }
            waitingIDs.popMin()
        }
        return nil
    }

    /// The lowest-numbered thread whose wait is one `matching` (by one ordered walk: rare moments).
    func firstWaiting(_ matching: (ThreadWait) -> Bool) -> AppThread? {
        ordered.lazy.map { self.slots[Int($0)] }.first { matching($0.wait) }
    }

    /// Live threads in number order (for rare, whole-book moments).
    private var ordered: [Int32] { slotOf.keys.sorted().map { slotOf[$0]! } }

    // MARK: - Subsystem

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        let s = event.b
        guard s < slots.count, slots[s].id == event.a else { return }  // its thread ended
        let me = ThreadRef(id: event.a, slot: Int32(s))
        if delivery == .due && decidedInstant != time {
            let others = (dueCount[time] ?? 0) - (slots[s].due == time ? 1 : 0)
            if others > 0 {
                decidedInstant = time
                // SPEC 12.4: blocks of different queues runnable at one instant run in submission
                // order, or (the other order) in reverse.
                if world.chooseOther("\(others + 1) background blocks runnable at this instant run in reverse order") {
                    world.host.charge(hostWork: slots.count * ThreadBook.unitsPerStep)
                    let order = slots.indices.filter { slots[$0].id != 0 && slots[$0].id != me.id && slots[$0].due == time && slots[$0].event != nil }
                        .sorted { slots[$0].event!.seq < slots[$1].event!.seq }
                        .map { ThreadRef(id: slots[$0].id, slot: Int32($0)) }
                    for r in order.reversed() + [me] {
                        let kind: Kind = slots[Int(r.slot)].parked != nil ? .wake : .start
                        world.scheduleThread(r, kind, at: time)
                    }
                    return
                }
            }
        }
        slots[s].event = nil
        setDue(s, nil)
        switch event.kind(Kind.self) {
        case .start:
            guard let block = slots[s].block else { return }
            slots[s].block = nil
            slots[s].launchOf = block.launchOf
            world.runThread(me, block: block)
            if block.release { world.host.release(block.fn) }
            if block.holds { world.letGo(block.invocation) }
        case .wake:
            guard let parked = slots[s].parked else { return }
            slots[s].parked = nil
            setWait(s, .none)
            slots[s].waitingAt = nil
            world.runThread(me, parked: parked)
        }
        if delivery == .due { world.settle() }
    }

    /// Background threads run while the main thread is blocked.
    func needsMainThread(_ event: Event) -> Bool { false }

    /// Blocks runnable now hold off suspension (SPEC 12.2); waits for later, locks or work do not.
    func keepsAppRunning(_ world: World) -> Bool {
        dropStaleDueTimes()
        return dueTimes.min.map { $0 <= world.now } ?? false
    }

    /// Suspension freezes threads in `work` where they stand.
    func appSuspending(_ world: World) {
        world.host.charge(hostWork: working.count * ThreadBook.unitsPerStep)
        for id in working.sorted() {
            let s = Int(slotOf[id]!)
            guard let due = slots[s].due else { continue }
            world.queue.cancel(slots[s].event)
            slots[s].frozen = max(0, due - world.now)
            slots[s].event = nil
            setDue(s, nil)
            frozen.append(id)
        }
    }

    /// They continue when the process runs code again, with the rest of their work from then.
    func appResumed(_ world: World) {
        let ids = frozen
        frozen.removeAll()
        world.host.charge(hostWork: ids.count * ThreadBook.unitsPerStep)
        for id in ids {
            guard let r = ref(id), let left = slots[Int(r.slot)].frozen else { continue }
            slots[Int(r.slot)].frozen = nil
            world.scheduleThread(r, .wake, at: world.now + left)
        }
    }

    /// Termination ends every thread; queues and locks forget what the process held.
    func processEnding(_ pid: Int, in world: World) {
        for s in ordered {
            let t = slots[Int(s)]
            world.queue.cancel(t.event)
            if let p = t.parked { world.host.dropThread(p) }
            if let b = t.block, b.release { world.host.release(b.fn) }
        }
        slots.removeAll()
        free.removeAll()
        slotOf.removeAll()
        dueCount.removeAll()
        dueTimes = ArrayHeap()
        working.removeAll()
        frozen.removeAll()
        waitingCount = 0
        waitingIDs = ArrayHeap()
        primitiveWaiting = 0
        for i in queues.indices {
            for case .block(let b) in queues[i].items.pending where b.release { world.host.release(b.fn) }
            queues[i].items.removeAll()
            queues[i].owner = nil
            queues[i].thread = nil
        }
        for i in mutexes.indices { mutexes[i] = Mutex() }
        queuedItems = 0
        deadlocked.removeAll()
        current = 0
        currentSlot = -1
    }

    func pendingLines(in world: World) -> [String] {
        var out: [String] = []
        if let b = world.mainBlock {
            out.append("thread     main \(b.what)\(b.location.map { " at \($0)" } ?? "")")
        }
        for s in ordered {
            let t = slots[Int(s)]
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
            out.append("thread     #\(t.id) (\(name)) \(what)\(t.waitingAt.map { " at \($0)" } ?? "")")
        }
        return out
    }

    func pendingAtEnd(in world: World) -> (parts: [String], location: SourceLocation?) {
        var parts: [String] = []
        let waiting = waitingCount - primitiveWaiting
        if waiting > 0 { parts.append("\(waiting) background thread\(waiting == 1 ? "" : "s") waiting (on locks or work)") }
        if world.mainBlock != nil { parts.append("the main thread blocked") }
        return (parts, world.mainBlock?.location ?? (waiting > 0 ? firstWaiting()?.waitingAt : nil))
    }

    /// A thread event's scenario line: where its block was submitted, or where it waits.
    func location(of event: Event, in world: World) -> SourceLocation? {
        let s = event.b
        guard s < slots.count, slots[s].id == event.a else { return nil }
        if let b = slots[s].block { return world.host.location(of: b.fn) }
        return slots[s].waitingAt
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
        let r = newThread(queue: nil)
        threads.slots[Int(r.slot)].block = ThreadBlock(fn: fn)
        scheduleThread(r, .start, at: now)
    }

    /// `dispatch.queue(label)`: a new serial queue; returns its number.
    public func makeQueue(label: String) -> Int {
        threads.queues.append(SerialQueue(label: label))
        return threads.queues.count - 1
    }

    /// `q:async(fn)` (with arguments, for the system's own queues; `holds`: see ThreadBlock).
    public func queueAsync(_ q: Int, _ fn: ScriptRef, _ invocation: Invocation = .none, release: Bool = true, holds: Bool = false, launchOf: Int = 0) {
        let block = ThreadBlock(fn: fn, invocation: invocation, release: release, holds: holds, launchOf: launchOf)
        if isConcurrentQueue(q) { return concurrentAsync(q, block, barrier: false) }
        threads.queues[q].items.append(.block(block))
        threads.queuedItems += 1
        advanceQueue(q)
    }

    /// The thread running app code now, as queues and locks name it.
    var me: ThreadRef { ThreadRef(id: threads.current, slot: threads.currentSlot) }

    /// `q:sync(fn)` begins: the caller waits until the queue is its own, then runs `fn` itself.
    public func queueSyncBegin(_ q: Int, canPark: Bool, at location: SourceLocation?) -> WaitOutcome {
        if isConcurrentQueue(q) { return concurrentSyncBegin(q, canPark: canPark, at: location) }
        let me = self.me
        if threads.queues[q].owner == nil && threads.queues[q].items.isEmpty {
            threads.queues[q].owner = me
            return .proceed
        }
        if me.id != 0 && !canPark { return .cannotWait }
        threads.queues[q].items.append(.sync(me))
        threads.queuedItems += 1
        return wait(.queue(q), at: location, canPark: canPark) { [unowned self] in threads.queues[q].owner == me }
    }

    /// `q:sync(fn)` ends: the queue goes on with its next item.
    public func queueSyncEnd(_ q: Int) {
        if isConcurrentQueue(q) { return concurrentSyncEnd(q) }
        guard threads.queues[q].owner?.id == threads.current else { return }
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
        let me = self.me
        if threads.mutexes[m].owner == nil {
            threads.mutexes[m].owner = me
            return .proceed
        }
        if me.id != 0 && !canPark { return .cannotWait }
        threads.mutexes[m].waiters.append(me)
        threads.queuedItems += 1
        return wait(.lock(m), at: location, canPark: canPark) { [unowned self] in threads.mutexes[m].owner == me }
    }

    /// `m:tryLock()`.
    public func mutexTryLock(_ m: Int) -> Bool {
        guard threads.mutexes[m].owner == nil else { return false }
        threads.mutexes[m].owner = me
        return true
    }

    /// `m:unlock()`: hands the lock to the first thread waiting for it. Unlocking a lock this
    /// thread does not hold is ignored (NSLock logs it); returns false then.
    @discardableResult
    public func mutexUnlock(_ m: Int, at location: SourceLocation? = nil) -> Bool {
        guard threads.mutexes[m].owner?.id == threads.current else {
            log("app", .info, "(\(location.map { "\($0): " } ?? "")unlock of a lock this thread does not hold: ignored, as NSLock logs and ignores it)")
            return false
        }
        if threads.mutexes[m].waiters.isEmpty {
            threads.mutexes[m].owner = nil
        } else {
            let next = threads.mutexes[m].waiters.removeFirst()
            threads.queuedItems -= 1
            threads.mutexes[m].owner = next
            if next.id != 0 { scheduleThread(next, .wake, at: now) }
        }
        return true
    }

    // MARK: - Work

    /// `work(seconds)` on the calling thread (amends 4.2): a background thread parks until then;
    /// the main thread blocks (the world goes on; main-thread work waits).
    public func work(_ duration: Millis, at location: SourceLocation?, canPark: Bool) -> WaitOutcome {
        guard duration > 0 else { return .proceed }
        let me = self.me
        if me.id == 0 { return blockMain(for: duration, what: "in work", at: location) ? .proceed : .stopped }
        guard canPark else { return .cannotWait }
        guard threads.isLive(me) else { return .stopped }  // its process ended
        threads.setWait(Int(me.slot), .work)
        threads.slots[Int(me.slot)].waitingAt = location
        stats.busyTime += duration
        scheduleThread(me, .wake, at: now + duration)
        return .park
    }

    // MARK: - Running threads

    func newThread(queue: Int?) -> ThreadRef {
        threads.lastThread += 1
        return threads.add(queue: queue, id: threads.lastThread)
    }

    /// Schedules a thread's start or wake. Background threads run after the main thread's events
    /// of the same instant (the main-first rule of SPEC 12.2).
    func scheduleThread(_ r: ThreadRef, _ kind: ThreadBook.Kind, at time: Millis) {
        guard threads.isLive(r) else { return }
        let s = Int(r.slot)
        queue.cancel(threads.slots[s].event)
        threads.slots[s].event = schedule(Event(.threads, kind, pid: pid, a: r.id, b: s), at: time, phase: .background)
        threads.setDue(s, max(time, now))
    }

    /// Gives a queue that is free its next item: a block starts on its thread, or a `q:sync`
    /// caller gets the queue.
    func advanceQueue(_ q: Int) {
        guard threads.queues[q].owner == nil, !threads.queues[q].items.isEmpty else { return }
        threads.queuedItems -= 1
        switch threads.queues[q].items.removeFirst() {
        case .block(let fn):
            let t = threads.queues[q].thread ?? newThread(queue: q)
            threads.queues[q].thread = t
            threads.queues[q].owner = t
            threads.slots[Int(t.slot)].block = fn
            scheduleThread(t, .start, at: now)
        case .sync(let waiter):
            threads.queues[q].owner = waiter
            if waiter.id != 0 { scheduleThread(waiter, .wake, at: now) }
        }
    }

    func runThread(_ r: ThreadRef, block: ThreadBlock) { runThread(r) { host.runThread(block.fn, block.invocation) } }
    func runThread(_ r: ThreadRef, parked: Int) { runThread(r) { host.resumeThread(parked) } }

    /// Runs a background thread until its block returns or it parks; a failure is the app's.
    private func runThread(_ r: ThreadRef, _ body: () -> ThreadRun) {
        let saved = (threads.current, threads.currentSlot)
        threads.current = r.id
        threads.currentSlot = r.slot
        var parkedAs: Int?
        let survived = runApp {
            switch body() {
            case .finished(let outcome): return outcome
            case .parked(let p): parkedAs = p; return .returned(truthy: false)
            }
        }
        (threads.current, threads.currentSlot) = saved
        guard survived, threads.isLive(r) else {
            if let parkedAs { host.dropThread(parkedAs) }
            return
        }
        let s = Int(r.slot)
        if let parkedAs {
            threads.slots[s].parked = parkedAs
            return
        }
        // The block returned: its queue goes on, a global thread ends (a concurrent queue's too).
        let launchOf = threads.slots[s].launchOf
        threads.slots[s].launchOf = 0
        if let q = threads.slots[s].queue, !isConcurrentQueue(q) {
            if threads.queues[q].owner == r { threads.queues[q].owner = nil }
            advanceQueue(q)
        } else {
            let q = threads.slots[s].queue
            threads.remove(r)
            if let q { concurrentBlockReturned(q, thread: r) }
        }
        if launchOf != 0 { bgLaunchHandlerReturned(serial: launchOf) }
    }

    /// The calling thread waits until `granted()`: a background thread parks (it is woken when
    /// granted), the main thread blocks. Reports a wait-for cycle as `deadlock`.
    func wait(_ what: ThreadWait, at location: SourceLocation?, canPark: Bool, granted: @escaping () -> Bool) -> WaitOutcome {
        let me = self.me
        if me.id != 0 {
            guard threads.isLive(me) else { return .stopped }
            threads.setWait(Int(me.slot), what)
            threads.slots[Int(me.slot)].waitingAt = location
        } else {
            mainWait = (what, location)
        }
        reportDeadlock(from: me)
        if me.id != 0 { return .park }
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
    private func waitsFor(_ t: ThreadRef) -> ThreadRef? {
        let what: ThreadWait
        if t.id == 0 { what = mainWait?.what ?? .none } else { what = threads.isLive(t) ? threads.slots[Int(t.slot)].wait : .none }
        switch what {
        case .lock(let m): return threads.mutexes[m].owner
        case .queue(let q): return threads.queues[q].owner
        default: return nil
        }
    }

    /// A set of threads that wait for each other forever is reported once (SPEC 12.2). The walk
    /// follows who waits for whom from `start`, marking each thread it visits, so it is linear in
    /// the chain (each step is charged to the run: a chain of n waits costs n steps per wait); a
    /// thread met twice closes a cycle, which is then walked once more to name its threads.
    private func reportDeadlock(from start: ThreadRef) {
        threads.walks += 1
        let walk = threads.walks
        var mainVisited = false
        func visit(_ t: ThreadRef) -> Bool {  // false: visited before in this walk
            if t.id == 0 {
                defer { mainVisited = true }
                return !mainVisited
            }
            guard threads.isLive(t) else { return true }
            defer { threads.slots[Int(t.slot)].walk = walk }
            return threads.slots[Int(t.slot)].walk != walk
        }
        _ = visit(start)
        var t = start, steps = 0
        defer { host.charge(hostWork: steps * ThreadBook.unitsPerStep) }
        while let next = waitsFor(t) {
            steps += 1
            guard !visit(next) else { t = next; continue }
            var cycle = [next]
            var c = next
            while let n = waitsFor(c), n != next { cycle.append(n); c = n }
            steps += cycle.count
            guard !cycle.contains(where: { threads.deadlocked.contains($0.id) }) else { return }
            threads.deadlocked.formUnion(cycle.map(\.id))
            let lines = cycle.map { r -> String in
                let at = r.id == 0 ? mainWait?.location : threads.slots[Int(r.slot)].waitingAt
                return "\(r.id == 0 ? "the main thread" : "thread #\(r.id)") at \(at.map { "\($0)" } ?? "?")"
            }
            let first = next.id == 0 ? mainWait?.location : threads.slots[Int(next.slot)].waitingAt
            violate(.deadlock, at: first,
                    "deadlock: \(lines.joined(separator: ", ")) wait for each other (locks or sync) and never continue; take locks in one order, and never sync onto the queue you are on")
            return
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
            case .waited(.own(let method, let allowed)):
                if watchdogTerminate(.callbackOverrun, at: location,
                                     "\(method.rawValue) waited past its \(Time.human(allowed)) limit for the main thread, which was \(what) here; the watchdog terminated the app") { return false }
                maskedLimits |= 2
            case .blocked(let call):
                if watchdogTerminate(.mainThreadHang, at: location,
                                     "\(call) kept the main thread \(what) here past the \(Time.human(budgets.mainThreadHang)) a transition may take; the watchdog terminated the app: keep the main thread free in life-cycle calls (move the work to a background queue)") { return false }
                maskedLimits |= 4
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
        slots = o.slots; free = o.free; slotOf = o.slotOf; queues = o.queues; mutexes = o.mutexes; lastThread = o.lastThread
        current = o.current; currentSlot = o.currentSlot; deadlocked = o.deadlocked; walks = o.walks; decidedInstant = o.decidedInstant
        dueCount = o.dueCount; dueTimes = o.dueTimes; working = o.working; frozen = o.frozen; waitingCount = o.waitingCount
        waitingIDs = o.waitingIDs; queuedItems = o.queuedItems; primitiveWaiting = o.primitiveWaiting
    }
}

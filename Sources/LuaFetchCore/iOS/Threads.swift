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

    func dropStaleDueTimes() {
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
    func firstWaiting() -> AppThread? {
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
    var ordered: [Int32] { slotOf.keys.sorted().map { slotOf[$0]! } }

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

// The World's side of threads is in Threads+Blocks.swift (submitting blocks, locks, work),
// Threads+Running.swift (running, parking and ending threads, deadlocks) and
// Threads+MainBlocked.swift (the main thread blocked); ThreadBook's Subsystem answers are in
// Threads+Subsystem.swift.

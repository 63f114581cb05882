// The virtual clock's queue: events ordered by (time, phase, sequence) in a binary heap from
// swift-collections' HeapModule. Phase orders work inside one millisecond: ordinary events first,
// then deadline checks (SPEC 4.3: deadlines are inclusive), then late warnings. Cancellation is
// lazy (a cancelled id is skipped when popped) and the queue counts the events that keep a run
// alive, so "until idle" ignores recurring ones.
import HeapModule

/// Where an event sorts within its millisecond.
public enum Phase: Int, Comparable, Sendable {
    case normal = 0, deadline = 1, late = 2
    public static func < (a: Phase, b: Phase) -> Bool { a.rawValue < b.rawValue }
}

struct QueuedEvent: Comparable {
    let time: Millis
    let phase: Phase
    let seq: UInt64
    let recurring: Bool
    let event: Event

    static func < (a: QueuedEvent, b: QueuedEvent) -> Bool {
        (a.time, a.phase.rawValue, a.seq) < (b.time, b.phase.rawValue, b.seq)
    }
    static func == (a: QueuedEvent, b: QueuedEvent) -> Bool { a.seq == b.seq }
}

/// A handle to cancel a scheduled event.
public struct EventID: Hashable, Sendable { let seq: UInt64 }

struct EventQueue {
    private var heap = Heap<QueuedEvent>()
    private var nextSeq: UInt64 = 0
    private var cancelled: [UInt64: Bool] = [:]  // seq → recurring (lookup only; never iterated)
    /// Events scheduled and not yet popped or cancelled that are not recurring.
    private(set) var liveNonRecurring = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    @discardableResult
    mutating func schedule(_ event: Event, at time: Millis, phase: Phase = .normal, recurring: Bool = false) -> EventID {
        nextSeq += 1
        heap.insert(QueuedEvent(time: time, phase: phase, seq: nextSeq, recurring: recurring, event: event))
        if !recurring { liveNonRecurring += 1 }
        return EventID(seq: nextSeq)
    }

    mutating func cancel(_ id: EventID?, recurring: Bool = false) {
        guard let id, cancelled[id.seq] == nil else { return }
        cancelled[id.seq] = recurring
        if !recurring { liveNonRecurring -= 1 }
    }

    /// The time of the next event that was not cancelled.
    mutating func peekTime() -> Millis? {
        while let top = heap.min {
            if cancelled[top.seq] != nil { _ = heap.removeMin(); cancelled[top.seq] = nil; continue }
            return top.time
        }
        return nil
    }

    /// The time of the earliest event still scheduled, without discarding cancelled ones.
    func peekTimeNoMutate() -> Millis? {
        heap.unordered.filter { cancelled[$0.seq] == nil }.map(\.time).min()
    }

    mutating func pop() -> QueuedEvent? {
        while let top = heap.popMin() {
            if cancelled.removeValue(forKey: top.seq) != nil { continue }
            if !top.recurring { liveNonRecurring -= 1 }
            return top
        }
        return nil
    }
}

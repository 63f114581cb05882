// The virtual clock's queue: events ordered by (time, phase, sequence). Phase orders work inside
// one millisecond: ordinary events first, then background threads' blocks, then deadline checks
// (SPEC 4.3: deadlines are inclusive), then late warnings. The heap (a 4-ary min-heap beside a
// sorted run) holds only 16-byte keys; payloads live in a slab of reusable 24-byte slots, so
// sifting moves 16 bytes and cancelling is a flag on the slot (no hashing). The queue counts the
// events that keep a run alive, so "until idle" ignores recurring ones. A class over buffers it
// owns (PlainBuffer): one queue per World, copied only by `assign` (warm runs), and no array
// checks on the path of every event. Uses QuaternaryHeap.

/// Where an event sorts within its millisecond.
public enum Phase: Int, Comparable, Sendable {
    /// `background`: background threads' blocks, after the main thread's of the same instant (SPEC 12.2).
    /// `typed`: lines typed at the REPL's prompt, replayed by a `.save`d scenario (`typed(t, fn)`):
    /// after everything else of their millisecond, as they were typed.
    case normal = 0, background = 1, deadline = 2, late = 3, typed = 4
    public static func < (a: Phase, b: Phase) -> Bool { a.rawValue < b.rawValue }
}

/// A popped event.
struct QueuedEvent {
    let time: Millis
    let event: Event
}

/// A handle to cancel a scheduled event: its slot and which taking of the slot it was, and its
/// sequence number (the order events were scheduled in, SPEC 12.4).
public struct EventID: Hashable, Sendable {
    let slot: Int32
    let generation: UInt32
    let seq: UInt64
}

final class EventQueue {
    /// A heap entry: one 128-bit key that sorts as (time, phase, sequence) and carries the slot of
    /// the payload in its low bits: time (42 bits of milliseconds, 139 years) | phase (3) |
    /// sequence (53) | slot (30). One comparison orders two entries.
    struct Entry: Comparable {
        let key: UInt128
        /// The latest time a key holds; later events (only reachable by advancing a REPL for more
        /// than a century) wait there instead of wrapping around.
        static let maxTime: Millis = (1 << 42) - 1

        init(time: Millis, phase: Phase, seq: UInt64, slot: Int32) {
            key = UInt128(UInt64(Swift.min(Swift.max(0, time), Entry.maxTime))) << 86 | UInt128(UInt64(phase.rawValue)) << 83
                | UInt128(seq & 0x1F_FFFF_FFFF_FFFF) << 30 | UInt128(UInt32(slot))
        }
        var time: Millis { Millis(truncatingIfNeeded: UInt64(truncatingIfNeeded: key >> 86)) }
        var slot: Int32 { Int32(truncatingIfNeeded: UInt32(truncatingIfNeeded: key & 0x3FFF_FFFF)) }
        static func < (a: Entry, b: Entry) -> Bool { a.key < b.key }
    }

    /// 24 bytes: the event (18), three flags, and the slot's generation, bumped each time the
    /// slot is taken, so an EventID of an event that ran cancels nothing later (it would take 2^32
    /// takings of one slot to come round). A million pending events keep 24 MB here. A free slot
    /// holds the next free slot in its event's `a`: the free list lives in the slots.
    struct Slot {
        private(set) var event: Event
        private var flags: UInt8
        private(set) var generation: UInt32
        private static let liveBit: UInt8 = 1, recurringBit: UInt8 = 2, cancelledBit: UInt8 = 4

        /// The slot taken by `event` (its `generation`th taking).
        init(event: Event, recurring: Bool, generation: UInt32) {
            self.event = event
            flags = Slot.liveBit | (recurring ? Slot.recurringBit : 0)
            self.generation = generation
        }
        /// A free slot, before `next` in the free list (-1: the last), keeping its generation.
        init(nextFree next: Int32, generation: UInt32) {
            event = Event(.timeline, Timeline.Kind.call, a: Int(next))
            flags = 0
            self.generation = generation
        }
        var nextFree: Int32 { Int32(truncatingIfNeeded: event.a) }
        /// Holds a scheduled event (not yet popped), cancelled or not.
        var live: Bool { flags & Slot.liveBit != 0 }
        var recurring: Bool { flags & Slot.recurringBit != 0 }
        var cancelled: Bool {
            get { flags & Slot.cancelledBit != 0 }
            set { if newValue { flags |= Slot.cancelledBit } else { flags &= ~Slot.cancelledBit } }
        }
    }

    // Every event's path: no run-time exclusivity checks, whatever the build's flags (see World).
    @exclusivity(unchecked) private var heap = QuaternaryHeap<Entry>()
    /// Indexed by an entry's slot; `slots.count` is how many were ever used (free ones chain).
    @exclusivity(unchecked) private var slots = PlainBuffer<Slot>()
    /// The free slot released last (-1: none), so the next event (usually the rescheduling of the
    /// recurring event that just ran) takes the slot it left.
    @exclusivity(unchecked) private var freeHead: Int32 = -1
    @exclusivity(unchecked) private var nextSeq: UInt64 = 0
    /// Events scheduled and not yet popped or cancelled that are not recurring.
    @exclusivity(unchecked) private(set) var liveNonRecurring = 0

    init() {}
    deinit { slots.free() }

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    /// The slot of a scheduled event (its entry or EventID names one below `slots.count`).
    @inline(__always)
    private func slot(_ s: Int32) -> UnsafeMutablePointer<Slot> { slots.base + Int(s) }

    @discardableResult
    func schedule(_ event: Event, at time: Millis, phase: Phase = .normal, recurring: Bool = false) -> EventID {
        nextSeq += 1
        let s: Int32
        let generation: UInt32
        if freeHead >= 0 {
            s = freeHead
            let p = slot(s)
            freeHead = p.pointee.nextFree
            generation = p.pointee.generation &+ 1
            p.pointee = Slot(event: event, recurring: recurring, generation: generation)
        } else {
            precondition(slots.count < 0x3FFF_FFFF, "more than a billion pending events")
            s = Int32(slots.count)
            generation = 0
            slots.append(Slot(event: event, recurring: recurring, generation: generation))
        }
        heap.insert(Entry(time: time, phase: phase, seq: nextSeq, slot: s))
        if !recurring { liveNonRecurring += 1 }
        return EventID(slot: s, generation: generation, seq: nextSeq)
    }

    func cancel(_ id: EventID?) {
        guard let id, id.slot >= 0, Int(id.slot) < slots.count else { return }
        let p = slot(id.slot)
        guard p.pointee.generation == id.generation, p.pointee.live, !p.pointee.cancelled else { return }
        p.pointee.cancelled = true
        if !p.pointee.recurring { liveNonRecurring -= 1 }
    }

    /// Cancels every pending event `belongs` picks; returns them in slot order (their references
    /// are the caller's to release). O(count): for rare moments such as a process ending. When
    /// most of the queue is then cancelled entries, they go (their slots free, the heap rebuilt),
    /// so a crash loop does not walk the dead of every earlier crash again.
    func cancelAll(where belongs: (Event) -> Bool) -> [Event] {
        var picked: [Int32] = []
        var dead = 0
        heap.forEach { entry in
            let p = slot(entry.slot)
            if p.pointee.cancelled { dead += 1; return }
            guard belongs(p.pointee.event) else { return }
            p.pointee.cancelled = true
            if !p.pointee.recurring { liveNonRecurring -= 1 }
            picked.append(entry.slot)
            dead += 1
        }
        picked.sort()
        let out = picked.map { slot($0).pointee.event }
        if dead * 2 > heap.count { dropCancelled() }
        return out
    }

    /// Removes every cancelled entry from the heap and frees its slot (in ascending slot order,
    /// so the free list, and so which slot each later event takes, is the same on every run).
    private func dropCancelled() {
        var freed: [Int32] = []
        heap.removeAll { entry in
            guard slot(entry.slot).pointee.cancelled else { return false }
            freed.append(entry.slot)
            return true
        }
        for s in freed.sorted().reversed() { release(s) }
    }

    /// The time of the next event that was not cancelled.
    func peekTime() -> Millis? {
        while let top = heap.min {
            if slot(top.slot).pointee.cancelled { _ = heap.popMin(); release(top.slot); continue }
            return top.time
        }
        return nil
    }

    /// The time of the earliest event still scheduled, without discarding cancelled ones.
    func peekTimeNoMutate() -> Millis? {
        heap.unordered.filter { !slot($0.slot).pointee.cancelled }.map(\.time).min()
    }

    /// The next event that was not cancelled, left in the queue.
    func peek() -> QueuedEvent? {
        guard peekTime() != nil, let top = heap.min else { return nil }
        return QueuedEvent(time: top.time, event: slot(top.slot).pointee.event)
    }

    /// Pops the next event, whose time `peekTime` just returned (nothing cancelled is in front).
    func popPeeked() -> QueuedEvent {
        let top = heap.popMin()!
        return take(top)
    }

    func pop() -> QueuedEvent? {
        while let top = heap.popMin() {
            if slot(top.slot).pointee.cancelled { release(top.slot); continue }
            return take(top)
        }
        return nil
    }

    /// The event of a popped entry; its slot is free again.
    @inline(__always)
    private func take(_ top: Entry) -> QueuedEvent {
        let p = slot(top.slot)
        if !p.pointee.recurring { liveNonRecurring -= 1 }
        let event = p.pointee.event
        release(top.slot)
        return QueuedEvent(time: top.time, event: event)
    }

    /// Becomes a copy of `other`, keeping this queue's storage, so a warm run's events allocate
    /// nothing for the queue (see WorldState).
    func assign(_ other: EventQueue) {
        heap.assign(other.heap)
        slots.assign(other.slots)
        freeHead = other.freeHead
        nextSeq = other.nextSeq
        liveNonRecurring = other.liveNonRecurring
    }

    @inline(__always)
    private func release(_ s: Int32) {
        let p = slot(s)
        p.pointee = Slot(nextFree: freeHead, generation: p.pointee.generation)
        freeHead = s
    }
}

extension EventQueue: CustomReflectable {
    /// Its contents, not its buffers' addresses (WorldStateTests compares a copy with its original).
    var customMirror: Mirror {
        Mirror(self, children: ["heap": heap.stored, "slots": Array(slots.elements), "freeHead": freeHead, "nextSeq": nextSeq,
                                "liveNonRecurring": liveNonRecurring], displayStyle: .struct)
    }
}

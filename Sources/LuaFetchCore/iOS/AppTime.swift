// App-side time (SPEC 4.2): `after` (dispatch_after on the main queue), NSTimer-like timers that
// do not fire while suspended and catch up once on resume, and `work(seconds)`, during which the
// app's main thread is busy and the clock advances (watchdog limits cut it short). A subsystem of
// World.

/// A `timer.every` / `timer.after` timer.
struct AppTimer {
    let serial: Int          // its number for people: "timer #3"
    let fn: ScriptRef
    let interval: Millis
    let repeats: Bool
    let anchor: Millis
    var event: EventID?
}

/// Live timers in reusable slots, found by handle (slot in the low 32 bits, the slot's generation
/// above): no hashing on the hot path, and memory bounded by the timers alive at once.
struct TimerBook {
    private var slots: [(generation: Int, timer: AppTimer?)] = []
    private var free: [Int] = []
    private(set) var nextSerial = 0
    private(set) var count = 0

    mutating func add(_ make: (Int) -> AppTimer) -> Int {
        nextSerial += 1
        let timer = make(nextSerial)
        count += 1
        if let slot = free.popLast() {
            slots[slot].generation += 1
            slots[slot].timer = timer
            return slot | slots[slot].generation << 32
        }
        slots.append((0, timer))
        return slots.count - 1
    }

    /// Records the event of a live timer's next firing (in place: this is every firing's path).
    mutating func setEvent(_ handle: Int, _ event: EventID) {
        let slot = handle & 0xFFFF_FFFF
        guard slot < slots.count, slots[slot].generation == handle >> 32 else { return }
        slots[slot].timer?.event = event
    }

    /// The function of a live timer.
    func ref(_ handle: Int) -> ScriptRef? { self[handle]?.fn }

    subscript(handle: Int) -> AppTimer? {
        get {
            let slot = handle & 0xFFFF_FFFF
            guard slot < slots.count, slots[slot].generation == handle >> 32 else { return nil }
            return slots[slot].timer
        }
        set {
            let slot = handle & 0xFFFF_FFFF
            guard slot < slots.count, slots[slot].generation == handle >> 32, slots[slot].timer != nil else { return }
            slots[slot].timer = newValue
            if newValue == nil { count -= 1; free.append(slot) }
        }
    }

    /// Live timers by handle, oldest first.
    var handlesInOrder: [Int] {
        slots.indices.compactMap { i in slots[i].timer.map { (i | slots[i].generation << 32, $0.serial) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    mutating func removeAll() {
        for i in slots.indices where slots[i].timer != nil { slots[i].timer = nil; free.append(i) }
        count = 0
    }
}

/// The app's `after` blocks and timers: events of the process, parked while it is suspended.
final class AppTimeBook: Subsystem {
    enum Kind: UInt8 { case after, timer }
    @exclusivity(unchecked) var timers = TimerBook()
    /// `after(0)` / `dispatch.main` blocks submitted for this instant and not run yet: they hold
    /// off suspension (SPEC 12.2).
    @exclusivity(unchecked) var immediate = (time: Millis(-1), count: 0)

    func keepsAppRunning(_ world: World) -> Bool { immediate.count > 0 && immediate.time == world.now }

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        switch event.kind(Kind.self) {
        case .after:
            if event.b == 1 && immediate.time == time { immediate.count -= 1 }
            let ref = ScriptRef(id: event.a)
            world.callApp(ref)
            world.host.release(ref)
        case .timer:
            world.fireTimer(event.a, scheduledAt: time)
        }
        if delivery == .due { world.settle() }
    }

    func processEnding(_ pid: Int, in world: World) {
        immediate = (-1, 0)
        world.dropTimers()
        // The process's pending `after` blocks die with it (they must not keep an idle run going).
        // The walk over every pending event is charged to the run (a crash loop under a million
        // pending events would otherwise repeat it uncounted).
        world.host.charge(hostWork: world.queue.count / 4)
        for e in world.queue.cancelAll(where: { $0.appPid == pid }) + world.parked.map(\.event)
        where e.owner == .appTime && e.kind(Kind.self) == .after {
            world.host.release(ScriptRef(id: e.a))
        }
    }

    func pendingLines(in world: World) -> [String] {
        var out: [String] = []
        for handle in timers.handlesInOrder {
            guard let t = timers[handle] else { continue }
            let next = t.anchor + ((world.now - t.anchor) / t.interval + 1) * t.interval
            out.append("timer      #\(t.serial) \(t.repeats ? "every" : "after") \(Time.human(t.interval)), next \(Time.stamp(next))\(world.state == .suspended ? " (waits: app suspended)" : "")")
        }
        let n = world.parked.count
        if n > 0 { out.append("waiting    \(n) block\(n == 1 ? "" : "s")/timer firings until the app runs again") }
        return out
    }

    func location(of event: Event, in world: World) -> SourceLocation? {
        switch event.kind(Kind.self) {
        case .after: return world.host.location(of: ScriptRef(id: event.a))
        case .timer: return timers.ref(event.a).flatMap { world.host.location(of: $0) }
        }
    }
}

extension World {
    /// `after(seconds, fn)`.
    public func after(_ delay: Millis, _ fn: ScriptRef) {
        let immediate = delay <= 0
        if immediate {
            appTime.immediate = appTime.immediate.time == now ? (now, appTime.immediate.count + 1) : (now, 1)
        }
        schedule(Event(.appTime, AppTimeBook.Kind.after, pid: pid, a: fn.id, b: immediate ? 1 : 0), at: now + max(0, delay))
    }

    /// `timer.every` / `timer.after`: returns the timer's handle. A timer made on a background
    /// thread joins that thread's run loop, which never runs: it never fires (SPEC 12.2).
    public func makeTimer(interval: Millis, repeats: Bool, _ fn: ScriptRef, at location: SourceLocation? = nil) -> Int {
        let handle = timers.add { AppTimer(serial: $0, fn: fn, interval: interval, repeats: repeats, anchor: now) }
        if threads.current != 0 {
            violate(.timerOnBackgroundThread, at: location,
                    "timer #\(timers[handle]!.serial) was created on a background thread; its run loop never runs, so it never fires: create timers on the main thread (dispatch.main) or use after()")
            return handle
        }
        timers[handle]!.event = schedule(Event(.appTime, AppTimeBook.Kind.timer, pid: pid, a: handle), at: now + interval, recurring: repeats)
        return handle
    }

    /// The number a timer shows as (`timer #3`).
    public func timerSerial(_ handle: Int) -> Int? { timers[handle]?.serial }

    /// `t:invalidate()`.
    public func invalidateTimer(_ handle: Int) {
        guard let t = timers[handle] else { return }
        timers[handle] = nil
        queue.cancel(t.event)
        parked.removeAll { $0.event.owner == .appTime && $0.event.kind(AppTimeBook.Kind.self) == .timer && $0.event.a == handle }
        host.release(t.fn)
        host.timerEnded(handle)
    }

    func fireTimer(_ handle: Int, scheduledAt: Millis) {
        guard let t = timers[handle] else { return }
        if t.repeats {
            let next = t.anchor + ((now - t.anchor) / t.interval + 1) * t.interval  // stays on its grid
            timers.setEvent(handle, schedule(Event(.appTime, AppTimeBook.Kind.timer, pid: pid, a: handle), at: next, recurring: true))
        } else {
            timers[handle] = nil
        }
        callApp(t.fn, Invocation(.timer(handle)))
        if !t.repeats { host.release(t.fn); host.timerEnded(handle) }
    }

    func dropTimers() {
        for handle in timers.handlesInOrder {
            let t = timers[handle]!
            queue.cancel(t.event)
            host.release(t.fn)
            host.timerEnded(handle)
        }
        timers.removeAll()
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension AppTimeBook {
    func copyState(from o: AppTimeBook) { timers = o.timers; immediate = o.immediate }
}

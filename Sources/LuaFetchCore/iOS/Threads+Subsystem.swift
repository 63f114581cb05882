// ThreadBook as a Subsystem (Threads.swift): handling its events (a thread's start and wake),
// what keeps the app running, suspension, resumption and the end of the process for threads and
// queues, pending lines, and the location of an event; and copyState for warm runs (WorldState).
// Uses the book's slots and the World.

extension ThreadBook {
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

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension ThreadBook {
    func copyState(from o: ThreadBook) {
        slots = o.slots; free = o.free; slotOf = o.slotOf; queues = o.queues; mutexes = o.mutexes; lastThread = o.lastThread
        current = o.current; currentSlot = o.currentSlot; deadlocked = o.deadlocked; walks = o.walks; decidedInstant = o.decidedInstant
        dueCount = o.dueCount; dueTimes = o.dueTimes; working = o.working; frozen = o.frozen; waitingCount = o.waitingCount
        waitingIDs = o.waitingIDs; queuedItems = o.queuedItems; primitiveWaiting = o.primitiveWaiting
    }
}

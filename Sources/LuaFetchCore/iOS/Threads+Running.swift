// The World's side of threads, part two: making, scheduling, running, parking and ending
// threads (ScriptHost.runThread / resumeThread), and the wait-for walk that reports `deadlock`.
// Uses ThreadBook (Threads.swift), the World's clock and the ScriptHost.

extension World {
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
    func runThread(_ r: ThreadRef, _ body: () -> ThreadRun) {
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

}

// The World's side of threads, part one: submitting blocks to threads and serial queues
// (`dispatch.global`, `q:async`, `q:sync`), locks (`dispatch.lock()`, handed over in request
// order) and `work(seconds)` on a background thread. Uses ThreadBook (Threads.swift) and the
// World's clock.

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

}

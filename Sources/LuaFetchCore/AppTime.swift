// App-side time (SPEC 4.2): `after` (dispatch_after on the main queue), NSTimer-like timers that
// do not fire while suspended and catch up once on resume, and `work(seconds)`, during which the
// app's main thread is busy and the clock advances (watchdog limits cut it short). Part of World.

/// A `timer.every` / `timer.after` timer.
struct AppTimer {
    let id: Int
    let fn: ScriptRef
    let interval: Millis
    let repeats: Bool
    let anchor: Millis
    var event: EventID?
}

extension World {
    /// `after(seconds, fn)`.
    public func after(_ delay: Millis, _ fn: ScriptRef) {
        schedule(.appAfter(pid: pid, ref: fn), at: now + max(0, delay))
    }

    /// `timer.every` / `timer.after`: returns the timer's id.
    public func makeTimer(interval: Millis, repeats: Bool, _ fn: ScriptRef) -> Int {
        nextTimerID += 1
        let id = nextTimerID
        var t = AppTimer(id: id, fn: fn, interval: interval, repeats: repeats, anchor: now)
        t.event = schedule(.timer(pid: pid, id: id), at: now + interval, recurring: repeats)
        timers[id] = t
        return id
    }

    /// `t:invalidate()`.
    public func invalidateTimer(_ id: Int) {
        guard let t = timers.removeValue(forKey: id) else { return }
        queue.cancel(t.event, recurring: t.repeats)
        parked.removeAll { if case .timer(_, id) = $0.event { return true } else { return false } }
        host.release(t.fn)
        host.timerEnded(id)
    }

    public var liveTimerCount: Int { timers.count }

    func fireTimer(_ id: Int, scheduledAt: Millis) {
        guard var t = timers[id] else { return }
        if t.repeats {
            let next = t.anchor + ((now - t.anchor) / t.interval + 1) * t.interval  // stays on its grid
            t.event = schedule(.timer(pid: pid, id: id), at: next, recurring: true)
            timers[id] = t
        } else {
            timers[id] = nil
        }
        callApp(t.fn, .timer(timerID: id))
        if !t.repeats { host.release(t.fn); host.timerEnded(id) }
    }

    func dropTimers() {
        for id in timers.keys.sorted() {
            let t = timers[id]!
            queue.cancel(t.event, recurring: t.repeats)
            host.release(t.fn)
            host.timerEnded(id)
        }
        timers.removeAll()
    }

    /// `work(seconds)`: the app computes; returns false when a watchdog limit ended the app.
    public func work(_ duration: Millis, at location: SourceLocation?) -> Bool {
        guard duration > 0 else { return true }
        let target = now + duration
        var limit: (time: Millis, kill: () -> Void)?
        func consider(_ time: Millis, _ kill: @escaping () -> Void) {
            if target > time, limit == nil || time < limit!.time { limit = (time, kill) }
        }
        if let cb = callbackLimit {
            consider(cb.deadline) { [unowned self] in
                crash(.callbackOverrun, at: location,
                      "\(cb.method.rawValue) computed past its \(Time.human(cb.allowed)) limit; the watchdog terminated the app")
            }
        }
        if state == .background, !tasks.open.isEmpty, let deadline = tasks.episode?.deadline {
            consider(deadline) { [unowned self] in expireTasks() }
        }
        for f in fetch.pending { consider(f.deadline) { [unowned self] in missFetch(f.id) } }
        stats.busyTime += (limit?.time ?? target) - now
        if let limit {
            now = max(now, limit.time)
            limit.kill()
            return false
        }
        now = target
        return true
    }
}

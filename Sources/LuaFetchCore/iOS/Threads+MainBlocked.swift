// The main thread blocked (`World.blockMain`): a nested event loop that runs the world's
// events at their times while main-thread work waits in `mainWaiting`, the watchdog limits that
// cut the wait short (`main-thread-hang`), and `step()`, which runs the waiting work once no app
// code is on the stack. Uses ThreadBook (Threads.swift) and the World's queue.

extension World {
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

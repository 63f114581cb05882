// The World's loop, its second half: explore's milestones, settling after the end
// (`settleLimit`), advancing the clock, finishing a run (pending work, expectations at the end),
// and dispatching and delivering each event to its subsystem. Uses the EventQueue and the
// subsystems; the loop's first half (start, run, step) is World.swift's.

extension World {
    // MARK: - Milestones (explore)

    /// Moments of the app's life explore places actions relative to (SPEC 10), each with the end
    /// of the window it opens (a deadline, a response), when there is one.
    public enum Milestone: Int, CaseIterable, Sendable {
        case taskBegan, backgroundTime, grant, request, suspended, backgroundLaunch
        static let count = allCases.count
    }

    func milestone(_ m: Milestone, until: Millis? = nil) {
        if let onMilestone { onMilestone(m, until) }
    }

    /// The longest `--settle` goes on past the end.
    public static let settleLimit: Millis = Time.hour

    /// `--settle`: the run ends as a person's day does (SPEC 10, third amendment). An app left in
    /// the foreground with work pending is sent Home once, so every task gets the deadline iOS
    /// would give it; then, past the end, the events that finish pending work run (not recurring
    /// ones alone) until nothing is pending or `settleLimit` has passed.
    func settleAfterEnd() {
        guard fatal == nil else { return }
        if isForeground, hasPendingWork {
            if let d = config.duration, now < min(d, endTime) { now = min(d, endTime) }
            log("user", .info, "(the run's time is up with work pending in the foreground: the person goes Home, as --settle does)")
            userHome()
            guard fatal == nil else { return }
        }
        guard queue.peekTime().map({ $0 > endTime }) ?? false else { return }
        if let d = config.duration, now < min(d, endTime) { now = min(d, endTime) }
        let cap = now + Self.settleLimit
        while fatal == nil, state != .notRunning || !mainWaiting.isEmpty, hasPendingWork, step(limit: cap, stopWhenIdle: true) {}
    }

    /// Whether work is pending that `pending-at-end` would report, or a request is in flight.
    var hasPendingWork: Bool {
        !net.requests.isEmpty || !pendingAtEnd().parts.isEmpty
    }

    /// Advances the clock to `time`, running every event up to it.
    public func advance(to time: Millis) {
        start()
        while step(limit: time, stopWhenIdle: false) {}
        if now < time && fatal == nil { now = time }
    }

    /// Ends the run: `duration` reached or idle; reports what is still pending, checks expectations.
    /// A run `--until` cut before its own end reports what happened up to the cut: what is still
    /// pending there is noted, not a violation (unless it settled), and the end-of-run expectations
    /// are not checked (the cut is not the scenario's end).
    public func finish() {
        guard !finished else { return }
        finished = true
        if let d = config.duration, now < min(d, endTime) { now = min(d, endTime) }
        // Cut: `--until` came before the scenario's own end (its duration; without one, the run
        // reached the cut or had work left).
        let cut = options.until.map { until in
            config.duration.map { until < $0 } ?? (now >= until || queue.liveNonRecurring > 0 || hasPendingWork)
        } ?? false
        if cut {
            if let until = options.until, now < until, !options.settle { now = until }
            cutAt = now
            if options.settle { reportPendingAtEnd() } else { notePendingAtCut() }
            let unchecked = expectations.atEndCount
            log("expect", .info, "(the run was cut by --until at \(Time.stamp(now))\(unchecked > 0 ? ": \(unchecked) end-of-run expectation\(unchecked == 1 ? " is" : "s are") not checked" : ""))")
        } else {
            reportPendingAtEnd()
            expectations.checkAtEnd(in: self)
        }
    }

    @inline(__always)
    func dispatch(_ qe: QueuedEvent) {
        let event = qe.event
        if event.pid != 0 {
            guard Int(event.pid) == pid, state != .notRunning else { return }  // the process is gone
            if state == .suspended { parked.append(qe); return }
        }
        if mainBlock != nil {
            let s = subsystems[Int(event.owner.rawValue)]
            if s.needsMainThread(event) {
                mainWaiting.append(MainWaiter(due: qe.time, event: event, limit: s.mainWaitLimit(event)))
                return
            }
        }
        deliver(event, at: qe.time, .due)
    }

    /// Hands `event` to its subsystem, called as its own class (no existential, no array: this is
    /// every event's path).
    @inline(__always)
    func deliver(_ event: Event, at time: Millis, _ delivery: Delivery) {
        switch event.owner {
        case .timeline: timelineEvents.handle(event, at: time, delivery, in: self)
        case .lifecycle: lifecycle.handle(event, at: time, delivery, in: self)
        case .container: container.handle(event, at: time, delivery, in: self)
        case .tasks: tasks.handle(event, at: time, delivery, in: self)
        case .grants: grants.handle(event, at: time, delivery, in: self)
        case .network: net.handle(event, at: time, delivery, in: self)
        case .appTime: appTime.handle(event, at: time, delivery, in: self)
        case .threads: threads.handle(event, at: time, delivery, in: self)
        case .dispatch: dispatchBook.handle(event, at: time, delivery, in: self)
        case .fetch: fetch.handle(event, at: time, delivery, in: self)
        case .bgTasks: bgTasks.handle(event, at: time, delivery, in: self)
        case .sessions: sessions.handle(event, at: time, delivery, in: self)
        case .expectations: expectations.handle(event, at: time, delivery, in: self)
        }
    }

}

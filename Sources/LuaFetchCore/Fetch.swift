// Background fetch (SPEC 4.4, 6.2, 6.3): the minimum interval, eligibility, the manual / fixed /
// adaptive schedules with their backoff factor, waking or launching the app for a fetch, the
// completion handler and its deadline, and Xcode's two debug actions. Part of World.

/// `UIBackgroundFetchResult`.
public enum FetchResult: String, CaseIterable, Sendable { case newData, noData, failed }

struct PendingFetch {
    let id: Int
    let pid: Int
    let started: Millis
    let deadline: Millis
    let scheduled: Bool
    let deadlineEvent: EventID
    let location: SourceLocation?
}

struct FetchState {
    /// The minimum interval; nil is UIApplicationBackgroundFetchIntervalNever (the default).
    var interval: Millis?
    var factor = 1.0
    var generation = 0
    var dueEvent: EventID?
    var dueWhileForeground = false
    var pending: [PendingFetch] = []
    var completed: Set<Int> = []
    var nextID = 0
}

extension World {
    // MARK: - API

    /// `app:setMinimumBackgroundFetchInterval(seconds)`; `.infinity` is Never. Returns an error
    /// message when the profile has no fetch API (the app crashes, as on iOS 6).
    public func setMinimumBackgroundFetchInterval(_ seconds: Double) -> String? {
        guard os.hasFetchAPI else {
            return "-[UIApplication setMinimumBackgroundFetchInterval:]: unrecognized selector sent to instance (the \(os.rawValue) profile has no background fetch)"
        }
        fetch.generation += 1
        queue.cancel(fetch.dueEvent)
        fetch.dueEvent = nil
        fetch.dueWhileForeground = false
        if seconds.isInfinite {
            fetch.interval = nil
            log("fetch", .fetch, "minimum background fetch interval: Never")
            return nil
        }
        fetch.interval = Time.millis(fromSeconds: max(0, seconds)) ?? 0
        log("fetch", .fetch, "minimum background fetch interval: \(seconds == 0 ? "Minimum" : Time.human(fetch.interval!)) (gap \(Time.human(baseGap)), policy \(config.fetchPolicy.rawValue))")
        scheduleNextFetch(from: now)
        return nil
    }

    var baseGap: Millis { max(fetch.interval ?? 0, budgets.fetchFloor ?? 0, 1) }

    /// The gap to the next scheduled fetch (SPEC 6.3).
    func nextGap() -> Millis {
        guard config.fetchPolicy == .adaptive else { return baseGap }
        let u = schedulerRandom.unit() * 0.2 - 0.1
        return max(1, Millis((Double(baseGap) * fetch.factor * (1 + u)).rounded()))
    }

    func scheduleNextFetch(from start: Millis) {
        guard config.fetchPolicy != .manual, fetch.interval != nil, os.hasFetchAPI else { return }
        queue.cancel(fetch.dueEvent)
        fetch.dueEvent = schedule(.fetchDue(generation: fetch.generation), at: max(now, start + nextGap()), recurring: true)
    }

    /// Why a scheduled fetch cannot happen now (nil: eligible).
    var fetchIneligibility: String? {
        if !app.hasFetchMode { return "\"fetch\" is not in backgroundModes" }
        if fetch.interval == nil { return "the interval is Never" }
        if !config.backgroundRefresh { return "Background App Refresh is off" }
        if config.lowPowerMode { return "Low Power Mode is on" }
        if forceQuitBlocked { return "the user force-quit the app" }
        return nil
    }

    // MARK: - Schedule

    func fetchDue(_ generation: Int) {
        guard generation == fetch.generation else { return }
        fetch.dueEvent = nil
        if isForeground {
            fetch.dueWhileForeground = true
            log("fetch", .fetch, "a background fetch falls due; it waits until the app leaves the foreground")
            return
        }
        if let reason = fetchIneligibility {
            stats.fetchesSkipped += 1
            log("fetch", .fetch, "scheduled fetch skipped: \(reason)")
            scheduleNextFetch(from: now)
            return
        }
        startFetch(scheduled: true)
    }

    /// A fetch that fell due in the foreground happens once the app is suspended or not running.
    func fetchFallsDueAfterForeground() {
        guard fetch.dueWhileForeground, !isForeground else { return }
        fetch.dueWhileForeground = false
        fetch.dueEvent = schedule(.fetchDue(generation: fetch.generation), at: now, recurring: true)
    }

    // MARK: - Performing a fetch

    func startFetch(scheduled: Bool) {
        stats.fetches += 1
        fetch.nextID += 1
        let id = fetch.nextID
        var launching = false
        switch state {
        case .notRunning:
            startProcess(.backgroundFetch)
            launching = true
        case .suspended:
            stats.wakes += 1
            setState(.background, "woken for a background fetch")
            beginEpisode(budget: budgets.backgroundTaskLaunched ?? budgets.backgroundTask)
        case .background, .active, .inactive:
            break
        }
        let allowed = budgets.fetch ?? 30 * Time.second
        let event = schedule(.fetchDeadline(fetchID: id), at: now + allowed, phase: .deadline)
        let fn = app.delegate[.performFetch]
        fetch.pending.append(PendingFetch(id: id, pid: pid, started: now, deadline: now + allowed,
                                          scheduled: scheduled, deadlineEvent: event, location: fn.flatMap(host.location(of:)) ?? app.location))
        log("fetch", .fetch, "#\(id) \(scheduled ? "scheduled" : "simulated") background fetch",
            detail: .fetchStarted(id: id, scheduled: scheduled))
        if launching {
            guard delegate(.didFinishLaunching, launch: .backgroundFetch, limit: budgets.launch) else { return }
        }
        if let fn {
            guard callApp(fn, .performFetch(fetchID: id)) else { return }
        } else {
            log("fetch", .fetch, "the app does not implement performFetch")
            _ = completeFetch(id, result: FetchResult.noData.rawValue, at: nil)
        }
        deliverAfterResume()
        settle()
    }

    /// The app's `completionHandler(result)`. Returns false when the call terminated the app.
    public func completeFetch(_ id: Int, result: String?, at location: SourceLocation?) -> Bool {
        guard let index = fetch.pending.firstIndex(where: { $0.id == id }) else {
            if fetch.completed.contains(id) {
                crash(.fetchDoubleCompletion, at: location,
                      "the completionHandler of fetch #\(id) was called a second time (NSInternalInconsistencyException): call it exactly once")
                return false
            }
            return true  // a fetch of a process that is gone
        }
        guard let r = result.flatMap(FetchResult.init(rawValue:)) else {
            crash(.fetchBadResult, at: location,
                  "completionHandler(\(result.map { $0.hasPrefix("<") ? String($0.dropFirst().dropLast()) : "\"\($0)\"" } ?? "nil")): the result must be \"newData\", \"noData\" or \"failed\" (UIBackgroundFetchResult)")
            return false
        }
        let f = fetch.pending.remove(at: index)
        fetch.completed.insert(id)
        queue.cancel(f.deadlineEvent)
        let elapsed = now - f.started
        stats.fetchResults[r, default: 0] += 1
        adapt(r, late: elapsed > 10 * Time.second)
        log("fetch", .fetch, "#\(id) completed: \(r.rawValue) after \(Time.human(elapsed))\(factorNote)",
            detail: .fetchEnded(id: id, result: r.rawValue))
        if f.scheduled { scheduleNextFetch(from: f.started) }
        return true
    }

    var factorNote: String {
        config.fetchPolicy == .adaptive ? " · next gap ×\(formatFactor(fetch.factor))" : ""
    }

    func formatFactor(_ f: Double) -> String {
        let r = (f * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    func adapt(_ result: FetchResult?, late: Bool) {
        guard config.fetchPolicy == .adaptive else { return }
        switch result {
        case .newData?: fetch.factor = 1
        case .noData?: fetch.factor *= 2
        case .failed?: fetch.factor *= 1.5
        case nil: fetch.factor *= 4
        }
        if late && result != .failed && result != nil { fetch.factor *= 1.5 }
        fetch.factor = min(fetch.factor, 32)
    }

    func fetchDeadline(_ id: Int) {
        guard fetch.pending.contains(where: { $0.id == id }) else { return }
        missFetch(id)
    }

    /// The completion handler was not called in time: the watchdog ends the app.
    func missFetch(_ id: Int) {
        guard let index = fetch.pending.firstIndex(where: { $0.id == id }) else { return }
        let f = fetch.pending[index]
        crash(.fetchNoCompletion, at: f.location,
              "performFetch did not call its completionHandler within \(Time.human(budgets.fetch ?? 0)) (fetch #\(id)); the watchdog terminated the app")
    }

    /// The process ended with fetches pending: each counts as missed for the schedule.
    func abandonFetches() {
        let gone = fetch.pending
        fetch.pending.removeAll()
        for f in gone {
            queue.cancel(f.deadlineEvent)
            stats.fetchesMissed += 1  // the watchdog's or any other end of the process
            fetch.completed.insert(f.id)
            adapt(nil, late: false)
            log("fetch", .fetch, "#\(f.id) ended without completion\(factorNote)", detail: .fetchEnded(id: f.id, result: "missed"))
            if f.scheduled { scheduleNextFetch(from: f.started) }
        }
    }

    // MARK: - Debug actions (Xcode)

    /// `system.backgroundFetch()`: Xcode's "Simulate Background Fetch".
    public func systemBackgroundFetch() { debugFetch("Simulate Background Fetch") }

    /// `system.launchForFetch()`: the scheme option "Launch due to a background fetch event". A
    /// not-running app is launched into the background; a running one gets the fetch as above.
    public func systemLaunchForFetch() { debugFetch("Launch due to a background fetch event") }

    /// Xcode's two debug fetches: they need only the fetch mode; a foreground app goes to the
    /// background first.
    func debugFetch(_ label: String) {
        log("system", .action, label)
        guard debugFetchPossible() else { return }
        if isForeground {
            enterBackground()
            settle()
        }
        startFetch(scheduled: false)
    }

    func debugFetchPossible() -> Bool {
        if !os.hasFetchAPI {
            log("system", .info, "(the \(os.rawValue) profile has no background fetch)")
            return false
        }
        if !app.hasFetchMode {
            log("system", .info, "(the app has no \"fetch\" background mode: nothing happens)")
            return false
        }
        return true
    }
}

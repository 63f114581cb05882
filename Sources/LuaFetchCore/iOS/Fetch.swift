// Background fetch (SPEC 4.4, 6.2, 6.3): the minimum interval, eligibility, the manual / fixed /
// adaptive schedules with their backoff factor, waking or launching the app for a fetch, and
// Xcode's two debug actions. A fetch is a grant (Grants.swift) of kind `.fetch`: this file says
// what its completion means. A subsystem of World.

/// `UIBackgroundFetchResult`.
public enum FetchResult: String, CaseIterable, Sendable { case newData, noData, failed }

final class FetchSchedule: Subsystem, GrantBehaviour {
    enum Kind: UInt8 { case due }
    /// The minimum interval; nil is UIApplicationBackgroundFetchIntervalNever (the default).
    var interval: Millis?
    var factor = 1.0
    var generation = 0
    var dueEvent: EventID?
    var dueWhileForeground = false

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        world.fetchDue(event.a)
    }

    func appStopped(_ world: World) { world.fetchFallsDueAfterForeground() }

    func pendingLines(in world: World) -> [String] {
        dueWhileForeground ? ["fetch      due: waits until the app leaves the foreground"] : []
    }

    // MARK: - The fetch grant

    func invalid(_ value: CompletionValue, of grant: Grant, in world: World) -> (ViolationCode, String)? {
        if case .string(let s) = value, FetchResult(rawValue: s) != nil { return nil }
        return (.fetchBadResult,
                "completionHandler(\(value.shown)): the result must be \"newData\", \"noData\" or \"failed\" (UIBackgroundFetchResult)")
    }

    func completed(_ grant: Grant, with value: CompletionValue, in world: World) {
        guard case .string(let s) = value, let r = FetchResult(rawValue: s) else { return }
        let elapsed = world.now - grant.began
        world.stats.fetchResults[r, default: 0] += 1
        world.adapt(r, late: elapsed > 10 * Time.second)
        world.log("fetch", .fetch, Text.build { t in
                t.add("#"); t.add(grant.key.serial); t.add(" completed: "); t.add(r.rawValue); t.add(" after "); t.add(human: elapsed)
                t.add(world.factorNote)
            },
                  detail: .fetchEnded(id: grant.key.serial, result: r.rawValue))
        if grant.detail == 1 { world.scheduleNextFetch(from: grant.began) }
    }

    func missed(_ grant: Grant, in world: World) -> String {
        "performFetch did not call its completionHandler within \(Time.human(world.budgets.fetch ?? 0)) (fetch #\(grant.key.serial))"
    }

    func abandoned(_ grant: Grant, in world: World) {
        world.stats.fetchesMissed += 1  // the watchdog's or any other end of the process
        world.adapt(nil, late: false)
        world.log("fetch", .fetch, "#\(grant.key.serial) ended without completion\(world.factorNote)",
                  detail: .fetchEnded(id: grant.key.serial, result: "missed"))
        if grant.detail == 1 { world.scheduleNextFetch(from: grant.began) }
    }
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
        let u = schedulerRandom.unit() * 0.2  // [0, 0.2]: never sooner than the interval (SPEC 12.3)
        return max(1, Millis((Double(baseGap) * fetch.factor * (1 + u)).rounded()))
    }

    func scheduleNextFetch(from start: Millis) {
        guard config.fetchPolicy != .manual, fetch.interval != nil, os.hasFetchAPI else { return }
        queue.cancel(fetch.dueEvent)
        fetch.dueEvent = schedule(Event(.fetch, FetchSchedule.Kind.due, a: fetch.generation), at: max(now, start + nextGap()), recurring: true)
    }

    /// Why a scheduled fetch cannot happen now (nil: eligible).
    var fetchIneligibility: String? {
        if !app.hasFetchMode { return "\"fetch\" is not in backgroundModes" }
        if fetch.interval == nil { return "the interval is Never" }
        if !device.backgroundRefresh { return "Background App Refresh is off" }
        if device.lowPowerMode { return "Low Power Mode is on" }
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
        fetch.dueEvent = schedule(Event(.fetch, FetchSchedule.Kind.due, a: fetch.generation), at: now, recurring: true)
    }

    // MARK: - Performing a fetch

    func startFetch(scheduled: Bool) {
        stats.fetches += 1
        deliverGrant(.fetch, allowed: budgets.fetch ?? 30 * Time.second, launch: .backgroundFetch,
                     wakeNote: "woken for a background fetch", detail: scheduled ? 1 : 0,
                     announce: { key in
                         log("fetch", .fetch, Text.build { t in
                             t.add("#"); t.add(key.serial)
                             if scheduled { t.add(" scheduled background fetch") } else { t.add(" simulated background fetch") }
                         }, detail: .fetchStarted(id: key.serial, scheduled: scheduled))
                     },
                     unhandled: { [unowned self] key in
                         log("fetch", .fetch, "the app does not implement performFetch")
                         _ = completeGrant(key, with: .string(FetchResult.noData.rawValue), at: nil)
                     })
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
        if isForeground, waitForMain(.hang("the fetch's move to the background (willResignActive)"), note: "the fetch", { [unowned self] in
            let left = isForeground
            if left { enterBackground(); settle() }
            startFetch(scheduled: false)
            if left { evaluateBGRequests() }  // leaving the foreground can make a request eligible
        }) { return }
        let left = isForeground
        if left {
            enterBackground()
            settle()
        }
        startFetch(scheduled: false)
        if left { evaluateBGRequests() }
    }

    /// Whether explore may simulate a fetch now: the profile and the app have fetch, the app is not
    /// in the foreground, and no fetch waits for its completion handler (iOS never overlaps two).
    var fetchInjectable: Bool {
        os.hasFetchAPI && app.hasFetchMode && !isForeground && !grants.pending.contains { $0.key.kind == .fetch }
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

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension FetchSchedule {
    func copyState(from o: FetchSchedule) {
        interval = o.interval; factor = o.factor; generation = o.generation; dueEvent = o.dueEvent; dueWhileForeground = o.dueWhileForeground
    }
}

// What the REPL's `.state` and `.pending` show: the app's state and everything still waiting
// (open tasks, pending fetch completions, in-flight requests, timers, the next scheduled fetch),
// as plain lines. Part of World; read-only.

extension World {
    /// `.state`: the app, its budget and the device, one fact a line.
    public var stateReport: [String] {
        var out = ["app        \(state.rawValue)\(pid > 0 ? " (process \(pid), launched: \(launchReason?.rawValue ?? "-"))" : "")"]
        switch backgroundTimeRemaining {
        case .infinity: out.append("remaining  background time: ∞ (foreground or not running)")
        case .integer(let s): out.append("remaining  background time: \(s)s")
        case .float(let s): out.append("remaining  background time: \(s)s")
        }
        out.append("tasks      \(tasks.open.count) open")
        let interval = fetch.interval.map { $0 == 0 ? "Minimum" : Time.human($0) } ?? "Never"
        out.append("fetch      interval \(interval) · policy \(config.fetchPolicy.rawValue) · factor ×\(formatFactor(fetch.factor))\(fetchIneligibility.map { " · ineligible: \($0)" } ?? "")")
        out.append("device     multitasking \(config.multitasking ? "on" : "off") · Background App Refresh \(config.backgroundRefresh ? "on" : "off") · Low Power Mode \(config.lowPowerMode ? "on" : "off")")
        out.append("os         \(os.rawValue) · seed \(seed)")
        return out
    }

    /// `.pending`: open tasks, pending completions, in-flight requests, timers, scheduled events.
    public var pendingReport: [String] {
        var out: [String] = []
        for t in tasks.open {
            out.append("task       #\(t.id)\(t.name.map { " \"\($0)\"" } ?? "") began \(Time.stamp(t.began))\(t.location.map { " at \($0)" } ?? "")")
        }
        if let deadline = tasks.episode?.deadline, state == .background {
            out.append("deadline   \(Time.stamp(deadline)) (expiration handlers at \(Time.stamp(deadline - budgets.expirationWarning)))")
        }
        for f in fetch.pending {
            out.append("fetch      #\(f.id) started \(Time.stamp(f.started)), completion due by \(Time.stamp(f.deadline))")
        }
        for r in inFlightRequests { out.append("request    #\(r.id) \(r.summary)") }
        for handle in timers.handlesInOrder {
            guard let t = timers[handle] else { continue }
            let id = t.serial
            let next = t.anchor + ((now - t.anchor) / t.interval + 1) * t.interval
            out.append("timer      #\(id) \(t.repeats ? "every" : "after") \(Time.human(t.interval)), next \(Time.stamp(next))\(state == .suspended ? " (waits: app suspended)" : "")")
        }
        if !parked.isEmpty { out.append("waiting    \(parked.count) block\(parked.count == 1 ? "" : "s")/timer firings until the app runs again") }
        if fetch.dueWhileForeground { out.append("fetch      due: waits until the app leaves the foreground") }
        if let next = queue.peekTimeNoMutate() { out.append("next event \(Time.stamp(next))") }
        return out.isEmpty ? ["(nothing pending)"] : out
    }

    /// Forgets a world-code error so an interactive session can go on.
    public func clearFatal() { fatal = nil }
}

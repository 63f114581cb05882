// What the REPL's `.state` and `.pending` show: the app's state and everything still waiting
// (open tasks, pending fetch completions, in-flight requests, timers, the next scheduled fetch),
// as plain lines. Part of World; read-only.

extension World {
    /// `.state`: the app, its budget and the device, one fact a line.
    public var stateReport: [String] {
        var out = ["app        \(state.rawValue)\(pid > 0 ? " (process \(pid), launched: \(launchReason?.rawValue ?? "-"))" : "")"]
        out.append("remaining  background time: " + backgroundTimeLine)
        if app.scenes { out.append("scene      \(sceneConnected ? sceneState.rawValue : "unattached (none connected)")") }
        out.append("tasks      \(tasks.open.count) open")
        let interval = fetch.interval.map { $0 == 0 ? "Minimum" : Time.human($0) } ?? "Never"
        out.append("fetch      interval \(interval) · policy \(config.fetchPolicy.rawValue) · factor ×\(formatFactor(fetch.factor))\(fetchIneligibility.map { " · ineligible: \($0)" } ?? "")")
        out.append("device     multitasking \(device.multitasking ? "on" : "off") · Background App Refresh \(device.backgroundRefresh ? "on" : "off") · Low Power Mode \(device.lowPowerMode ? "on" : "off")")
        out.append("os         \(os.rawValue) · seed \(seed)")
        return out
    }

    /// What `.state` says of the background time: what is really left in each state (the
    /// Lua value, `app.backgroundTimeRemaining`, is math.huge outside the background, as in iOS).
    var backgroundTimeLine: String {
        switch state {
        case .active, .inactive: return "∞ (in the foreground)"
        case .notRunning: return "none (not running)"
        case .suspended: return "0s (suspended: no code runs until iOS wakes or opens the app)"
        case .background:
            let seconds: String
            switch backgroundTimeRemaining {
            case .infinity: seconds = "∞"
            case .integer(let s): seconds = "\(s)s"
            case .float(let s): seconds = "\(s)s"
            }
            return tasks.episode?.deadline == nil ? seconds + " (not counting down: no task open)" : seconds
        }
    }

    /// `.pending`: what each subsystem waits for (open tasks, pending completions, in-flight
    /// requests, timers, parked blocks, a fetch waiting for the background), then the next event.
    public var pendingReport: [String] {
        var out = subsystems.flatMap { $0.pendingLines(in: self) }
        if let next = queue.peekTimeNoMutate() { out.append("next event \(Time.stamp(next))") }
        return out.isEmpty ? ["(nothing pending)"] : out
    }

    /// Forgets a world-code error so an interactive session can go on.
    public func clearFatal() { fatal = nil }
}

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
        if app.scenes { out.append("scene      \(sceneConnected ? sceneState.rawValue : "unattached (none connected)")") }
        out.append("tasks      \(tasks.open.count) open")
        let interval = fetch.interval.map { $0 == 0 ? "Minimum" : Time.human($0) } ?? "Never"
        out.append("fetch      interval \(interval) · policy \(config.fetchPolicy.rawValue) · factor ×\(formatFactor(fetch.factor))\(fetchIneligibility.map { " · ineligible: \($0)" } ?? "")")
        out.append("device     multitasking \(device.multitasking ? "on" : "off") · Background App Refresh \(device.backgroundRefresh ? "on" : "off") · Low Power Mode \(device.lowPowerMode ? "on" : "off")")
        out.append("os         \(os.rawValue) · seed \(seed)")
        return out
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

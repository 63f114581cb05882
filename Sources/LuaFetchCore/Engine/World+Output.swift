// The World's output: timeline entries (`log`, kept or streamed to the sink), `print`,
// violations, the debugger's watchdog terminations, choice points (`--order`) and crashes. Uses
// the violation table (Violations.swift) and the report's sink.

extension World {
    // MARK: - Output helpers

    /// A timeline line. Its message is built only when someone reads it (a kept timeline or an
    /// output sink): `--quiet` runs format none.
    func log(_ actor: String, _ kind: TimelineEntry.Kind, _ message: @autoclosure () -> String, violation: Int? = nil,
             detail: TimelineEntry.Detail? = nil, location: SourceLocation? = nil) {
        // What writing the line costs (text or JSON), charged whether or not anyone reads it, so
        // that a run stops at the same point whatever its output options (SPEC 2, 11).
        host?.charge(hostWork: World.unitsPerEntry)
        guard recordTimeline || sink != nil else { return }
        let entry = TimelineEntry(time: now, actor: actor, kind: kind, message: message(), violation: violation, detail: detail,
                                  location: location)
        if recordTimeline { keep(entry) }
        sink?(entry, self)
    }

    /// Units a timeline line costs the run (its message built and written as text or JSON Lines:
    /// bench/costs.py, `print-text`; issue 40).
    public static let unitsPerEntry = 128

    private func keep(_ entry: TimelineEntry) {
        /// What one kept entry costs the host (an estimate, counted against the memory cap).
        func bytes(_ e: TimelineEntry) -> Int { 96 + e.message.utf8.count + (e.location?.file.utf8.count ?? 0) }
        var entry = entry
        switch timelineKeeping {
        case .all:
            break
        case .structured(let limit):
            guard entry.detail != nil || entry.violation != nil else { return }
            guard timeline.count < limit else { timelineDropped += 1; return }
            entry.message = ""
        case .picture(let limit):
            guard timeline.count < limit else { timelineDropped += 1; return }
            if entry.location == nil { entry.location = host?.currentLocation() }
        case .recent(let n):
            if timeline.count + 1 >= 2 * max(n, 1) {
                let drop = timeline.count + 1 - n
                for e in timeline[..<drop] { timelineBytes -= bytes(e) }
                timeline.removeFirst(drop)
                timelineDropped += drop
            }
        }
        timeline.append(entry)
        timelineBytes += bytes(entry)
    }

    /// `print`/`log` from scenario code: the actor is whoever is running.
    public func print(_ text: String) {
        let actor: String
        switch context {
        case .app: actor = "app"
        case .server: actor = serverRunning
        case .expect: actor = "expect"
        default: actor = "world"
        }
        log(actor, .log, text)
    }

    /// Records a violation and puts it on the timeline.
    func violate(_ code: ViolationCode, at location: SourceLocation?, _ message: String, traceback: String? = nil) {
        var message = message
        if let location, message.hasPrefix("\(location.plain): ") { message.removeFirst("\(location.plain): ".count) }
        else if let location, message.hasPrefix("\(location): ") { message.removeFirst("\(location): ".count) }
        violations.append(Violation(code: code, time: now, location: location, message: message, traceback: traceback,
                                    needs: stubFailureNeeds))
        log(code.actor, .violation, message, violation: violations.count - 1)
    }

    /// Whether the run is as with Xcode's debugger attached (SPEC 12.5).
    public var debugger: Bool { options.debugger || config.debugger }

    /// A termination by the watchdog (`0x8badf00d`) or for a lock held at suspension
    /// (`0xdead10cc`). With the debugger attached it does not happen: it is reported as
    /// `masked-by-debugger` and the run goes on as if it had not (SPEC 12.5). Returns whether the
    /// app was terminated.
    @discardableResult
    func watchdogTerminate(_ code: ViolationCode, at location: SourceLocation?, _ message: String) -> Bool {
        guard debugger else {
            crash(code, at: location, message)
            return true
        }
        var text = message
        if let location, text.hasPrefix("\(location.plain): ") { text.removeFirst("\(location.plain): ".count) }
        else if let location, text.hasPrefix("\(location): ") { text.removeFirst("\(location): ".count) }
        violate(.maskedByDebugger, at: location,
                "the debugger kept the app alive; on a device this is \(code.rawValue) (\(code.exceptionCode ?? "terminated")): \(text)")
        return false
    }

    /// A choice point of SPEC 12.4 (an order iOS leaves open): the first alternative unless bit i
    /// of `--order` is set for the i-th choice point met. The other order is marked on the timeline.
    func chooseOther(_ what: String) -> Bool {
        let i = stats.choicePoints
        stats.choicePoints += 1
        guard i < 64, (options.order >> UInt64(i)) & 1 == 1 else { return false }
        log("system", .info, "(choice point #\(i): \(what), in the other order (--order))")
        return true
    }

    /// The app crashes for a violation its API call caused (the caller then stops the handler).
    public func crashApp(_ code: ViolationCode, at location: SourceLocation?, _ message: String) {
        crash(code, at: location, message)
    }

    /// An error-level violation that terminates the app.
    func crash(_ code: ViolationCode, at location: SourceLocation?, _ message: String, traceback: String? = nil) {
        violate(code, at: location, message, traceback: traceback)
        terminate(reason: code.rawValue, notify: false)
    }
}

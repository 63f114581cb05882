// The text report (SPEC 8): the header, one timeline line per event
// (`+1d02:03:04.005  actor  message`, aligned, colour only when asked), and the summary: launches,
// wakes, fetches by result, requests by status, background time, expectations, and every violation
// with its code, severity, time, `file:line` and exception code. Pure Swift; the CLI prints it.

public struct TextReport {
    public var color: Bool
    public var version: String
    let actorWidth: Int

    public init(world: World, version: String, color: Bool) {
        self.color = color
        self.version = version
        let fixed = ["user", "system", "app", "task", "fetch", "net", "expect", "world"]
        actorWidth = (fixed + world.serverNames).map(\.count).max() ?? 6
    }

    // MARK: - Colour

    enum Style: String { case dim = "2", bold = "1", red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36" }

    func paint(_ s: String, _ styles: Style...) -> String {
        guard color, !styles.isEmpty else { return s }
        return "\u{1b}[\(styles.map(\.rawValue).joined(separator: ";"))m\(s)\u{1b}[0m"
    }

    // MARK: - Lines

    public func header(_ world: World) -> String {
        "luafetch \(version) · scenario \"\(world.config.name)\" · os \(world.os.rawValue) · seed \(world.seed)"
    }

    public func line(_ e: TimelineEntry, in world: World) -> String {
        let actor = e.actor.padding(actorWidth)
        var message = e.message
        if let i = e.violation {
            let v = world.violations[i]
            message = violationText(v)
        }
        let stamp = paint(Time.stamp(e.time), .dim)
        switch e.kind {
        case .violation:
            let v = world.violations[e.violation!]
            let text = "\(stamp)  \(paint(actor, v.severity == .error ? .red : .yellow))  \(paint(message, v.severity == .error ? .red : .yellow))"
            guard let frames = v.traceback.flatMap(TextReport.scenarioFrames) else { return text }
            let indent = String(repeating: " ", count: Time.stamp(e.time).count + 2 + actorWidth + 2)
            return text + frames.map { "\n" + indent + paint($0, .dim) }.joined()
        
        case .state: return "\(stamp)  \(paint(actor, .bold))  \(paint(message, .cyan))"
        case .action: return "\(stamp)  \(paint(actor, .bold))  \(message)"
        case .info: return "\(stamp)  \(actor)  \(paint(message, .dim))"
        case .expect:
            return "\(stamp)  \(actor)  \(paint(message, message.hasPrefix("✓") ? .green : .red))"
        default: return "\(stamp)  \(actor)  \(message)"
        }
    }

    /// `line(e, in:)` appended as UTF-8, for the lines that need no colour and no violation text
    /// (nearly all: the streamed timeline's hot path, no String in between); false, with nothing
    /// appended, for the others.
    public func append(_ e: TimelineEntry, to out: inout [UInt8]) -> Bool {
        guard !color, e.violation == nil, e.kind != .violation else { return false }
        Time.appendStamp(e.time, to: &out)
        out.append(0x20); out.append(0x20)
        out.append(contentsOf: e.actor.utf8)
        let width = e.actor.utf8.allSatisfy { $0 < 0x80 } ? e.actor.utf8.count : e.actor.count
        for _ in width..<max(width, actorWidth) { out.append(0x20) }
        out.append(0x20); out.append(0x20)
        out.append(contentsOf: e.message.utf8)
        return true
    }

    /// The scenario's frames of a Lua traceback (`file:line: in function ...`), without C frames
    /// and luafetch's own; nil when they add nothing to the violation's line (one frame).
    static func scenarioFrames(_ traceback: String) -> [String]? {
        let frames = traceback.split(separator: "\n").filter { $0.hasPrefix("\t") }.map { $0.dropFirst() }
            .filter { !$0.hasPrefix("[C]") && !$0.hasPrefix("luafetch:") && !$0.hasPrefix("(...tail calls...)") }
        guard frames.count > 1 else { return nil }
        return ["stack traceback:"] + frames.map { "  " + $0 }
    }

    /// `✗ task-expired [error, 0x8badf00d] file:line: message`, then `; needs X to fail (F.swift:N)`
    /// when it came after a stub failure (SPEC 18.9.4).
    public func violationText(_ v: Violation) -> String {
        let mark = v.severity == .error ? "✗" : "⚠"
        let code = [v.severity.rawValue, v.exceptionCode].compactMap { $0 }.joined(separator: ", ")
        return "\(mark) \(v.code.rawValue) [\(code)] \(v.location.map { "\($0): " } ?? "")\(v.messageAndNeeds)"
    }

    // MARK: - Summary

    public func summary(_ world: World) -> [String] {
        let s = world.stats
        var out: [String] = []
        out.append(paint("── summary " + String(repeating: "─", count: 50), .dim))
        out.append("ran        \(Time.stamp(world.now)) of virtual time · \(s.events) event\(s.events == 1 ? "" : "s")")
        out.append("launches   \(s.userLaunches) by the user · \(s.backgroundLaunches) in the background · \(s.wakes) wake\(s.wakes == 1 ? "" : "s") from suspension · \(s.terminations) termination\(s.terminations == 1 ? "" : "s")")
        var bg = s.backgroundTime
        if let since = s.backgroundSince { bg += world.now - since }
        out.append("background \(Time.human(bg)) running in the background · \(s.suspensions) suspension\(s.suspensions == 1 ? "" : "s") · \(s.tasksBegun) task\(s.tasksBegun == 1 ? "" : "s") begun")
        if s.fetches > 0 || s.fetchesSkipped > 0 || world.os.hasFetchAPI && world.app.hasFetchMode && world.app.permittedIdentifiers.isEmpty {
            let results = FetchResult.allCases.map { "\(s.fetchResults[$0] ?? 0) \($0.rawValue)" }.joined(separator: " · ")
            out.append("fetches    \(s.fetches): \(results) · \(s.fetchesMissed) missed · \(s.fetchesSkipped) skipped")
        }
        if s.bgTasksLaunched > 0 || !world.app.permittedIdentifiers.isEmpty {
            let launched = world.bgTasksLaunched
            out.append("bgtasks    \(s.bgTasksLaunched) launched\(launched.isEmpty ? "" : ": " + launched.map { "\($0.identifier) ×\($0.count)" }.joined(separator: " · "))")
        }
        if s.transfers > 0 || !world.sessions.sessions.isEmpty {
            out.append("transfers  \(s.transfers) finished in background URL sessions")
        }
        if s.pushes > 0 {
            out.append("pushes     \(s.pushes): \(s.pushesDelivered) delivered · \(s.pushesDropped) dropped")
        }
        if s.requests > 0 {
            let statuses = s.responses.keys.sorted().map { "\($0) ×\(s.responses[$0]!)" }
            let errors = s.networkErrors.keys.sorted().map { "\($0) ×\(s.networkErrors[$0]!)" }
            let open = s.requests - s.responses.values.reduce(0, +) - s.networkErrors.values.reduce(0, +)
            let inFlight = open > 0 ? ["\(open) in flight at the end"] : []
            out.append("requests   \(s.requests): " + (statuses + errors + inFlight).joined(separator: " · "))
        }
        let results = world.expectationResults
        let unchecked = world.uncheckedExpectations
        if !results.isEmpty || unchecked > 0 {
            let failed = results.filter { !$0.passed }.count
            let cut = unchecked > 0 ? ", \(unchecked) not checked (the run was cut by --until)" : ""
            out.append("expect     \(results.count - failed) passed, \(failed) failed\(cut)")
            for r in results {
                let mark = r.passed ? paint("✓", .green) : paint("✗", .red)
                out.append("  \(mark) \(r.description)\(r.detail.map { ": \($0)" } ?? "")\(r.passed ? "" : r.location.map { " (\($0))" } ?? "")")
            }
        }
        if world.violations.isEmpty {
            out.append("violations none")
        } else {
            let expected = world.expectedCodes
            let errors = world.violations.filter { $0.severity == .error }.count
            out.append("violations \(errors) error\(errors == 1 ? "" : "s") · \(world.violations.count - errors) warning\(world.violations.count - errors == 1 ? "" : "s")")
            for v in world.violations {
                let note = expected.contains(v.code) ? paint(" (expected)", .dim) : ""
                out.append("  \(Time.stamp(v.time))  \(paint(violationText(v), v.severity == .error ? .red : .yellow))\(note)")
            }
        }
        return out
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

// Expectations (SPEC 8): `expect.noViolations()`, `expect.violation(code [, count])`,
// `expect.that(description, fn)` checked at the end, `expect.at(time, description, fn)`, and their
// results. Part of World.

/// The outcome of one expectation.
public struct ExpectationResult: Sendable {
    public var description: String
    public var passed: Bool
    public var time: Millis
    public var location: SourceLocation?
    public var detail: String?
    /// `expect.violation` / `expect.noViolations`: it restates the run's violations (explore
    /// reports the violations themselves).
    public var aboutViolations = false
}

final class ExpectationBook: Subsystem {
    enum Kind: UInt8 { case at }
    var noViolations: [SourceLocation?] = []
    var violations: [(code: ViolationCode, count: Int?, location: SourceLocation?)] = []
    var that: [(description: String, fn: ScriptRef, location: SourceLocation?)] = []
    var at: [(time: Millis, description: String, fn: ScriptRef, location: SourceLocation?)] = []
    var results: [ExpectationResult] = []

    func scheduleChecks(in world: World) {
        for (i, e) in at.enumerated() { world.schedule(Event(.expectations, Kind.at, a: i), at: e.time) }
    }

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        check(event.a, in: world)
    }

    func check(_ index: Int, in world: World) {
        let e = at[index]
        world.runCheck(e.description, e.fn, e.location)
    }

    /// The expectations checked at the end of the run.
    var atEndCount: Int { that.count + violations.count + noViolations.count }

    func checkAtEnd(in world: World) {
        for e in that { world.runCheck(e.description, e.fn, e.location); if world.fatal != nil { return } }
        for e in violations {
            let n = world.violations.filter { $0.code == e.code }.count
            let ok = e.count.map { n == $0 } ?? (n >= 1)
            let want = e.count.map { "exactly \($0)" } ?? "at least one"
            world.record(ExpectationResult(description: "violation \(e.code.rawValue) (\(want))", passed: ok,
                                           time: world.now, location: e.location, detail: ok ? nil : "it happened \(n) time\(n == 1 ? "" : "s")",
                                           aboutViolations: true))
        }
        for loc in noViolations {
            let n = world.violations.count
            let codes = Array(Set(world.violations.map(\.code.rawValue))).sorted().joined(separator: ", ")
            world.record(ExpectationResult(description: "no violations", passed: n == 0, time: world.now, location: loc,
                                           detail: n == 0 ? nil : "\(n) violation\(n == 1 ? "" : "s"): \(codes)", aboutViolations: true))
        }
    }
}

extension World {
    // MARK: - API

    public func expectNoViolations(at location: SourceLocation?) { expectations.noViolations.append(location) }

    public func expectViolation(_ code: ViolationCode, count: Int?, at location: SourceLocation?) {
        expectations.violations.append((code, count, location))
    }

    public func expectThat(_ description: String, _ fn: ScriptRef, at location: SourceLocation?) {
        expectations.that.append((description, fn, location))
    }

    public func expectAt(_ time: Millis, _ description: String, _ fn: ScriptRef, at location: SourceLocation?) {
        expectations.at.append((time, description, fn, location))
        if started { schedule(Event(.expectations, ExpectationBook.Kind.at, a: expectations.at.count - 1), at: time) }
    }

    public var expectationResults: [ExpectationResult] { expectations.results }

    /// Codes an `expect.violation` names: their violations do not fail the run.
    public var expectedCodes: Set<ViolationCode> { Set(expectations.violations.map(\.code)) }

    func runCheck(_ description: String, _ fn: ScriptRef, _ location: SourceLocation?) {
        let outcome = callWorld(fn, as: .expect)
        guard case .returned(let truthy) = outcome else { return }
        record(ExpectationResult(description: description, passed: truthy, time: now, location: location, detail: nil))
    }

    func record(_ r: ExpectationResult) {
        expectations.results.append(r)
        log("expect", .expect, "\(r.passed ? "✓" : "✗") \(r.description)\(r.detail.map { ": \($0)" } ?? "")\(r.passed ? "" : r.location.map { " (\($0))" } ?? "")",
            location: r.location)
    }

    /// The run's verdict (SPEC 1): 0 pass, 1 an expectation failed or an unexpected violation.
    public var exitCode: Int32 {
        if expectations.results.contains(where: { !$0.passed }) { return 1 }
        let expected = expectedCodes
        for v in violations where !expected.contains(v.code) {
            if v.severity == .error || options.strict { return 1 }
        }
        return 0
    }

    // MARK: - End of run

    /// At a `--until` cut: what is still pending, as information.
    func notePendingAtCut() {
        let parts = pendingAtEnd().parts
        guard !parts.isEmpty, state != .notRunning else { return }
        log("app", .info, "(at the cut: \(parts.joined(separator: " and ")))")
    }

    /// End-of-run expectations a `--until` cut left unchecked.
    public var uncheckedExpectations: Int { cutAt == nil ? 0 : expectations.atEndCount }

    /// What every subsystem still has pending, in SubsystemID order, and the first one's line.
    func pendingAtEnd() -> (parts: [String], location: SourceLocation?) {
        var parts: [String] = []
        var location: SourceLocation?
        for s in subsystems {
            let left = s.pendingAtEnd(in: self)
            parts += left.parts
            location = location ?? left.location
        }
        return (parts, location)
    }

    func reportPendingAtEnd() {
        let (parts, location) = pendingAtEnd()
        guard !parts.isEmpty, state != .notRunning else { return }
        violate(.pendingAtEnd, at: location,
                "the run ended with \(parts.joined(separator: " and "))")
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension ExpectationBook {
    func copyState(from o: ExpectationBook) {
        noViolations = o.noViolations; violations = o.violations; that = o.that; at = o.at; results = o.results
    }
}

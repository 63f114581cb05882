// Explore's runs, rule by rule (issue #16): an action that would do nothing, or that iOS would not
// do then, is not injected (a useful one of the run's kinds is, instead); anchored actions land in
// the window of their milestone; `--settle` lets pending work finish so cutting a run is never a
// finding; findings fold by line, with what a line always came before listed as its causes.
import LuaFetchCore
@testable import LuaFetchScripting
import Testing
import Foundation

/// Loads `source`, attaches a driver for `plan` (anchored actions until `end`), runs it.
func drive(_ source: String, _ plan: ExplorePlan, end: Millis = 3_600_000, options: RunOptions = RunOptions()) throws -> (Sim, ExploreDriver) {
    let runtime = ScenarioRuntime(path: "test.lua", options: options)
    try runtime.run(source: Array(source.utf8), chunkName: "@test.lua")
    let driver = ExploreDriver(plan: plan, world: runtime.world, end: end)
    try runtime.run()
    return (Sim(runtime: runtime, error: nil), driver)
}

@Suite struct ExploreDriverTests {
    static let plain = """
        scenario { duration = minutes(10) }
        app { }
        at(0, user.launch)
        """

    @Test func uselessActionsAreNotInjected() throws {
        // Home with the app in the background, memory pressure while it runs, an interrupt while it
        // is not active, open while it is active: none does anything, none is injected.
        let plan = ExplorePlan(actions: [
            InjectedAction(time: 1000, kind: .open), InjectedAction(time: 2000, kind: .memoryPressure),
            InjectedAction(time: 3000, kind: .home), InjectedAction(time: 4000, kind: .home),
            InjectedAction(time: 5000, kind: .interrupt(10_000)), InjectedAction(time: 6000, kind: .lowPower(false)),
        ])
        let (sim, driver) = try drive(Self.plain, plan)
        #expect(driver.performed.map(\.spec) == ["3:home"])
        #expect(!sim.messages.contains { $0.contains("nothing to purge") || $0.contains("not in the foreground") })
    }

    @Test func aUselessActionGivesWayToAUsefulOneOfTheRun() throws {
        // Home, Home, Home with home and open in the run's kinds: Home, open, Home.
        let plan = ExplorePlan(actions: [1000, 1100, 1200].map { InjectedAction(time: $0, kind: .home) },
                               alternatives: [.home, .open])
        let (_, driver) = try drive(Self.plain, plan)
        #expect(driver.performed.map(\.spec) == ["1:home", "1.1:open", "1.2:home"])
    }

    /// iOS never starts a second fetch while the app has not called the first one's completion.
    @Test func noFetchWhileOneWaitsForItsCompletion() throws {
        let source = """
            scenario { duration = minutes(10) }
            app { backgroundModes = { "fetch" },
                  performFetch = function(app, done) after(20, function() done(UIBackgroundFetchResultNoData) end) end }
            at(0, user.launch)
            at(1, user.home)
            """
        let plan = ExplorePlan(actions: [10_000, 15_000, 40_000].map { InjectedAction(time: $0, kind: .backgroundFetch) })
        let (sim, driver) = try drive(source, plan)
        #expect(driver.performed.map(\.spec) == ["10:backgroundFetch", "40:backgroundFetch"])
        #expect(sim.codes.isEmpty)
    }

    @Test func anchoredActionsLandInTheirMilestonesWindow() throws {
        // Home while the request made at activation is in flight (500 ms), on the first request.
        let source = """
            scenario { duration = minutes(10) }
            local api = server "api.test" { latency = 0.5 }
            api:route("GET /x", { status = 200 })
            app { didBecomeActive = function(app) http.get("https://api.test/x", function() end) end }
            at(0, user.launch)
            """
        let plan = ExplorePlan(actions: [], anchored: [
            .init(milestone: .request, occurrence: 1, placement: .within(0.5), kind: .home),
            .init(milestone: .suspended, occurrence: 1, placement: .after(2000), kind: .open),
            .init(milestone: .backgroundTime, occurrence: 9, placement: .before(1), kind: .forceQuit),
        ])
        let (_, driver) = try drive(source, plan)
        // Suspended at once: nothing holds the app; the person who opened it leaves after a session.
        #expect(driver.performed.map(\.spec) == ["0.25:home", "2.25:open", "18.568:home"])
    }

    /// A request's window ends when the app hears back: at its timeout, or when the connection is
    /// lost, not only when a response comes.
    @Test(arguments: [("latency = 20", "timeout = 5", "4.9:home"), ("latency = 2, failureRate = 1", "", "1.9:home")])
    func aRequestsWindowEndsWhenTheAppHearsBack(server: String, timeout: String, expected: String) throws {
        let source = """
            scenario { duration = minutes(10) }
            local api = server "api.test" { \(server) }
            api:route("GET /x", { status = 200 })
            app { didBecomeActive = function(app)
                    http.request({ url = "https://api.test/x", \(timeout) }, function() end) end }
            at(0, user.launch)
            """
        let plan = ExplorePlan(actions: [], anchored: [.init(milestone: .request, occurrence: 1, placement: .before(100), kind: .home)])
        #expect(simulate(source).messages.contains("#1 ✗ " + (timeout.isEmpty ? "connectionLost" : "timeout")))
        let (_, driver) = try drive(source, plan)
        #expect(driver.performed.map(\.spec) == [expected])  // 100 ms before the app hears back
    }

    @Test func anchoredActionsBeforeADeadline() throws {
        let source = """
            scenario { duration = minutes(10) }
            app { didEnterBackground = function(app) app:beginBackgroundTask(nil) end }
            at(0, user.launch)
            at(1, user.home)
            """
        let plan = ExplorePlan(actions: [], anchored: [.init(milestone: .backgroundTime, occurrence: 1, placement: .before(100), kind: .open)])
        let (_, driver) = try drive(source, plan)
        #expect(driver.performed.map(\.spec) == ["30.9:open", "47.218:home"])  // 100 ms before the 30 s deadline, then a session
    }

    /// A person who opened the app leaves it after a session (10 s to an hour), unless the
    /// scenario's own schedule moved it meanwhile; a force-quit app is opened again (issue 39.3).
    @Test func aPersonLeavesWhatTheyOpened() throws {
        let source = """
            scenario { duration = hours(3) }
            app {}
            at(0, user.launch)
            at(1, user.home)
            """
        let open = ExplorePlan(actions: [InjectedAction(time: 60_000, kind: .open)])
        let left = try drive(source, open, end: 3 * 3_600_000).1.performed
        #expect(left.map(\.kind.name) == ["open", "home"], "\(left.map(\.spec))")
        #expect(left.count == 2 && left[1].time >= 70_000 && left[1].time <= 60_000 + 3_600_000, "\(left.map(\.spec))")
        // The scenario sends the app Home itself 5 s after the open: that move stands.
        let own = try drive(source + "\nat(65, user.home)\n", open, end: 3 * 3_600_000).1.performed
        #expect(own.map(\.kind.name) == ["open"], "\(own.map(\.spec))")
        let quit = try drive(source, ExplorePlan(actions: [InjectedAction(time: 60_000, kind: .forceQuit)]), end: 3 * 3_600_000).1.performed
        #expect(quit.map(\.kind.name) == ["forceQuit", "open", "home"], "\(quit.map(\.spec))")
    }

    @Test func settlingLetsPendingWorkFinish() throws {
        // The run's end cuts a task that ends on its own 20 s later: pending-at-end without
        // --settle, nothing with it (the task ends, the app is suspended).
        let source = """
            scenario { duration = 60 }
            app { didEnterBackground = function(app)
                    local t = app:beginBackgroundTask(nil)
                    after(20, function() app:endBackgroundTask(t) end)
                  end }
            at(0, user.launch)
            at(50, user.home)
            """
        #expect(simulate(source).codes == ["pending-at-end"])
        let settled = simulate(source, options: RunOptions(settle: true))
        #expect(settled.codes.isEmpty)
        #expect(settled.world.now == 70_000)
        #expect(settled.world.state == .suspended)
        // Work that never finishes still is what it is.
        let never = simulate(source.replacingOccurrences(of: "after(20, function() app:endBackgroundTask(t) end)", with: ""),
                             options: RunOptions(settle: true))
        #expect(never.codes == ["task-expired"])
    }

    @Test func settlingDoesNotRunRecurringWorkForever() {
        let s = simulate("""
            scenario { duration = 60 }
            every(1, function() end)
            app { didBecomeActive = function(app) app:beginBackgroundTask(nil) end }
            at(0, user.launch)
            """, options: RunOptions(settle: true))
        // At the end the person goes Home (SPEC 10, third amendment): the task that was never
        // going to end gets its 30 s and expires; the recurring work does not keep the run going.
        #expect(s.world.now == 90_000)
        #expect(s.codes == ["task-held-too-long", "task-expired"])
    }

    static func observation(_ code: String, _ line: Int, _ severity: Severity = .error) -> Observation {
        Observation(key: "\(code) f.lua:\(line)", code: code, severity: severity, location: "f.lua:\(line)", message: code, exception: nil)
    }

    @Test func findingsFoldByLineWithTheirCauses() {
        var f = ExploreFindings()
        let expired = Self.observation("task-expired", 5), held = Self.observation("task-held-too-long", 5, .warning)
        let crash = Self.observation("app-crash", 9), other = Self.observation("fetch-no-completion", 12)
        f.add(RunOutcome(seed: 3, schedule: Schedule(actions: []), found: [held, expired, crash]))
        f.add(RunOutcome(seed: 2, schedule: Schedule(actions: []), found: [expired, crash]))
        f.add(RunOutcome(seed: 4, schedule: Schedule(actions: []), found: [other]))
        f.add(RunOutcome(seed: 5, schedule: Schedule(actions: []), found: [other, expired]))
        // Line 9 always came after line 5: caused by it. Line 5 and line 12 are findings.
        #expect(f.roots == ["f.lua:5", "f.lua:12"])
        #expect(f.causedBy == ["f.lua:9": "f.lua:5"])
        #expect(f.lines["f.lua:5"]?.runs == 3 && f.lines["f.lua:5"]?.seed == 2)
        // A line is named by its errors first: task-expired, then the warning beside it.
        #expect(f.members("f.lua:5").map(\.first.code) == ["task-expired", "task-held-too-long"])
        // Folding is independent of the order runs finish in.
        var g = ExploreFindings()
        for seed in [5, 4, 2, 3] as [Int64] {
            let found: [Observation] = seed == 3 ? [held, expired, crash] : seed == 2 ? [expired, crash] : seed == 4 ? [other] : [other, expired]
            g.add(RunOutcome(seed: seed, schedule: Schedule(actions: []), found: found))
        }
        #expect(g.roots == f.roots && g.causedBy == f.causedBy && g.lines["f.lua:5"]?.seed == 2)
    }

    /// The ranking a report reads (issue 29, R12: it was cubic in the distinct lines) gives what
    /// the plain definitions give: each line's members, the roots, every line's order and what
    /// each line follows from, on findings folded from many seeded random runs.
    @Test func theRankingIsThePlainDefinitionsResult() {
        var f = ExploreFindings()
        var rng = SeededStream(seed: 29, stream: "ranking")
        for seed in 1...200 as ClosedRange<Int64> {
            // A few lines each run; a line 100 + n only ever after line n (a consequence).
            var found: [Observation] = []
            for _ in 0..<Int(rng.next() % 4) {
                let line = Int(rng.next() % 30)
                let codes = ["task-expired", "task-held-too-long", "app-crash", "pending-at-end"]
                let code = codes[Int(rng.next() % 4)]
                found.append(Self.observation(code, line, code == "task-held-too-long" || code == "pending-at-end" ? .warning : .error))
                if rng.next() % 2 == 0 { found.append(Self.observation("app-crash", line + 100)) }
            }
            f.add(RunOutcome(seed: seed, schedule: Schedule(actions: []), found: found))
        }
        // The definitions, computed the plain (slow) way.
        func members(_ line: String) -> [FindingRecord] {
            f.observations.values.filter { ($0.first.location ?? $0.id) == line }.sorted { a, b in
                if a.first.severity != b.first.severity { return a.first.severity == .error }
                if a.runs != b.runs { return a.runs > b.runs }
                if a.seed != b.seed { return a.seed < b.seed }
                return a.id < b.id
            }
        }
        func severity(_ line: String) -> Severity { members(line).first?.first.severity ?? .warning }
        func before(_ a: FindingRecord, _ b: FindingRecord) -> Bool {
            if severity(a.id) != severity(b.id) { return severity(a.id) == .error }
            if a.seed != b.seed { return a.seed < b.seed }
            return a.id < b.id
        }
        let all = f.lines.values.sorted(by: before)
        let roots = all.filter { $0.preceded.isEmpty }.map(\.id)
        var causes: [String: String] = [:]
        for r in f.lines.values where !r.preceded.isEmpty {
            let candidates = r.preceded.compactMap { f.lines[$0] }.filter { $0.preceded.isEmpty }
            if let best = candidates.sorted(by: { $0.runs != $1.runs ? $0.runs > $1.runs : before($0, $1) }).first { causes[r.id] = best.id }
        }
        let ranked = f.ranking
        #expect(roots.count > 5 && causes.count > 5)
        #expect(ranked.allLines.map(\.id) == all.map(\.id))
        #expect(ranked.roots == roots)
        #expect(ranked.causedBy == causes)
        for line in f.lines.keys {
            #expect(ranked.members[line]?.map(\.id) == members(line).map(\.id), "\(line)")
            #expect(ranked.severity(line) == severity(line))
            #expect(ranked.caused[line]?.map(\.id) ?? [] == all.filter { causes[$0.id] == line }.map(\.id))
        }
    }

    @Test func failedExpectationsAreFindingsButNotThoseThatRestateViolations() throws {
        let runtime = ScenarioRuntime(path: "test.lua")
        try runtime.run(source: Array("""
            scenario { duration = 10 }
            app { didEnterBackground = function(app) app:beginBackgroundTask(nil) end }
            local saved = false
            at(0, user.launch)
            at(1, user.home)
            expect.noViolations()
            expect.violation("task-unknown")
            expect.that("the note was saved", function() return saved end)
            """.utf8), chunkName: "@test.lua")
        try runtime.run()
        let found = Explorer.observations(runtime.world)
        // pending-at-end alone is never a finding (SPEC 10, third amendment).
        #expect(runtime.world.violations.map(\.code) == [.pendingAtEnd])
        #expect(found.map(\.key) == ["expectation test.lua:8"])
        #expect(found[0].message == "expected the note was saved")
    }

    @Test func twoInjectedActionsAreNeverInTheSameMillisecond() throws {
        // Home, open, Home drawn into one millisecond: each comes 1 ms after the one before, once
        // the app's blocks of that instant have run.
        let source = """
            scenario { duration = minutes(10) }
            app { didBecomeActive = function() after(0, function() print("block", now()) end) end }
            at(0, user.launch)
            """
        let plan = ExplorePlan(actions: [InjectedAction(time: 5000, kind: .home), InjectedAction(time: 5000, kind: .open),
                                         InjectedAction(time: 5000, kind: .home)])
        let (sim, driver) = try drive(source, plan)
        #expect(driver.performed.map(\.spec) == ["5:home", "5.001:open", "5.002:home"])
        #expect(sim.printed == ["block\t0", "block\t5.001"])
    }

    @Test func shrinkingKeepsAMillisecondBetweenActions() {
        // Anything with two actions fails: the gaps shrink to 1 ms, never to none.
        let start = Schedule(actions: [InjectedAction(time: 4000, kind: .home), InjectedAction(time: 9000, kind: .open),
                                       InjectedAction(time: 9500, kind: .home)])
        let minimal = Schedule.shrink(start) { batch in batch.map { $0.actions.count >= 3 } }
        #expect(minimal.actions.map(\.time) == [0, 1, 2])
    }

    @Test func aShrunkScheduleHoldsOnlyUsefulActions() throws {
        // A Simulate Background Fetch moved to where the app is in the foreground is not a
        // schedule explore may report: the replay that judges a candidate shows nothing.
        let path = try scratchScenario("""
            scenario { duration = minutes(10) }
            app { backgroundModes = { "fetch" }, performFetch = function(app, done) end }
            at(0, user.launch)
            at(60, user.home)
            """)
        let inForeground = Schedule(actions: [InjectedAction(time: 10_000, kind: .backgroundFetch)])
        let inBackground = Schedule(actions: [InjectedAction(time: 70_000, kind: .backgroundFetch)])
        #expect(try Explorer.replay(path: path, seed: 1, os: nil, schedule: inForeground).map(\.code) == ["fetch-no-completion"])
        #expect(try Explorer.replay(path: path, seed: 1, os: nil, schedule: inForeground, usefulOnly: true).isEmpty)
        #expect(try Explorer.replay(path: path, seed: 1, os: nil, schedule: inBackground, usefulOnly: true).map(\.code) == ["fetch-no-completion"])
    }

    @Test func aRunEndsWithTheAppSentHomeWhenWorkIsPending() throws {
        // A correct app holds a background task in the foreground with no deadline running: at
        // the end, --settle sends it Home; its expiration handler ends the task. No finding.
        let source = """
            scenario { duration = minutes(10) }
            app {
              didBecomeActive = function(app)
                after(598, function()
                  local t
                  t = app:beginBackgroundTask("sync", function() app:endBackgroundTask(t) end)
                end)
              end,
            }
            at(0, user.launch)
            """
        let runtime = ScenarioRuntime(path: "test.lua", options: RunOptions(settle: true))
        try runtime.run(source: Array(source.utf8), chunkName: "@test.lua")
        try runtime.run()
        let sim = Sim(runtime: runtime, error: nil)
        #expect(Explorer.observations(runtime.world).isEmpty, "\(sim.codes)")
        #expect(sim.messages.contains("goes to the Home screen"))
        #expect(runtime.world.state == .suspended)
        #expect(!sim.codes.contains("task-expired"))
        // Without work pending, nobody goes Home.
        let idle = ScenarioRuntime(path: "test.lua", options: RunOptions(settle: true))
        try idle.run(source: Array(Self.plain.utf8), chunkName: "@test.lua")
        try idle.run()
        #expect(idle.world.state == .active)
    }
}

/// Writes `source` to a scratch file (for runs that load by path, such as explore's replays).
func scratchScenario(_ source: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-tests-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent("scenario-\(abs(source.hashValue)).lua")
    try source.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

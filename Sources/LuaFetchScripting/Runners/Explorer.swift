// Explorer: the runs behind `luafetch explore` (SPEC 10). A run is the scenario with a seed and an
// ExplorePlan (LuaFetchCore's Explore.swift), settled at its end (`--settle`, so cutting a run is
// never a finding), in its own runtime (runs go on parallel threads). What a run found is a list of
// observations (violations, and failed `expect.that`/`expect.at`) in the order they happened.
// Runs fold, in any order, into one record per distinct observation (code + file:line): how many
// runs showed it, the first seed that did and its schedule, and which observations came before it
// in every run that showed it (those are its causes). The records of shards merge the same way, so
// a merged report is the one a single run prints. Uses ScenarioRuntime.
import LuaFetchCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thing a run found.
public struct Observation: Sendable, Equatable {
    /// `code file:line`: the identity of a finding across runs.
    public var key: String
    public var code: String
    public var severity: Severity
    public var location: String?
    public var message: String
    public var exception: String?
    /// When it happened (virtual time).
    public var time: Millis
    /// The stub failures its run took before it (SPEC 18.9.4), or nil.
    public var needs: String?
    /// The message as `luafetch run` prints it: with `; needs ...` when its run took a failure.
    public var messageAndNeeds: String { Violation.joined(message, needs) }

    public init(key: String, code: String, severity: Severity, location: String?, message: String, exception: String?, time: Millis = 0,
                needs: String? = nil) {
        self.key = key; self.code = code; self.severity = severity; self.location = location; self.message = message
        self.exception = exception; self.time = time; self.needs = needs
    }
}

/// What one run did and found.
public struct RunOutcome: Sendable {
    public var seed: Int64
    public var schedule: Schedule
    public var found: [Observation]
    /// The plan it carried out, the choice points it met and its guidance features (line pairs
    /// reached, ExploreGuide) when guided.
    public var plan = ExplorePlan(actions: [])
    public var choicePoints = 0
    public var features: [UInt32] = []
}

/// Everything explore knows about one distinct observation (`id`: its key), or about one line's
/// observations together (`id`: the line); records fold and merge. The run a record shows (its
/// seed, schedule, shrinking and replay) is the first that showed it with no stub failure before
/// it when any did, else the first (SPEC 18.9.4: a finding that needs no failure is shown by a run
/// that took none, and its message, its replay's, names a failure only when it needs one).
public struct FindingRecord: Sendable {
    public var id: String
    /// The observation the shown run showed first.
    public var first: Observation
    public var runs: Int
    /// The shown run's seed (the first seed that showed it, no stub failure first), and its schedule.
    public var seed: Int64
    public var schedule: Schedule
    /// The ids (of the same level) that came before it in every run that showed it.
    public var preceded: Set<String>
    /// The shrunk schedule that still shows it (nil: not shrunk, or the run's schedule did not
    /// replay it; `shrunk` tells which).
    public var minimal: Schedule?
    public var shrunk = false
    /// The observation as the minimal schedule's replay shows it (`luafetch run` with the replay
    /// command's options): what the report prints, so that the replay says the same.
    public var replayed: Observation?
    /// What it needed in every run that showed it (the shown run's stub failures, `first.needs`),
    /// or nil when a run showed it with no stub failure before it (SPEC 18.9.4).
    public var needs: String?

    public init(id: String, first: Observation, runs: Int, seed: Int64, schedule: Schedule, preceded: Set<String>,
                minimal: Schedule? = nil, shrunk: Bool = false) {
        self.id = id; self.first = first; self.runs = runs; self.seed = seed; self.schedule = schedule
        self.preceded = preceded; self.minimal = minimal; self.shrunk = shrunk; self.needs = first.needs
    }

    /// Folds in another record of the same id (another run, or another shard's record).
    mutating func merge(_ other: FindingRecord) {
        runs += other.runs
        preceded.formIntersection(other.preceded)
        if (other.needs == nil) != (needs == nil) ? other.needs == nil : other.seed < seed {
            needs = other.needs
            first = other.first; seed = other.seed; schedule = other.schedule
            minimal = other.minimal; shrunk = other.shrunk; replayed = other.replayed
        }
    }
}

/// What the runs found, at two levels: each distinct observation (code + line), and each line
/// (the violations of one line share a cause: a task begun there expires, is held too long and is
/// pending at the end). A finding is a line no other line came before in every run that showed
/// it; the lines that always came after it are what it caused.
public struct ExploreFindings: Sendable {
    /// By observation key.
    public var observations: [String: FindingRecord] = [:]
    /// By line (`file:line`, or the key when an observation has no line).
    public var lines: [String: FindingRecord] = [:]

    public init() {}

    static func line(_ o: Observation) -> String { o.location ?? o.key }

    /// Folds one run in.
    public mutating func add(_ run: RunOutcome) {
        var keys = Set<String>(), lineIDs = Set<String>()
        for o in run.found {
            if !keys.contains(o.key) {
                fold(&observations, FindingRecord(id: o.key, first: o, runs: 1, seed: run.seed, schedule: run.schedule, preceded: keys))
                keys.insert(o.key)
            }
            let l = Self.line(o)
            if !lineIDs.contains(l) {
                fold(&lines, FindingRecord(id: l, first: o, runs: 1, seed: run.seed, schedule: run.schedule, preceded: lineIDs))
                lineIDs.insert(l)
            }
        }
    }

    /// Folds in a record of a shard.
    public mutating func merge(observation r: FindingRecord) { fold(&observations, r) }
    public mutating func merge(line r: FindingRecord) { fold(&lines, r) }

    private func fold(_ book: inout [String: FindingRecord], _ r: FindingRecord) {
        if book[r.id] == nil { book[r.id] = r } else { book[r.id]!.merge(r) }
    }

    /// The observations of a line: errors first, then the most frequent, then by first seed.
    public func members(_ line: String) -> [FindingRecord] {
        observations.values.filter { Self.line($0.first) == line }.sorted(by: Ranking.memberOrder)
    }

    /// The observation a line's finding is named by (and shrunk for): its first member.
    public func headline(_ line: String) -> FindingRecord? { members(line).first }

    public func severity(_ line: String) -> Severity { headline(line)?.first.severity ?? .warning }

    public var rootCount: Int { lines.values.reduce(0) { $0 + ($1.preceded.isEmpty ? 1 : 0) } }

    /// The findings: lines no other line always came before; errors first, then by first seed.
    public var roots: [String] { ranking.roots }

    /// Every line in report order.
    public var allLines: [FindingRecord] { ranking.allLines }

    /// The finding each other line follows from: of the roots that came before it in every run,
    /// the one seen in most runs (then the first in report order).
    public var causedBy: [String: String] { ranking.causedBy }

    /// Everything a report asks about every line, computed at once.
    public var ranking: Ranking { Ranking(self) }

    /// The findings ranked for a report, computed once in O(n log n) of the records (plus each
    /// line's `preceded`): each line's members sorted once, each line's severity kept, so a report
    /// that asks about every line does not sort the observations again for each (which was cubic).
    public struct Ranking: Sendable {
        /// Each line's observations, in `memberOrder`.
        public private(set) var members: [String: [FindingRecord]] = [:]
        /// Every line in report order.
        public private(set) var allLines: [FindingRecord] = []
        /// The findings (lines no other line always came before), in report order.
        public private(set) var roots: [String] = []
        /// The finding each other line follows from (see `ExploreFindings.causedBy`).
        public private(set) var causedBy: [String: String] = [:]
        /// The lines each finding caused, in report order.
        public private(set) var caused: [String: [FindingRecord]] = [:]
        private var severities: [String: Severity] = [:]

        init(_ f: ExploreFindings) {
            for r in f.observations.values { members[ExploreFindings.line(r.first), default: []].append(r) }
            for line in Array(members.keys) { members[line]!.sort(by: Self.memberOrder) }
            for (line, m) in members { severities[line] = m.first?.first.severity }
            allLines = f.lines.values.sorted(by: reportOrder)
            roots = allLines.filter { $0.preceded.isEmpty }.map(\.id)
            for r in allLines where !r.preceded.isEmpty {
                var best: FindingRecord?
                for id in r.preceded {
                    guard let c = f.lines[id], c.preceded.isEmpty else { continue }
                    if let b = best, b.runs != c.runs ? b.runs > c.runs : reportOrder(b, c) { continue }
                    best = c
                }
                if let best {
                    causedBy[r.id] = best.id
                    caused[best.id, default: []].append(r)
                }
            }
        }

        /// The observations of a line: errors first, then the most frequent, then by first seed.
        static func memberOrder(_ a: FindingRecord, _ b: FindingRecord) -> Bool {
            if a.first.severity != b.first.severity { return a.first.severity == .error }
            if a.runs != b.runs { return a.runs > b.runs }
            if a.seed != b.seed { return a.seed < b.seed }
            return a.id < b.id
        }

        /// The observation a line's finding is named by (and shrunk for): its first member.
        public func headline(_ line: String) -> FindingRecord? { members[line]?.first }

        /// The headline observation of each finding, in report order (what a single run shrinks).
        public var headlines: [String] { roots.compactMap { headline($0)?.id } }

        public func severity(_ line: String) -> Severity { severities[line] ?? .warning }

        /// Findings that need no stub failure first (SPEC 18.9.4), then errors, then by first
        /// seed, then by line.
        func reportOrder(_ a: FindingRecord, _ b: FindingRecord) -> Bool {
            if (a.needs == nil) != (b.needs == nil) { return a.needs == nil }
            let sa = severity(a.id), sb = severity(b.id)
            if sa != sb { return sa == .error }
            if a.seed != b.seed { return a.seed < b.seed }
            return a.id < b.id
        }
    }
}

public enum Explorer {
    /// The options of every explore run: settled at the end.
    /// `failures`: `--stub-failures` (SPEC 18.9.3).
    static func options(seed: Int64, os: OSProfile?, order: UInt64, until: Millis? = nil, failures: StubFailures = .one) -> RunOptions {
        RunOptions(seed: seed, os: os, until: until, order: order, settle: true, stubDraws: .explore, stubFailures: failures)
    }

    /// Runs the scenario with `seed`, drawing its schedule from the seed (`horizon`: where
    /// absolute actions fall).
    /// `warm`: this thread's warm runtime (see `Warm`); nil loads the scenario afresh.
    /// `plan`: the plan to carry out (guided explore's, derived from its corpus); nil draws it from
    /// the seed. With a warm runtime that records coverage, the run's counts are added to the
    /// runtime's (`Warm.coverage`) and, when guided, its features returned.
    public static func run(path: String, seed: Int64, os: OSProfile?, horizon: Millis, warm: Warm? = nil,
                           plan given: ExplorePlan? = nil, failures: StubFailures = .one) throws(ScenarioError) -> RunOutcome {
        let plan = given ?? ExplorePlan.random(seed: seed, horizon: horizon)
        let runtime = try loaded(path: path, options: options(seed: seed, os: os, order: plan.order, failures: failures), warm: warm)
        let driver = ExploreDriver(plan: plan, world: runtime.world, end: horizon, seed: seed)
        let result: Result<Void, ScenarioError>
        do { try runtime.run(); result = .success(()) } catch { result = .failure(error) }
        var features: [UInt32] = []
        if let warm, runtime.coverageOn {
            if warm.coverageMode == .guided { features = runtime.coverageFeatures() }
            runtime.takeCoverage(into: &warm.coverage)
            warm.coverage.runs += 1
            warm.runsSinceLoad += 1
            for (p, b) in runtime.coverageSources where warm.sources[p] == nil { warm.sources[p] = b }
        }
        try result.get()
        // Bits past the choice points the run met changed nothing: drop them.
        var schedule = driver.schedule
        let met = runtime.world.stats.choicePoints
        if met < 64 { schedule.order &= (1 << UInt64(met)) - 1 }
        return RunOutcome(seed: seed, schedule: schedule, found: observations(runtime.world), plan: plan,
                          choicePoints: met, features: features)
    }

    /// Replays a schedule exactly as `luafetch run FILE --seed N --settle --inject ... --order N` does.
    /// `usefulOnly`: the replay shows nothing when one of its actions was not useful at its
    /// moment (a shrunk schedule holds only actions a person or the system would do then).
    public static func replay(path: String, seed: Int64, os: OSProfile?, schedule: Schedule, warm: Warm? = nil,
                              usefulOnly: Bool = false, failures: StubFailures = .one) throws(ScenarioError) -> [Observation] {
        let runtime = try loaded(path: path, options: options(seed: seed, os: os, order: schedule.order, until: schedule.until,
                                                              failures: failures), warm: warm)
        let useless = UselessCount()
        for a in schedule.actions { a.schedule(in: runtime.world, counting: usefulOnly ? useless : nil) }
        try runtime.run()
        return useless.count > 0 ? [] : observations(runtime.world)
    }

    /// A thread's warm runtime: the scenario loaded once and saved (its Lua heap, the runtime, the
    /// World), then put back before each run instead of loaded again, so a run costs what its
    /// events cost. When the scenario's top-level code draws from math.random (what it does then
    /// depends on the seed), the runtime is saved before loading instead, and each run loads the
    /// scenario's top-level code again (but not the prelude and the API). Not shared between threads.
    public final class Warm: @unchecked Sendable {
        let path: String
        var runtime: ScenarioRuntime?
        /// Whether its runs record coverage (and the line pairs guidance reads).
        public let coverageMode: CoverageMode
        /// With coverage: its runs' counts so far (`coverageCounts` adds what loading ran), and the
        /// sources of the files they loaded.
        var coverage = CoverageCounts()
        public internal(set) var sources: [String: [UInt8]] = [:]
        /// What loading the scenario ran, when the saved state is from after loading (a restored run
        /// does not run the top-level code again, but a fresh run would have), and the runs since.
        var loadCoverage: CoverageCounts?
        var runsSinceLoad = 0
        /// Whether the saved state is from before the scenario's top-level code ran, and then the
        /// scenario's source (read once).
        var savedBeforeLoad = false
        var source: [UInt8] = []
        var unsaveable = false
        /// Runs that restored a saved state, and of those, how many loaded the top-level code.
        public internal(set) var restored = 0, reloaded = 0
        public init(path: String, coverage: CoverageMode = .off) { self.path = path; self.coverageMode = coverage }

        /// The counts of every run this runtime made, each as a fresh run counts (loading included).
        public var coverageCounts: CoverageCounts {
            var c = coverage
            if let load = loadCoverage { c.add(load, times: UInt64(runsSinceLoad)) }
            return c
        }
    }

    /// `LUAFETCH_EXPLORE_COLD=1` loads every run afresh (benchmarks compare the two).
    nonisolated(unsafe) public static var warmRuns = getenv("LUAFETCH_EXPLORE_COLD").map { String(cString: $0) != "1" } ?? true

    /// A runtime with the scenario loaded and `options` given: the warm one put back, or a new one.
    static func loaded(path: String, options: RunOptions, warm: Warm?) throws(ScenarioError) -> ScenarioRuntime {
        let warm = warmRuns ? warm.flatMap { $0.path == path ? $0 : nil } : nil
        if let warm, let runtime = warm.runtime, runtime.world.options.os == options.os {
            runtime.restoreState(options: options)
            warm.restored += 1
            if warm.savedBeforeLoad {
                warm.reloaded += 1
                try runtime.run(source: warm.source, chunkName: "@" + path)
            }
            return runtime
        }
        let restorable = warm.map { !$0.unsaveable } ?? false
        let runtime = ScenarioRuntime(path: path, options: options, reuseCompiledChunks: true, restorable: restorable,
                                      coverage: warm?.coverageMode ?? .off)
        runtime.world.recordTimeline = false
        let before = restorable && runtime.saveState()
        try runtime.load()
        if let warm, restorable {
            if runtime.saveState() {
                warm.runtime = runtime
                if runtime.coverageOn {
                    // Restored runs start after loading: what loading ran is counted once for each run.
                    warm.coverage = warm.coverageCounts
                    warm.loadCoverage = runtime.takeCoverage()
                    warm.runsSinceLoad = 0
                }
            } else if before {
                warm.runtime = runtime
                warm.savedBeforeLoad = true
                warm.source = try ScenarioFile.read(path)
            } else {
                warm.unsaveable = true
            }
        }
        return runtime
    }

    /// The page of a schedule's replay (`explore --html`) and the virtual time it covered, or nil
    /// when the scenario fails to load.
    public static func page(path: String, seed: Int64, os: OSProfile?, schedule: Schedule, reproduce: String,
                            failures: StubFailures = .one) -> (html: String, virtualTime: Millis)? {
        let runtime = ScenarioRuntime(path: path, options: options(seed: seed, os: os, order: schedule.order, until: schedule.until,
                                                                   failures: failures),
                                      reuseCompiledChunks: true, coverage: .lines)
        runtime.world.timelineKeeping = .picture(limit: HTMLReport.maxEntries)
        guard (try? runtime.load()) != nil else { return nil }
        for a in schedule.actions { a.schedule(in: runtime.world) }
        guard (try? runtime.run()) != nil else { return nil }
        return (HTMLReport.build(runtime.world, reproduce: reproduce, coverage: runtime.pageCoverage(runtime.takeCoverage())), runtime.world.now)
    }

    /// What a finished run found, in the order it happened: violations the scenario does not
    /// expect, and failed expectations other than those restating violations.
    static func observations(_ world: World) -> [Observation] {
        let expected = world.expectedCodes
        var out: [(time: Millis, o: Observation)] = []
        // pending-at-end is never a finding by itself: work with no deadline when the run ends is
        // not a bug (SPEC 10, third amendment); a settled run gave every task its deadline.
        for v in world.violations where !expected.contains(v.code) && v.code != .pendingAtEnd {
            let loc = v.location?.description
            out.append((v.time, Observation(key: "\(v.code.rawValue) \(loc ?? "-")", code: v.code.rawValue, severity: v.severity,
                                            location: loc, message: v.message, exception: v.exceptionCode, time: v.time,
                                            needs: v.needs)))
        }
        for e in world.expectationResults where !e.passed && !e.aboutViolations {
            let loc = e.location?.description
            out.append((e.time, Observation(key: "expectation \(loc ?? "-")", code: "expectation", severity: .error, location: loc,
                                            message: "expected \(e.description)\(e.detail.map { ": \($0)" } ?? "")", exception: nil,
                                            time: e.time, needs: world.stubFailureNeeds)))
        }
        // Stable: violations before expectations of the same instant.
        return out.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element.o)
    }

    /// What explore learns from the scenario before its runs.
    public struct Probe: Sendable {
        /// How much virtual time absolute actions spread over: the scenario's duration, or the
        /// end of a plain run (at least ten minutes).
        public var horizon: Millis
        public var name: String
        public var os: OSProfile
        /// The scenario calls stubs (an imported one, SPEC 18.4): replays add `--stub-draws explore`.
        public var usesStubs = false
        /// Warnings found while loading it (unused stub names), for standard error.
        public var warnings: [String] = []
    }

    public static func probe(path: String, seed: Int64, os: OSProfile?) throws(ScenarioError) -> Probe {
        let runtime = ScenarioRuntime(path: path, options: RunOptions(seed: seed, os: os))
        runtime.world.recordTimeline = false
        try runtime.load()
        let world = runtime.world
        if let d = world.config.duration {
            return Probe(horizon: d, name: world.config.name, os: world.os, usesStubs: runtime.swiftRuntimeLoaded, warnings: runtime.loadWarnings)
        }
        try runtime.run()
        return Probe(horizon: max(world.now, 10 * Time.minute), name: world.config.name, os: world.os,
                     usesStubs: runtime.swiftRuntimeLoaded, warnings: runtime.loadWarnings)
    }

    /// Shrinks the record's schedule; `parallel` runs a batch of candidate schedules (in any
    /// order, on any threads, each thread with its own warm runtime or none) and returns whether
    /// each still shows the record's key, first after the same stub failures as the record's run.
    public static func shrink(_ record: FindingRecord, path: String, os: OSProfile?, failures: StubFailures = .one,
                              parallel: ([Schedule], @escaping @Sendable (Schedule, Warm?) -> Bool) -> [Bool]) -> FindingRecord {
        var r = record
        let key = record.id, seed = record.seed, needs = record.first.needs
        let stillFailsOn: @Sendable (Schedule, Warm?) -> Bool = { s, warm in
            let found = (try? replay(path: path, seed: seed, os: os, schedule: s, warm: warm, usefulOnly: true, failures: failures)) ?? []
            return found.first { $0.key == key }.map { $0.needs == needs } ?? false
        }
        let stillFails: @Sendable (Schedule) -> Bool = { stillFailsOn($0, nil) }
        r.shrunk = true
        guard stillFails(record.schedule) else { r.minimal = nil; return r }
        var minimal = Schedule.shrink(record.schedule) { batch in parallel(batch, stillFailsOn) }
        // What the minimal schedule's run shows, loaded afresh as `luafetch run` loads it: the
        // report prints it (issue 39.1: its times and task numbers, not those of the explore run
        // it was shrunk from). Then a shorter run: end it at the next whole second after it (a
        // violation; not an expectation, whose check may be at the end). A cut after the
        // observation changes nothing before it, so the same observation is what the shorter
        // replay shows.
        let seen = (try? replay(path: path, seed: seed, os: os, schedule: minimal, failures: failures))?.first(where: { $0.key == key })
        if record.first.code != "expectation", let seen {
            var shorter = minimal
            shorter.until = (seen.time / Time.second + 1) * Time.second
            if stillFails(shorter) { minimal = shorter }
        }
        r.minimal = minimal
        r.replayed = seen
        return r
    }
}

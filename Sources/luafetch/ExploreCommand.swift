// `luafetch explore FILE` (SPEC 10): runs seeds on parallel threads, each with a schedule drawn
// from its seed (ExplorePlan: swarm, bursts, milestones, pairs, orders) on top of the scenario's
// timeline, folds what the runs found into findings (Explorer), shrinks each to a minimal schedule
// and prints the report (ExploreReport.swift). `--shard K/M` runs one shard's seeds and writes
// JSON Lines that `--merge` folds into the report one big run prints; `--time` explores for a time
// budget. Output never depends on --jobs or on timing. Exit 1 if anything was found.
import ArgumentParser
import Dispatch
import LuaFetchCore
import LuaFetchScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Explore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hunt for schedules that break an app: many seeds, random user and system actions.",
        discussion: """
        Each run draws a schedule from its seed: a random subset of the user and system actions at random rates, bursts a moment apart, actions placed while a task, fetch or request is open or just before a deadline, and the orders iOS leaves open (--order; docs/RULES.md says which). Runs settle at the end (--settle), so cutting a run is never a finding. A finding is a violation (docs/RULES.md lists every code) or a failed expectation at a line; what it causes later in the same runs is listed under it. Each is shrunk to a minimal schedule and printed with a replay command and a scenario fragment.

        --time explores for a time budget instead of a number of runs; --shard K/M with --format jsonl runs one shard of the seeds, and `luafetch explore --merge FILES...` combines the shards into the report one run would print (docs/EXPLORE.md shows CI matrix and cluster set-ups).

        Exit status: 1 something was found (the examples below that explore find something: that is what they show), 0 nothing, 2 a bad scenario or usage.

        Examples:
          luafetch explore examples/explore_me.lua --runs 500
          luafetch explore examples/explore_me_fixed.lua --time 3s
          luafetch explore examples/leaky_task.lua --runs 400 --shard 1/2
        """
    )

    @Argument(help: ArgumentHelp("The scenario file (.lua); with --merge, the shards' JSON Lines files.", valueName: "file"))
    var files: [String] = []

    @Option(help: "How many runs (seeds).")
    var runs: Int?

    @Option(help: ArgumentHelp("Explore for this long instead (90s, 5m, 1h); the report says which seeds ran.", valueName: "duration"))
    var time: String?

    @Option(help: "Runs at once (threads).")
    var jobs: Int = 2

    @Option(help: "The first seed.")
    var seedFrom: Int64 = 1

    @Option(name: .customLong("os"), help: "The OS profile: ios6, ios7, ios13 or ios26.")
    var osProfile: String?

    @Option(help: "Output format: text, or jsonl (what --shard writes and --merge reads; docs/EXPLORE.md). Pages: --html DIR.")
    var format: ReportFormat = .text

    @Option(help: ArgumentHelp("Run only shard K of M (1 ≤ K ≤ M) of the seeds, or auto: from GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, Kubernetes' JOB_COMPLETION_INDEX (with --shards) or Slurm's SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT.", valueName: "K/M|auto"))
    var shard: String?

    @Option(help: ArgumentHelp("How many shards --shard auto splits into when the environment does not say (Kubernetes).", valueName: "M"))
    var shards: Int?

    @Option(help: ArgumentHelp("Also write a page (the run as a picture) of each finding's minimal run, and an index.html, to this folder.", valueName: "dir"))
    var html: String?

    @Flag(help: "Combine the JSON Lines of shards (given as the files) into one report.")
    var merge = false

    @Flag(help: "Sample schedules at random only: no corpus of runs that reached new code (shards always do).")
    var noGuide = false

    @Option(help: ArgumentHelp("How many stub calls of an imported scenario fail in a run: none, one (the default: half of the runs none, the others one call drawn from the seed among those that can fail and that the run reaches) or every (each such call with probability 1/4).", valueName: "none|one|every"))
    var stubFailures: String?

    /// `--stub-failures`, checked by validate().
    var failures: StubFailures { stubFailures.flatMap(StubFailures.init(rawValue:)) ?? .one }

    @OptionGroup var coverageOptions: CoverageOptions

    @Flag(help: "No colour (explore's report has none; accepted as by every command).")
    var noColor = false

    /// The most runs one explore process makes, and the most shards a run splits into.
    static let maxRuns = 1_000_000
    static let maxShards = 10_000
    static let defaultRuns = 100

    func validate() throws {
        if merge {
            guard !files.isEmpty else { throw ValidationError("--merge needs the shards' JSON Lines files") }
            guard runs == nil, time == nil, shard == nil, !noGuide else { throw ValidationError("--merge takes only files (and --format, --coverage)") }
            return
        }
        if coverageOptions.coverage != nil, shard != nil, format.value != .jsonl {
            throw ValidationError("a shard's coverage goes into its JSON Lines for --merge: add --format jsonl (or leave out --shard)")
        }
        guard files.count == 1 else {
            throw ValidationError(files.isEmpty ? "give the scenario file" : "give one scenario file (to combine shards, use --merge FILES...)")
        }
        if let runs {
            guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
            guard runs <= Self.maxRuns * Self.maxShards else {
                throw ValidationError("--runs \(runs) is more than explore splits (at most \(Self.maxRuns) per process and \(Self.maxShards) shards)")
            }
            if shard == nil, runs > Self.maxRuns {
                throw ValidationError("--runs \(runs) is more than one explore makes (at most \(Self.maxRuns)); split the seeds with --shard K/M or --seed-from")
            }
        }
        if let time {
            guard let t = Time.parseDuration(time), t > 0 else {
                throw ValidationError("bad --time '\(time)': use a duration like 90s, 5m or 1h")
            }
            guard runs == nil else { throw ValidationError("give --runs or --time, not both") }
            guard shard == nil else { throw ValidationError("--time and --shard do not mix: give each shard the same --runs, so the shards cover the seeds once") }
        }
        if let runs, seedFrom > Int64.max - Int64(runs - 1) {
            throw ValidationError("--seed-from \(seedFrom) with --runs \(runs) passes the largest seed (\(Int64.max)); use a smaller --seed-from")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        try StubFailures.validate(stubFailures)
        if let osProfile, OSProfile(rawValue: osProfile) == nil {
            throw ValidationError("unknown --os '\(osProfile)': use ios6, ios7, ios13 or ios26")
        }
        if let shards, shards < 1 { throw ValidationError("--shards must be at least 1") }
        if format.value == .html { throw ValidationError("explore writes text or jsonl; --html DIR writes a page for each finding's minimal run") }
        // A folder, not a page: `--html page.html` made a folder of that name (the walkthrough).
        if let dir = html, dir.lowercased().hasSuffix(".html") {
            throw ValidationError("--html takes a folder (it writes index.html and a page for each finding there): try --html \(String(dir.dropLast(5)))")
        }
        if let shard, shard != "auto", Shard.parse(shard) == nil {
            throw ValidationError("bad --shard '\(shard)': use K/M with 1 ≤ K ≤ M, like 2/8, or auto")
        }
    }

    func run() throws {
        if merge { return try mergeShards() }
        let file = files[0]
        let os = osProfile.flatMap(OSProfile.init(rawValue:))
        var shardSpec: Shard?
        if let shard {
            switch shard == "auto" ? Shard.fromEnvironment(shards: shards, get: Env.get) : Shard.parse(shard).map({ .success($0) })! {
            case .success(let s): shardSpec = s
            case .failure(let e):
                Output.error("luafetch explore: \(e.message)\n")
                throw ExitCode(2)
            }
        }
        if let s = shardSpec {
            guard s.count <= Self.maxShards else {
                Output.error("luafetch explore: --shard \(s.index)/\(s.count) is more shards than explore splits into (at most \(Self.maxShards))\n")
                throw ExitCode(2)
            }
            let mine = (runs ?? Self.defaultRuns + s.count - 1) / s.count
            guard mine <= Self.maxRuns else {
                Output.error("luafetch explore: --runs \(runs ?? Self.defaultRuns) over \(s.count) shards is \(mine) runs for this one, more than one explore makes (at most \(Self.maxRuns)); use more shards\n")
                throw ExitCode(2)
            }
        }
        let probe: Explorer.Probe
        do {
            probe = try Explorer.probe(path: file, seed: seedFrom, os: os)
        } catch {
            Output.error(error.message + "\n")
            throw ExitCode(2)
        }
        for w in probe.warnings { Output.error("\(w)\n") }
        let budget = time.flatMap(Time.parseDuration)
        // Without --runs: at most maxRuns seeds (the default count without --time), none past the largest seed.
        let room = seedFrom > Int64.max - Int64(Self.maxRuns) ? Int(Int64.max - seedFrom) + 1 : Self.maxRuns
        let total = runs ?? min(budget == nil ? Self.defaultRuns : Self.maxRuns, room)
        // Guidance needs every run's coverage, which shards do not share: shards sample at random,
        // so any split merges to the report of one unguided run.
        let guided = !noGuide && shardSpec == nil
        let coverageMode: CoverageMode = guided ? .guided : coverageOptions.coverage != nil ? .lines : .off
        let swept = try sweep(file: file, os: os, horizon: probe.horizon, total: total, shard: shardSpec, budget: budget,
                              guided: guided, coverage: coverageMode)
        var report = ExploreReport(file: file, name: probe.name, os: probe.os, osOption: os, seedFrom: seedFrom,
                                   runs: shardSpec == nil ? swept.runs : total,
                                   shard: shardSpec, timeBudget: budget == nil ? nil : time, findings: swept.findings)
        report.stubDraws = probe.usesStubs
        report.stubFailures = failures
        report.guided = guided
        report.coverage = swept.coverage
        // A single run shrinks what it reports; a shard shrinks every observation, since after
        // the merge any of them may name a finding.
        let f = report.findings
        report.findings = shrinkAll(f, file: file, os: os,
                                    keys: shardSpec == nil ? f.ranking.headlines : f.observations.keys.sorted())
        report.print(format: format.value)
        if let dir = html { try writePages(report, to: dir) }
        try writeCoverage(report)
        throw ExitCode(report.findings.roots.isEmpty ? 0 : 1)
    }

    /// `--coverage FILE`: every run's coverage (all the shards' after --merge).
    func writeCoverage(_ report: ExploreReport) throws {
        guard let path = coverageOptions.coverage else { return }
        guard let coverage = report.coverage else {
            Output.error("luafetch explore --merge: --coverage needs shards that recorded coverage (run each shard with --coverage FILE --format jsonl)\n")
            throw ExitCode(2)
        }
        if let problem = CoverageOptions.write(coverage, to: path, format: coverageOptions.format) {
            Output.error("luafetch explore: \(problem)\n")
            throw ExitCode(2)
        }
    }

    /// `--html DIR`: a page per reported finding's minimal run, and an index.
    func writePages(_ report: ExploreReport, to dir: String) throws {
        if let problem = makeFolder(dir) {
            Output.error("luafetch explore: cannot make \(dir): \(problem)\n")
            throw ExitCode(2)
        }
        var pages: [HTMLReport.IndexEntry] = []
        let ranked = report.findings.ranking
        for (n, line) in ranked.roots.enumerated() {
            guard let head = ranked.headline(line), let minimal = head.minimal, let command = report.replay(head) else { continue }
            guard let page = Explorer.page(path: report.file, seed: head.seed, os: report.osOption, schedule: minimal, reproduce: command,
                                           failures: report.stubFailures) else { continue }
            let file = "finding-\(n + 1)-\(head.first.code).html"
            if let problem = writeFile(dir + "/" + file, page.html, existing: .replace) {
                Output.error("luafetch explore: cannot write \(dir)/\(file): \(problem.message)\n")
                throw ExitCode(2)
            }
            pages.append(.init(title: "\(head.first.code) \(line)", file: file, status: head.first.severity == .warning ? .warning : .error,
                               note: (head.replayed ?? head.first).messageAndNeeds,
                               virtualTime: page.virtualTime,
                               details: "seen in \(head.runs) run\(head.runs == 1 ? "" : "s"), seed \(head.seed)"))
        }
        if let problem = writeFile(dir + "/index.html", HTMLReport.index(title: "luafetch explore · \(report.name)", entryName: "finding", pages), existing: .replace) {
            Output.error("luafetch explore: cannot write \(dir)/index.html: \(problem.message)\n")
            throw ExitCode(2)
        }
    }

    // MARK: - The runs

    /// How many of `total` seeds shard `s` runs (the i-th seed belongs to shard i mod M + 1).
    static func seeds(of s: Shard, total: Int) -> Int { total / s.count + (total % s.count >= s.index ? 1 : 0) }

    final class Sweep: @unchecked Sendable {
        var findings = ExploreFindings()
        /// Guided: the corpus, and the outcomes of the round running now (by index in the round).
        var guide = ExploreGuide()
        var round: [RunOutcome?] = []
        /// The failing run with the lowest seed (every lower seed had been handed out, so it ran: the
        /// same failure is reported whichever worker finished first).
        var failure: (index: Int, error: ScenarioError)?
        var next = 0
        var done = 0
        var stop = false
        let lock = Lock()
        func locked<T>(_ body: () -> T) -> T { lock.locked(body) }
    }

    /// Runs the seeds (every one, or one shard's: the i-th seed belongs to shard i mod M + 1);
    /// workers take the next seed in order, so a time budget always ends after a prefix of them.
    /// Guided (`guided`), the seeds run in rounds (`ExploreGuide.roundEnd`): a round's plans come
    /// from the corpus as the rounds before left it, and its runs join the corpus in seed order once
    /// the round is over, so nothing depends on which worker ran what. `coverage`: what the runs
    /// record (guidance needs the line pairs); their counts make the report's coverage.
    func sweep(file: String, os: OSProfile?, horizon: Millis, total: Int, shard: Shard?, budget: Millis?,
               guided: Bool = false, coverage: CoverageMode = .off)
        throws -> (runs: Int, findings: ExploreFindings, coverage: CoverageReport?) {
        let state = Sweep()
        let seeds: Int = shard.map { Self.seeds(of: $0, total: total) } ?? total
        let first = seedFrom
        let seed: @Sendable (Int) -> Int64 = { i in first + Int64(shard.map { i * $0.count + $0.index - 1 } ?? i) }
        let progress = Progress(enabled: isatty(2) != 0, total: budget == nil ? seeds : nil, budget: budget)
        let workers = max(1, min(jobs, seeds))
        // One warm runtime per worker, kept across rounds (worker w only ever runs on one thread at a time).
        let warms = (0..<workers).map { _ in Explorer.Warm(path: file, coverage: coverage) }
        var start = 0
        while start < seeds {
            let end = min(seeds, guided ? ExploreGuide.roundEnd(start) : seeds), first = start
            let guide = state.guide  // the corpus as the rounds before left it
            state.round = Array(repeating: nil, count: end - start)
            DispatchQueue.concurrentPerform(iterations: min(workers, end - start)) { w in
                let warm = warms[w]
                while true {
                    let i: Int? = state.locked {
                        guard !state.stop, state.failure == nil, state.next < end else { return nil }
                        if budget != nil, progress.timeIsUp { state.stop = true; return nil }
                        state.next += 1
                        return state.next - 1
                    }
                    guard let i else { return }
                    do {
                        let plan = guided && first > 0 ? guide.plan(seed: seed(i), horizon: horizon, slot: i - first) : nil
                        let outcome = try Explorer.run(path: file, seed: seed(i), os: os, horizon: horizon, warm: warm, plan: plan,
                                                       failures: failures)
                        state.locked {
                            state.findings.add(outcome)
                            if guided { state.round[i - first] = outcome }
                            state.done += 1
                            progress.update(runs: state.done) { state.findings.rootCount }
                        }
                    } catch {
                        let failure = (error as Any as? ScenarioError) ?? ScenarioError("\(file): \(error)")
                        state.locked { if state.failure.map({ i < $0.index }) ?? true { state.failure = (i, failure) } }
                        return
                    }
                }
            }
            if state.failure != nil || state.stop { break }
            if guided {
                for case let o? in state.round {
                    state.guide.add(plan: o.plan, features: o.features, observations: o.found.map(\.key), choicePoints: o.choicePoints)
                }
                state.guide.reweigh()
            }
            start = end
        }
        progress.clear()
        if let failure = state.failure?.error {
            Output.error(failure.message + "\n")
            throw ExitCode(2)
        }
        var report: CoverageReport?
        if coverage != .off {
            var counts = CoverageCounts(), sources: [String: [UInt8]] = [:]
            for w in warms {
                counts.add(w.coverageCounts)
                for (p, b) in w.sources where sources[p] == nil { sources[p] = b }
            }
            report = ScenarioRuntime.coverageReport(counts, sources: sources)
        }
        // With a time budget the seeds run are a prefix: seeds first ... first + runs - 1.
        return (state.next, state.findings, report)
    }

    /// Shrinks the findings named by `keys` (one after another; each one's candidates in parallel).
    func shrinkAll(_ found: ExploreFindings, file: String, os: OSProfile?, keys: [String]) -> ExploreFindings {
        var findings = found
        let progress = Progress(enabled: isatty(2) != 0, total: nil, budget: nil)
        // One warm runtime per worker, kept across the batches (worker w only ever runs on one thread at a time).
        let warms = (0..<max(1, jobs)).map { _ in Explorer.Warm(path: file) }
        for (n, key) in keys.enumerated() {
            progress.note("shrinking \(n + 1)/\(keys.count)")
            guard let record = findings.observations[key] else { continue }
            findings.observations[key] = Explorer.shrink(record, path: file, os: os, failures: failures) { batch, stillFails in
                let results = Verdicts(count: batch.count)
                let workers = min(jobs, batch.count)
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    for i in stride(from: w, to: batch.count, by: workers) { results.set(i, stillFails(batch[i], warms[w])) }
                }
                return results.values
            }
        }
        progress.clear()
        return findings
    }

    // MARK: - Merging shards

    /// What `--merge` reads: a shard's JSON Lines, a regular file of at most 64 MiB.
    static let shardInput = ScenarioFile.Input(
        noun: "a shard's JSON Lines file", missing: "give the files that explore --shard K/M --format jsonl wrote",
        give: "give the file a shard wrote (save its output first: explore ... --format jsonl > shard-K.jsonl)",
        tooLarge: "a shard's JSON Lines are much smaller (is it the file explore wrote?)")

    /// Reads the shards one file at a time (each is checked, read and folded before the next).
    func mergeShards() throws {
        var merge = ExploreReport.Merge()
        for path in files {
            let bytes: [UInt8]
            do {
                bytes = try ScenarioFile.input(path, as: Self.shardInput)
            } catch {
                Output.error(error.message + "\n")
                throw ExitCode(2)
            }
            if let problem = merge.add(path: path, bytes: bytes) {
                Output.error(problem.message + "\n")
                throw ExitCode(2)
            }
        }
        switch merge.finish() {
        case .success(let report):
            if coverageOptions.coverage != nil, let missing = merge.shardsWithoutCoverage.first {
                Output.error("luafetch explore --merge: --coverage needs every shard's coverage, and \(missing) has none (run each shard with --coverage FILE --format jsonl)\n")
                throw ExitCode(2)
            }
            report.print(format: format.value)
            try writeCoverage(report)
            throw ExitCode(report.findings.roots.isEmpty ? 0 : 1)
        case .failure(let e):
            Output.error("luafetch explore --merge: \(e.message)\n")
            throw ExitCode(2)
        }
    }
}

// Verdicts, shards (`--shard K/M`) and progress are ExploreShards.swift's.

// `luafetch explore FILE` (SPEC 10): runs seeds S..S+N-1 on parallel threads, each with seeded
// random user and system actions injected on top of the scenario's timeline, reports each distinct
// violation (code + file:line) once with the first seed that found it, shrinks that run's injected
// actions to a minimal list, and prints it as a scenario fragment and a replay command. Output is
// the same whatever --jobs is. Exit 1 if anything was found.
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
        Each run injects seeded random actions (home, open, forceQuit, interrupt, backgroundFetch,
        memoryPressure, low power) on top of the scenario's own timeline. Every distinct violation is
        reported once, with its first seed, a minimal list of injected actions that still produces
        it, and a replay command. Exit status 1 if anything was found, 0 if not, 2 on a bad scenario.

        Example:
          luafetch explore examples/long_task.lua --runs 200 --jobs 2
        """
    )

    @Argument(help: "The scenario file (.lua).")
    var file: String

    @Option(help: "How many runs (seeds).")
    var runs: Int = 100

    @Option(help: "Runs at once (threads).")
    var jobs: Int = 2

    @Option(help: "The first seed.")
    var seedFrom: Int64 = 1

    @Option(name: .customLong("os"), help: "The OS profile: ios6, ios7, ios13 or ios26.")
    var osProfile: String?

    @Option(help: "Output format: text or jsonl.")
    var format: OutputFormat = .text

    @Flag(help: "No colour (explore's report has none; accepted as by every command, SPEC 1).")
    var noColor = false

    /// The most runs one explore keeps results for.
    static let maxRuns = 1_000_000

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard runs <= Self.maxRuns else {
            throw ValidationError("--runs \(runs) is more than one explore keeps in memory (at most \(Self.maxRuns)); split the seeds with --seed-from")
        }
        guard seedFrom <= Int64.max - Int64(runs - 1) else {
            throw ValidationError("--seed-from \(seedFrom) with --runs \(runs) passes the largest seed (\(Int64.max)); use a smaller --seed-from")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if let osProfile, OSProfile(rawValue: osProfile) == nil {
            throw ValidationError("unknown --os '\(osProfile)': use ios6, ios7, ios13 or ios26")
        }
    }

    func run() throws {
        let os = osProfile.flatMap(OSProfile.init(rawValue:))
        let horizon: Millis
        let name: String
        do {
            horizon = try Explorer.horizon(path: file, seed: seedFrom, os: os)
            let probe = ScenarioRuntime(path: file, options: RunOptions(seed: seedFrom, os: os))
            try probe.load()
            name = probe.world.config.name
        } catch {
            Output.error(error.message + "\n")
            throw ExitCode(2)
        }
        let results = try sweep(os: os, horizon: horizon)
        let findings = Explorer.findings(path: file, os: os, results: results)
        switch format {
        case .text: printText(findings, name: name, os: os)
        case .jsonl: printJSONL(findings, name: name, os: os)
        }
        throw ExitCode(findings.isEmpty ? 0 : 1)
    }

    // MARK: - The runs

    final class Results: @unchecked Sendable {
        var items: [(seed: Int64, actions: [InjectedAction], violations: [Violation])?]
        var failure: ScenarioError?
        var done = 0
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        init(count: Int) { items = Array(repeating: nil, count: count); pthread_mutex_init(lock, nil) }
        deinit { pthread_mutex_destroy(lock); lock.deallocate() }
        func locked<T>(_ body: () -> T) -> T { pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }; return body() }
    }

    /// Runs every seed; worker j takes seeds j, j + jobs, ...; results land in seed order.
    func sweep(os: OSProfile?, horizon: Millis) throws -> [(seed: Int64, actions: [InjectedAction], violations: [Violation])] {
        let results = Results(count: runs)
        let (file, runs, jobs, first) = (self.file, self.runs, min(self.jobs, self.runs), self.seedFrom)
        let progress = isatty(2) != 0
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            var i = worker
            while i < runs {
                let seed = first + Int64(i)
                let actions = InjectedAction.random(seed: seed, horizon: horizon)
                do {
                    let v = try Explorer.run(path: file, seed: seed, os: os, actions: actions)
                    results.locked { results.items[i] = (seed, actions, v); results.done += 1 }
                } catch {
                    let failure = (error as Any as? ScenarioError) ?? ScenarioError("\(file): \(error)")
                    results.locked { if results.failure == nil { results.failure = failure } }
                    return
                }
                if progress {
                    let done = results.locked { results.done }
                    let width = 30, filled = done * width / runs
                    let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
                    let text = "\rexplore  \(bar)  \(done)/\(runs)"
                    _ = text.withCString { write(2, $0, strlen($0)) }
                }
                i += jobs
            }
        }
        if progress { _ = "\r\u{1b}[K".withCString { write(2, $0, strlen($0)) } }
        if let failure = results.failure {
            Output.error(failure.message + "\n")
            throw ExitCode(2)
        }
        return results.items.compactMap { $0 }
    }

    // MARK: - Reports

    func replay(_ f: Finding, os: OSProfile?) -> String {
        var parts = ["luafetch", "run", shellQuote(file), "--seed", String(f.seed)]
        if let os { parts += ["--os", os.rawValue] }
        if !f.minimal.isEmpty { parts += ["--inject", shellQuote(f.minimal.map(\.spec).joined(separator: ","))] }
        return parts.joined(separator: " ")
    }

    func printText(_ findings: [Finding], name: String, os: OSProfile?) {
        let last = seedFrom + Int64(runs - 1)
        Output.line("luafetch \(luafetchVersion) · explore \"\(name)\" · os \((os ?? .ios13).rawValue) · seeds \(seedFrom)–\(last) · \(runs) run\(runs == 1 ? "" : "s")")
        Output.line(findings.isEmpty ? "no violations found" : "\(findings.count) distinct violation\(findings.count == 1 ? "" : "s") found")
        for f in findings {
            let v = f.violation
            let code = [v.severity.rawValue, v.exceptionCode].compactMap { $0 }.joined(separator: ", ")
            Output.line("")
            Output.line("\(v.severity == .error ? "✗" : "⚠") \(v.code.rawValue) [\(code)] \(v.location?.description ?? "-")")
            Output.line("  \(v.message)")
            Output.line("  first at seed \(f.seed), in \(f.runs) of \(runs) runs")
            if f.minimal.isEmpty {
                Output.line("  the scenario alone produces it (no injected action needed)")
            } else {
                Output.line("  minimal injected actions (\(f.minimal.count) of \(f.actions.count)), as a scenario fragment:")
                for a in f.minimal { Output.line("    \(a.luaLine)") }
            }
            Output.line("  replay   \(replay(f, os: os))")
        }
        Output.line("")
        Output.line("result     \(findings.isEmpty ? "NOTHING FOUND (exit 0)" : "FOUND (exit 1)")")
    }

    func printJSONL(_ findings: [Finding], name: String, os: OSProfile?) {
        Output.line(JSON.object([("type", .string("header")), ("schema", .string("luafetch.explore/1")), ("version", .string(luafetchVersion)),
                                 ("scenario", .string(name)), ("file", .string(file)), ("os", .string((os ?? .ios13).rawValue)),
                                 ("seedFrom", .int(seedFrom)), ("runs", .int(runs))]).text)
        for f in findings {
            let v = f.violation
            Output.line(JSON.object([("type", .string("finding")), ("code", .string(v.code.rawValue)), ("severity", .string(v.severity.rawValue)),
                                     ("location", .opt(v.location?.description)), ("exception", .opt(v.exceptionCode)),
                                     ("message", .string(v.message)), ("seed", .int(f.seed)), ("runs", .int(f.runs)),
                                     ("actions", .array(f.actions.map { .string($0.spec) })),
                                     ("minimal", .array(f.minimal.map { .string($0.spec) })),
                                     ("replay", .string(replay(f, os: os)))]).text)
        }
        Output.line(JSON.object([("type", .string("summary")), ("runs", .int(runs)), ("findings", .int(findings.count)),
                                 ("exit", .int(findings.isEmpty ? 0 : 1))]).text)
    }
}

// `luafetch run FILE` (SPEC 1): loads the scenario, runs it, prints the header, the timeline as it
// happens and the summary, and exits 0 / 1 / 2 as the run decides. Uses LuaFetchScripting's
// ScenarioRuntime and Core's TextReport.
import ArgumentParser
import LuaFetchCore
import LuaFetchScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario and print its timeline and summary.",
        discussion: """
        Exit status: 0 every expectation held and no unexpected error-level violation; 1 an expectation failed or an unexpected error occurred (warnings too with --strict); 2 a usage or scenario error; 3 a bug in luafetch.

        Examples:
          luafetch run examples/long_task.lua --os ios6
          luafetch run examples/twitter.lua --seed 11 --until 12h
        """
    )

    @Argument(help: "The scenario file (.lua).")
    var file: String

    @Option(help: "The seed (overrides the scenario's).")
    var seed: Int64?

    @Option(name: .customLong("os"), help: "The OS profile: ios6, ios7, ios13 or ios26 (overrides the scenario's).")
    var osProfile: String?

    @Option(help: "Stop the run at this virtual time: 90, 90s, 15m, 2h, 3d, 1h30m.")
    var until: String?

    @Option(help: "Output format: text, jsonl (one JSON object per line; see docs/JSONL.md) or html (one self-contained page: the run as a picture).")
    var format: OutputFormat = .text

    @Option(help: "Also write a Chrome Trace Event file (open it in Perfetto or chrome://tracing).")
    var trace: String?

    @Option(help: ArgumentHelp("Add user and system actions, as explore does: \"12.5:home,30:interrupt=20\".",
                               valueName: "actions"))
    var inject: String?

    @Flag(help: "Print the header and the summary only.")
    var quiet = false

    @Flag(help: "No colour (also when NO_COLOR is set to a non-empty value, or stdout is not a terminal).")
    var noColor = false

    @Flag(help: "Warnings fail the run too.")
    var strict = false

    @Flag(help: "Run as with Xcode's debugger attached: never suspended, no watchdog; each termination it hides is the warning masked-by-debugger.")
    var debugger = false

    @Option(help: ArgumentHelp("Take the other order at choice points iOS leaves open: bit i of N for the i-th (docs/RULES.md: What iOS leaves unordered).", valueName: "N"))
    var order: UInt64?

    @Flag(help: "At the end (duration or --until), go on while work is pending that would finish on its own (at most an hour), as explore's runs do.")
    var settle = false

    @Option(help: ArgumentHelp("How an imported scenario's stubs draw: run, or explore (as explore's runs: whole time ranges, nil results, failure paths; replays a finding).", valueName: "run|explore"))
    var stubDraws: StubDraws = .run

    @Option(help: ArgumentHelp("With --stub-draws explore, how many stub calls fail: none, one (half of the runs none, the others one call drawn from the seed; explore's default) or every (each call that can fail, with probability 1/4).", valueName: "none|one|every"))
    var stubFailures: String?

    @OptionGroup var limitOptions: LimitOptions

    @OptionGroup var coverageOptions: CoverageOptions

    func validate() throws {
        if let osProfile, OSProfile(rawValue: osProfile) == nil {
            throw ValidationError("unknown --os '\(osProfile)': use ios6, ios7, ios13 or ios26")
        }
        if let until, Time.parseDuration(until) == nil {
            throw ValidationError("bad --until '\(until)': use a duration like 90, 90s, 15m, 2h, 3d or 1h30m")
        }
        try StubFailures.validate(stubFailures)
    }

    func run() throws {
        try RunSpec(file: file, seed: seed, osProfile: osProfile, until: until, format: format, trace: trace,
                    inject: inject, quiet: quiet, noColor: noColor, strict: strict, limits: limitOptions.limits,
                    debugger: debugger, order: order, settle: settle, stubDraws: stubDraws,
                    stubFailures: stubFailures.flatMap(StubFailures.init(rawValue:)) ?? .one,
                    coverage: coverageOptions.coverage, coverageFormat: coverageOptions.format).execute()
    }
}

/// `--coverage FILE` and `--coverage-format lcov|cobertura`, shared by run, test and explore.
struct CoverageOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Also write the line coverage of the scenario's code (and the modules it requires) to this file: lcov's tracefile format, or Cobertura XML with --coverage-format cobertura. An imported scenario's lines count at the Swift lines they came from.", valueName: "file"))
    var coverage: String?

    @Option(name: .customLong("coverage-format"), help: ArgumentHelp("The coverage file's format: lcov (Codecov, Coveralls, genhtml) or cobertura (GitLab).", valueName: "lcov|cobertura"))
    var formatName: String?

    var format: CoverageFormat { formatName.flatMap(CoverageFormat.init(rawValue:)) ?? .lcov }

    func validate() throws {
        if let formatName {
            guard CoverageFormat(rawValue: formatName) != nil else {
                throw ValidationError("unknown --coverage-format '\(formatName)': use lcov or cobertura")
            }
            guard coverage != nil else { throw ValidationError("--coverage-format \(formatName) needs --coverage FILE (where to write it)") }
        }
        if let coverage, coverage.isEmpty { throw ValidationError("--coverage needs a file name") }
    }

    /// Writes `report` to `path` in `format`; the problem (for `luafetch CMD: cannot write ...`) or nil.
    static func write(_ report: CoverageReport, to path: String, format: CoverageFormat) -> String? {
        let text = format == .lcov ? report.lcov : report.cobertura(version: "luafetch \(luafetchVersion)")
        return writeFile(path, text, existing: .replace).map { "cannot write the coverage to \(path): \($0.message)" }
    }
}

/// `--limit-instructions`, `--limit-events`, `--limit-memory` (SPEC 11), shared by run and repl.
struct LimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The whole run's limit of Lua instructions (default 1e9).", valueName: "N"))
    var limitInstructions: String?

    @Option(help: ArgumentHelp("The whole run's limit of events (default 1e7).", valueName: "N"))
    var limitEvents: String?

    @Option(help: ArgumentHelp("The memory cap in bytes, or with K, M, G (default 256M).", valueName: "BYTES"))
    var limitMemory: String?

    func validate() throws {
        for (name, value) in [("instructions", limitInstructions), ("events", limitEvents), ("memory", limitMemory)] {
            if let value, RunLimits.parse(value, for: name) == nil {
                let r = RunLimits.ranges[name]!
                throw ValidationError("bad --limit-\(name) '\(value)': a whole number from \(r.lowerBound) to \(r.upperBound)\(name == "memory" ? " (bytes; or with K, M, G)" : "")")
            }
        }
    }

    var limits: RunLimits {
        RunLimits(instructions: limitInstructions.flatMap { RunLimits.parse($0, for: "instructions") },
                  events: limitEvents.flatMap { RunLimits.parse($0, for: "events") }.map { Int($0) },
                  memory: limitMemory.flatMap { RunLimits.parse($0, for: "memory") }.map { Int($0) })
    }
}

/// A parsed `luafetch run`: what `Run` (ArgumentParser) or `RunSpec.fastParse` produce, and the run itself.
struct RunSpec {
    var file: String
    var seed: Int64?
    var osProfile: String?
    var until: String?
    var format: OutputFormat = .text
    var trace: String?
    var inject: String?
    var quiet = false
    var noColor = false
    var strict = false
    var limits = RunLimits()
    var debugger = false
    var order: UInt64?
    var settle = false
    var stubDraws = StubDraws.run
    var stubFailures = StubFailures.one
    /// `--coverage FILE` and its format.
    var coverage: String?
    var coverageFormat = CoverageFormat.lcov

    /// Parses the plain forms of `luafetch [run] FILE [options]` without ArgumentParser's reflection
    /// (most of start-up time). Anything else (help, a bad or unknown option, a repeated argument)
    /// returns nil, and ArgumentParser parses and reports it as usual.
    static func fastParse(_ args: [String]) -> RunSpec? {
        var spec = RunSpec(file: "")
        var file: String?
        var sawFormat = false
        var i = 0
        func value() -> String? {
            i += 1
            return i < args.count && !args[i].hasPrefix("-") ? args[i] : nil
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "--seed": guard let v = value(), let n = Int64(v), spec.seed == nil else { return nil }; spec.seed = n
            case "--os": guard let v = value(), OSProfile(rawValue: v) != nil, spec.osProfile == nil else { return nil }; spec.osProfile = v
            case "--until": guard let v = value(), Time.parseDuration(v) != nil, spec.until == nil else { return nil }; spec.until = v
            case "--format": guard let v = value(), let f = OutputFormat(rawValue: v) else { return nil }; spec.format = f
            case "--trace": guard let v = value(), spec.trace == nil else { return nil }; spec.trace = v
            case "--inject": guard let v = value(), spec.inject == nil else { return nil }; spec.inject = v
            case "--quiet": spec.quiet = true
            case "--no-color": spec.noColor = true
            case "--strict": spec.strict = true
            case "--debugger": spec.debugger = true
            case "--settle": spec.settle = true
            case "--stub-draws": guard let v = value(), let d = StubDraws(rawValue: v) else { return nil }; spec.stubDraws = d
            case "--stub-failures": guard let v = value(), let f = StubFailures(rawValue: v) else { return nil }; spec.stubFailures = f
            case "--coverage": guard let v = value(), !v.isEmpty, spec.coverage == nil else { return nil }; spec.coverage = v
            case "--coverage-format": guard let v = value(), let f = CoverageFormat(rawValue: v) else { return nil }; spec.coverageFormat = f; sawFormat = true
            case "--order": guard let v = value(), let n = UInt64(v), spec.order == nil else { return nil }; spec.order = n
            case "--limit-instructions":
                guard let v = value(), let n = RunLimits.parse(v, for: "instructions"), spec.limits.instructions == nil else { return nil }
                spec.limits.instructions = n
            case "--limit-events":
                guard let v = value(), let n = RunLimits.parse(v, for: "events"), spec.limits.events == nil else { return nil }
                spec.limits.events = Int(n)
            case "--limit-memory":
                guard let v = value(), let n = RunLimits.parse(v, for: "memory"), spec.limits.memory == nil else { return nil }
                spec.limits.memory = Int(n)
            default:
                guard !a.hasPrefix("-"), file == nil else { return nil }
                file = a
            }
            i += 1
        }
        guard let file, !sawFormat || spec.coverage != nil else { return nil }
        spec.file = file
        return spec
    }

    var options: RunOptions {
        RunOptions(seed: seed, os: osProfile.flatMap(OSProfile.init(rawValue:)),
                   until: until.flatMap(Time.parseDuration), strict: strict, limits: limits,
                   debugger: debugger, order: order ?? 0, settle: settle, stubDraws: stubDraws, stubFailures: stubFailures)
    }

    /// Runs the scenario: first with the lazy budget (fast), and when its watchdog doubted the run,
    /// again exactly from the start with the eager budget, printing only what the first attempt
    /// had not printed yet (the two agree up to that point: SPEC 2).
    func execute() throws {
        let code: Int32
        do {
            // LUAFETCH_BUDGET=eager skips the lazy attempt (tests compare the two; see docs/RELIABILITY.md).
            // Coverage (a file, or the page's covered lines) runs eagerly at once: its line hook
            // already routes every instruction through the hook machinery, and an abandoned lazy
            // attempt would count its lines twice.
            code = try attempt(lazy: Env.get("LUAFETCH_BUDGET") != "eager" && !collectsCoverage)
        } catch let restart as Restart {
            Output.skip(restart.printed)
            code = try attempt(lazy: false)
        }
        throw ExitCode(code)
    }

    /// The finished attempt's runtime, kept until the process exits: freeing its Lua state and world
    /// at the end of a one-shot run is work nobody waits for (about 0.5 M instructions, a sixth of an
    /// empty scenario's run; compilers skip it the same way, as clang's -disable-free).
    nonisolated(unsafe) static var finishedRuntime: ScenarioRuntime?

    /// Thrown when a lazy attempt must be redone exactly; `printed` is what it wrote to stdout.
    struct Restart: Error { var printed: Int }

    func attempt(lazy: Bool) throws -> Int32 {
        // LUAFETCH_LAZY_TICK_MS: bench/bench.py raises the watchdog's 10 ms period for callgrind,
        // whose CPU time is ~50× inflated. The budgets' results never depend on it (a doubted run is
        // redone exactly); a longer period only lets a lazy run go on longer before it is doubted.
        let tick = Env.get("LUAFETCH_LAZY_TICK_MS").flatMap { Int($0) }.map { max(1, min($0, 60_000)) } ?? 10
        let runtime = ScenarioRuntime(path: file, options: options, lazyBudget: lazy, lazyTickMs: tick,
                                      coverage: collectsCoverage ? .lines : .off)
        let start = Output.emitted
        func restartIfDoubted() throws {
            if runtime.needsExactRerun { throw Restart(printed: Output.emitted - start) }
        }
        do {
            try runtime.load()
        } catch {
            try restartIfDoubted()
            throw fail(error)
        }
        if start == 0 { for w in runtime.loadWarnings { Output.error("\(w)\n") } }
        let world = runtime.world
        if let inject {
            switch InjectedAction.parse(inject) {
            case .success(let actions): for a in actions { a.schedule(in: world) }
            case .failure(let e):
                Output.error("luafetch: bad --inject item '\(e.item)': \(e.why)\n")
                throw ExitCode(2)
            }
        }
        let color = format == .text && !noColor && Env.noColor == false && isatty(1) != 0
        let report = TextReport(world: world, version: luafetchVersion, color: color)
        let earlier = world.timeline  // what top-level code printed while loading
        world.recordTimeline = trace != nil || format == .html
        if trace == nil && format != .html { world.clearTimeline() }
        if format == .html {
            world.timelineKeeping = .picture(limit: HTMLReport.maxEntries)  // also what the trace needs
        } else if trace != nil {
            world.timelineKeeping = .structured(limit: TraceReport.maxEntries)
        }
        switch format {
        case .text:
            Output.line(report.header(world))
            if !quiet {
                world.sink = { entry, w in
                    if !Output.line(appending: { report.append(entry, to: &$0) }) { Output.line(report.line(entry, in: w)) }
                }
                for entry in earlier { Output.line(report.line(entry, in: world)) }
            }
        case .jsonl:
            Output.line(JSONLReport.header(world, version: luafetchVersion))
            if !quiet {
                world.sink = { entry, w in Output.line { JSONLReport.write(entry, in: w, to: $0) } }
                for entry in earlier { Output.line { JSONLReport.write(entry, in: world, to: $0) } }
            }
        case .html:
            break  // the page is written at the end
        }
        do {
            try runtime.run()
        } catch {
            try restartIfDoubted()
            // What ran until the error still counts.
            if let problem = writeCoverage(runtime.coverageReport(runtime.takeCoverage())) { Output.error("luafetch: \(problem)\n") }
            throw fail(error)
        }
        try restartIfDoubted()
        let code = world.exitCode
        let counts = collectsCoverage ? runtime.takeCoverage() : nil
        let covered = coverage != nil ? counts.map(runtime.coverageReport) : nil
        switch format {
        case .text:
            for line in report.summary(world) { Output.line(line) }
            Output.line("result     \(code == 0 ? "PASS" : "FAIL") (exit \(code))")
            if code != 0 { Output.line("reproduce  \(reproduction(world))") }
        case .jsonl:
            Output.line(JSONLReport.summary(world, reproduce: code != 0 ? reproduction(world) : nil))
        case .html:
            let plain = TextReport(world: world, version: luafetchVersion, color: false)
            Output.line(HTMLReport.build(world, summary: plain.summary(world), result: "\(code == 0 ? "PASS" : "FAIL") (exit \(code))",
                                         reproduce: code != 0 ? reproduction(world) : nil, coverage: counts.map(runtime.pageCoverage)))
        }
        if let covered, let problem = writeCoverage(covered) {
            Output.error("luafetch: \(problem)\n")
            throw ExitCode(2)
        }
        if let trace {
            if let problem = writeFile(trace, TraceReport.build(world), existing: .replace) {
                Output.error("luafetch: cannot write the trace to \(trace): \(problem.message)\n")
                throw ExitCode(2)
            }
        }
        Self.finishedRuntime = runtime
        return code
    }

    /// Whether the run records coverage: for `--coverage`, and for the page's covered lines.
    var collectsCoverage: Bool { coverage != nil || format == .html }

    /// Writes `--coverage`'s file (nothing without it); the problem, or nil.
    func writeCoverage(_ report: CoverageReport) -> String? {
        guard let coverage else { return nil }
        return CoverageOptions.write(report, to: coverage, format: coverageFormat)
    }

    /// The command that replays this run exactly.
    func reproduction(_ world: World) -> String {
        var parts = ["luafetch", "run", shellQuote(file), "--seed", String(world.seed)]
        parts += ["--os", world.os.rawValue]
        if let until { parts += ["--until", until] }
        if let inject { parts += ["--inject", shellQuote(inject)] }
        if format == .jsonl { parts += ["--format", "jsonl"] }
        if strict { parts.append("--strict") }
        if debugger { parts.append("--debugger") }
        if let order, order != 0 { parts += ["--order", String(order)] }
        if settle { parts.append("--settle") }
        if stubDraws == .explore { parts += ["--stub-draws", "explore"] }
        if stubFailures != .one { parts += ["--stub-failures", stubFailures.rawValue] }
        if let n = limits.instructions { parts += ["--limit-instructions", String(n)] }
        if let n = limits.events { parts += ["--limit-events", String(n)] }
        if let n = limits.memory { parts += ["--limit-memory", String(n)] }
        return parts.joined(separator: " ")
    }

    /// Prints a scenario error (`file:line: message` plus traceback) and exits 2.
    func fail(_ error: ScenarioError) -> ExitCode {
        var text = error.message + "\n"
        if let tb = error.traceback, let tail = tracebackTail(tb) { text += tail }
        Output.error(text)
        return ExitCode(2)
    }

    /// The useful part of a Lua traceback: scenario frames only, or nil when it adds nothing.
    func tracebackTail(_ tb: String) -> String? {
        let lines = tb.split(separator: "\n").map(String.init)
        let frames = lines.filter { $0.hasPrefix("\t") && !$0.contains("[C]") && !$0.hasPrefix("\tluafetch:") }
        guard frames.count > 1 else { return nil }
        return "stack traceback:\n" + frames.joined(separator: "\n") + "\n"
    }
}

extension StubDraws: ExpressibleByArgument {}

extension StubFailures {
    /// `--stub-failures` of run and explore: one of the three, else exit 2 with "did you mean".
    static func validate(_ text: String?) throws {
        guard let text, StubFailures(rawValue: text) == nil else { return }
        let names = allCases.map(\.rawValue)
        let hint = closest(text, among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw ValidationError("unknown --stub-failures '\(text)'\(hint) (use none, one or every)")
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl, html
}

/// `--format` of the commands that print a report but never a page on stdout (`test`, `explore`):
/// the help and completions list text and jsonl only. `html` still parses, so that validate() can
/// say where those commands write pages (`--html DIR`) instead of a bare "invalid value".
struct ReportFormat: ExpressibleByArgument, Equatable {
    var value: OutputFormat
    static let text = ReportFormat(value: .text)
    init(value: OutputFormat) { self.value = value }
    init?(argument: String) {
        guard let f = OutputFormat(rawValue: argument) else { return nil }
        value = f
    }
    var defaultValueDescription: String { value.rawValue }
    static var allValueStrings: [String] { [OutputFormat.text.rawValue, OutputFormat.jsonl.rawValue] }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

func shellQuote(_ s: String) -> String {
    s.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:,=".contains($0) } ? s
        : "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}

// `luafetch test [PATH...]`: runs every scenario under the paths in parallel (TestSuite finds them
// and sets modules aside), prints one line per scenario in path order and a closing count, and
// exits 0 / 1 / 2 as `run` would for the worst of them. `--junit FILE` writes JUnit XML; under
// GitHub Actions each failure is also a workflow annotation on the scenario's line.
import ArgumentParser
import Dispatch
import LuaFetchCore
import LuaFetchScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run every scenario under the given files and folders, as a test suite.",
        discussion: """
        Folders are searched recursively for .lua files (hidden folders are skipped). A file that another file under the paths loads with require is a module, not a scenario: it is listed as skipped. Each scenario runs as `luafetch run` would run it; a scenario passes when run would exit 0 (docs/RULES.md says which violations are errors). One line per scenario (its wall-clock time, and for a failure the first violation or failed expectation with file:line), then a count. Exit status: 0 all passed, 1 a scenario failed, 2 a scenario error or bad usage.

        With --junit FILE, a JUnit XML report (GitHub, GitLab and Jenkins show it). When GITHUB_ACTIONS=true, each failure is also printed as a workflow annotation (::error file=...,line=...), so it shows on the pull request's diff.

        Examples:
          luafetch test examples
          luafetch test examples/twitter.lua examples/news.lua --seed 7
          luafetch test examples --jobs 2 --junit report.xml
        """
    )

    @Argument(help: ArgumentHelp("Scenario files and folders (default: the current folder).", valueName: "path"))
    var paths: [String] = []

    @Option(help: "Scenarios at once (threads).")
    var jobs: Int = 2

    @Option(help: "The seed (overrides each scenario's).")
    var seed: Int64?

    @Option(name: .customLong("os"), help: "The OS profile: ios6, ios7, ios13 or ios26 (overrides each scenario's).")
    var osProfile: String?

    @Flag(help: "Warnings fail a scenario too.")
    var strict = false

    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Also write a page per scenario (the run as a picture) and an index.html to this folder.", valueName: "dir"))
    var html: String?

    @Option(help: "Output format: text, or jsonl (one JSON object per scenario, then a summary; docs/JSONL.md). Pages: --html DIR.")
    var format: ReportFormat = .text

    @Flag(help: "No colour (also when NO_COLOR is set to a non-empty value, or stdout is not a terminal).")
    var noColor = false

    @OptionGroup var coverageOptions: CoverageOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if format.value == .html { throw ValidationError("test writes text or jsonl; --html DIR writes a page per scenario and an index") }
        if let osProfile, OSProfile(rawValue: osProfile) == nil {
            throw ValidationError("unknown --os '\(osProfile)': use ios6, ios7, ios13 or ios26")
        }
    }

    /// One file's result, as small as the summary, JUnit and the index need: a scenario's page is
    /// written as soon as it ran (`page` is then its file name, or `pageProblem` why it was not
    /// written), never kept.
    struct Result {
        var entry: TestSuite.Entry
        var verdict: TestSuite.Verdict?
        var ms: Int64
        var page: String?
        var pageProblem: String?
    }

    func run() throws {
        for p in paths.isEmpty ? ["."] : paths {
            if let swift = ScenarioFile.swiftInput(p) {
                Output.error("luafetch test: \(swift)\n")
                throw ExitCode(2)
            }
        }
        let (entries, missing) = TestSuite.discover(paths.isEmpty ? ["."] : paths)
        for m in missing { Output.error("luafetch test: \(m): no such file or folder\n") }
        if !missing.isEmpty { throw ExitCode(2) }
        if entries.isEmpty {
            Output.error("luafetch test: no .lua files under \(paths.isEmpty ? "." : paths.joined(separator: ", "))\n")
            throw ExitCode(2)
        }
        let options = RunOptions(seed: seed, os: osProfile.flatMap(OSProfile.init(rawValue:)), strict: strict)
        let color = format.value == .text && !noColor && !Env.noColor && isatty(1) != 0
        let annotate = Env.get("GITHUB_ACTIONS") == "true"
        let box = Box(count: entries.count)
        let scenarios = entries.indices.filter { entries[$0].requiredBy == nil }
        // Modules are settled at once; scenarios run on the workers.
        for i in entries.indices where entries[i].requiredBy != nil { box.results[i] = Result(entry: entries[i], verdict: nil, ms: 0) }
        let format = self.format.value
        let dir = self.html
        let coverage = coverageOptions.coverage != nil
        if let dir, let problem = makeFolder(dir) {
            Output.error("luafetch test: cannot make \(dir): \(problem)\n")
            throw ExitCode(2)
        }
        // Every scenario's page name, fixed before any runs (distinct, whatever the paths).
        var names = [String?](repeating: nil, count: entries.count)
        for (i, name) in zip(scenarios, HTMLReport.fileNames(for: scenarios.map { entries[$0].path })) { names[i] = name }
        let pageNames = names
        box.locked { box.flush(format: format, color: color, annotate: annotate) }
        let workers = max(1, min(jobs, scenarios.count))
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            for k in stride(from: w, to: scenarios.count, by: workers) {
                let i = scenarios[k]
                let start = Progress.clock()
                var verdict = TestSuite.run(entries[i].path, options: options, html: dir != nil, coverage: coverage)
                var result = Result(entry: entries[i], verdict: nil, ms: Progress.clock() - start)
                if let dir, let name = pageNames[i], let page = verdict.page {
                    if let problem = writeFile(dir + "/" + name, page, existing: .replace) {
                        result.pageProblem = "cannot write \(dir)/\(name): \(problem.message)"
                    } else {
                        result.page = name
                    }
                    verdict.page = nil
                }
                if let c = verdict.coverage {
                    box.locked {
                        box.coverage.add(c)
                        for (p, b) in verdict.coverageSources where box.sources[p] == nil { box.sources[p] = b }
                    }
                    verdict.coverage = nil
                    verdict.coverageSources = [:]
                }
                result.verdict = verdict
                box.locked {
                    box.results[i] = result
                    box.flush(format: format, color: color, annotate: annotate)
                }
            }
        }
        let results = box.results.compactMap { $0 }
        let verdicts = results.compactMap(\.verdict)
        let passed = verdicts.filter { $0.status == .passed }.count
        let failed = verdicts.count - passed
        let skipped = results.count - verdicts.count
        let code = verdicts.map(\.exitCode).max() ?? 0
        switch format {
        case .text, .html:
            var line = "\(passed) passed, \(failed) failed"
            if skipped > 0 { line += ", \(skipped) skipped" }
            Output.line(line)
        case .jsonl:
            Output.line(JSON.object([("type", .string("summary")), ("passed", .int(passed)), ("failed", .int(failed)),
                                     ("skipped", .int(skipped)), ("exit", .int(Int(code)))]).text)
        }
        if let dir {
            if let problem = results.lazy.compactMap(\.pageProblem).first {
                Output.error("luafetch test: \(problem)\n")
                throw ExitCode(2)
            }
            var pages: [HTMLReport.IndexEntry] = []
            for r in results {
                guard let v = r.verdict else { continue }
                let note: String
                switch v.status {
                case .passed: note = v.expectedViolations > 0 ? "passed: every violation is expected" : "passed"
                case .failed: note = "\(v.code ?? "failed")\(v.location.map { " \($0)" } ?? ""): \(TestCommand.firstLine(v.message ?? ""))"
                case .error: note = TestCommand.firstLine(v.message ?? "")  // starts with its file:line
                }
                let status: HTMLReport.IndexEntry.Status = v.status == .passed ? .passed : v.status == .failed ? .failed : .scenarioError
                pages.append(.init(title: v.path, file: r.page, status: status, note: note, virtualTime: v.status == .error ? nil : v.virtualTime,
                                   details: TestCommand.violationCount(v)))
            }
            if let problem = writeFile(dir + "/index.html", HTMLReport.index(title: "luafetch test", pages), existing: .replace) {
                Output.error("luafetch test: cannot write \(dir)/index.html: \(problem.message)\n")
                throw ExitCode(2)
            }
        }
        if let junit, let problem = writeFile(junit, JUnit.report(results), existing: .replace) {
            Output.error("luafetch test: cannot write \(junit): \(problem.message)\n")
            throw ExitCode(2)
        }
        if let path = coverageOptions.coverage {
            // Every scenario's runs added up (in any order: the same bytes whatever --jobs is).
            let report = ScenarioRuntime.coverageReport(box.coverage, sources: box.sources)
            if let problem = CoverageOptions.write(report, to: path, format: coverageOptions.format) {
                Output.error("luafetch test: \(problem)\n")
                throw ExitCode(2)
            }
        }
        throw ExitCode(code)
    }

    /// Results by index, printed in path order as soon as every earlier one is known.
    final class Box: @unchecked Sendable {
        var results: [Result?]
        var printed = 0
        /// `--coverage`: every scenario's counts, and the sources of the files they loaded.
        var coverage = CoverageCounts()
        var sources: [String: [UInt8]] = [:]
        let lock = Lock()
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func locked<T>(_ body: () -> T) -> T { lock.locked(body) }

        func flush(format: OutputFormat, color: Bool, annotate: Bool) {
            while printed < results.count, let r = results[printed] {
                printed += 1
                switch format {
                case .text, .html: Output.line(TestCommand.line(r, color: color))
                case .jsonl: Output.line(TestCommand.json(r))
                }
                if annotate, let v = r.verdict, v.status != .passed { Output.line(TestCommand.annotation(v)) }
                if format == .text && isatty(1) != 0 { Output.flush() }
            }
        }
    }

    /// "no violations", "1 violation", "3 violations, 3 expected" (the index page's details).
    static func violationCount(_ v: TestSuite.Verdict) -> String {
        if v.status == .error { return "did not run" }
        guard v.violations > 0 else { return "no violations" }
        let noun = "\(v.violations) violation\(v.violations == 1 ? "" : "s")"
        return v.expectedViolations > 0 ? "\(noun), \(v.expectedViolations) expected" : noun
    }

    static func paint(_ s: String, _ code: String, _ color: Bool) -> String { color ? "\u{1b}[\(code)m\(s)\u{1b}[0m" : s }

    /// `✓ examples/hello.lua  (12 ms)`, `✗ ... task-expired file:line: message`, `- ... skipped: ...`.
    static func line(_ r: Result, color: Bool) -> String {
        guard let v = r.verdict else {
            return "- \(r.entry.path)  skipped: a module (required by \(r.entry.requiredBy ?? "?"))"
        }
        let time = "(\(r.ms) ms)"
        switch v.status {
        case .passed: return "\(paint("✓", "32", color)) \(v.path)  \(time)"
        case .failed:
            let what = [v.code, v.location.map { "\($0):" }].compactMap { $0 }.joined(separator: " ")
            return "\(paint("✗", "31", color)) \(visible(v.path))  \(time)  \(paint(visible(what), "31", color)) \(visible(v.message ?? ""))"
        case .error:
            return "\(paint("✗", "31", color)) \(visible(v.path))  \(time)  \(paint("scenario error:", "31", color)) \(visible(firstLine(v.message ?? "")))"
        }
    }

    /// The text up to its first line break (`\n`, `\r` or both).
    static func firstLine(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if u == "\n" || u == "\r" { break }
            out.append(u)
        }
        return String(out)
    }

    /// Whether `u` is a control character a terminal or a log reader could act on: C0 (but tab),
    /// DEL, C1, and the line and paragraph separators.
    static func isControl(_ u: Unicode.Scalar) -> Bool {
        (u.value < 0x20 && u != "\t") || (0x7F...0x9F).contains(u.value) || u.value == 0x2028 || u.value == 0x2029
    }

    /// A control character written so that it shows: `\n`, `\r`, `\u{1B}`.
    static func shown(_ u: Unicode.Scalar) -> String {
        switch u {
        case "\n": return "\\n"
        case "\r": return "\\r"
        default: return "\\u{\(String(u.value, radix: 16, uppercase: true))}"
        }
    }

    /// `s` on one line of output: every control character made visible (`shown`), so a string of the
    /// scenario's (a path, an expectation's name) cannot start a new line, such as a workflow command.
    static func visible(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        return s.replacingScalars { isControl($0) ? shown($0) : nil }
    }

    static func json(_ r: Result) -> String {
        guard let v = r.verdict else {
            return JSON.object([("type", .string("scenario")), ("file", .string(r.entry.path)), ("status", .string("skipped")),
                                ("requiredBy", .opt(r.entry.requiredBy))]).text
        }
        return JSON.object([("type", .string("scenario")), ("file", .string(v.path)), ("status", .string(v.status.rawValue)),
                            ("exit", .int(Int(v.exitCode))), ("ms", .int(r.ms)), ("virtualTime", .int(v.virtualTime)),
                            ("code", .opt(v.code)), ("location", .opt(v.location?.description)), ("message", .opt(v.message))]).text
    }

    /// A GitHub Actions workflow command: `::error file=F,line=L,title=CODE::message`. Escaped scalar
    /// by scalar (a `\r\n` is one Character, which a Character-wise replacement misses): `%`, CR
    /// and LF as `%25`, `%0D`, `%0A` (GitHub shows them as line breaks inside the annotation), `:`
    /// and `,` too in properties, and any other control character made visible, so the command
    /// stays one line whatever the scenario's strings hold.
    static func annotation(_ v: TestSuite.Verdict) -> String {
        func escaped(_ s: String, property: Bool) -> String {
            s.replacingScalars { u in
                switch u {
                case "%": return "%25"
                case "\r": return "%0D"
                case "\n": return "%0A"
                case ":" where property: return "%3A"
                case "," where property: return "%2C"
                default: return isControl(u) ? shown(u) : nil
                }
            }
        }
        func property(_ s: String) -> String { escaped(s, property: true) }
        func data(_ s: String) -> String { escaped(s, property: false) }
        var props: [String]
        if let sw = v.location?.swift {
            // An imported scenario's finding goes on the Swift file (SPEC 18.5).
            props = ["file=\(property(sw.rootedPath))", "line=\(sw.line)"]
        } else {
            props = ["file=\(property(v.location?.file ?? v.path))"]
            if let line = v.location?.line, line > 0 { props.append("line=\(line)") }
        }
        props.append("title=\(property(v.code ?? "failed"))")
        return "::error \(props.joined(separator: ","))::\(data(v.message ?? "the scenario failed"))"
    }
}


/// The JUnit XML report: one testsuite, one testcase per file (a module is skipped).
enum JUnit {
    static func report(_ results: [TestCommand.Result]) -> String {
        let verdicts = results.compactMap(\.verdict)
        let failures = verdicts.filter { $0.status == .failed }.count
        let errors = verdicts.filter { $0.status == .error }.count
        let skipped = results.count - verdicts.count
        let total = results.reduce(Int64(0)) { $0 + $1.ms }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let counts = "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(total))\""
        out += "<testsuites name=\"luafetch\" \(counts)>\n"
        out += "  <testsuite name=\"luafetch\" \(counts)>\n"
        for r in results {
            let path = r.entry.path
            let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            let head = "    <testcase name=\"\(escape(path))\" classname=\"\(escape(dir))\" file=\"\(escape(path))\" time=\"\(seconds(r.ms))\""
            guard let v = r.verdict else {
                out += head + ">\n      <skipped message=\"\(escape("a module, required by \(r.entry.requiredBy ?? "?")"))\"/>\n    </testcase>\n"
                continue
            }
            switch v.status {
            case .passed: out += head + "/>\n"
            case .failed, .error:
                let tag = v.status == .failed ? "failure" : "error"
                // A scenario error's message starts with its file:line already.
                let at = v.status == .failed ? v.location.map { "\($0): " } ?? "" : ""
                let message = "\(v.code ?? "failed"): \(at)\(TestCommand.firstLine(v.message ?? ""))"
                let body = "\(at)\(v.message ?? "")"
                out += head + ">\n      <\(tag) message=\"\(escape(message))\" type=\"\(escape(v.code ?? "failed"))\">\(escape(body))</\(tag)>\n    </testcase>\n"
            }
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }


    static func seconds(_ ms: Int64) -> String { "\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000)" }

    static func escape(_ s: String) -> String { HTMLReport.escape(s) }
}

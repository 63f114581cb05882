// `luafetch run FILE` (SPEC 1): loads the scenario, runs it, prints the header, the timeline as it
// happens and the summary, and exits 0 / 1 / 2 as the run decides. Uses LuaFetchScripting's
// ScenarioRuntime and Core's TextReport.
import ArgumentParser
import Foundation
import LuaFetchCore
import LuaFetchScripting

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario and print its timeline and summary.",
        discussion: """
        Exit status: 0 every expectation held and no unexpected error-level violation; 1 an
        expectation failed or an unexpected error occurred (warnings too with --strict); 2 a usage
        or scenario error; 3 a bug in luafetch.

        Examples:
          luafetch run examples/long_task.lua --os ios6
          luafetch run examples/twitter.lua --seed 11 --until 12h
        """
    )

    @Argument(help: "The scenario file (.lua).")
    var file: String

    @Option(help: "The seed (overrides the scenario's).")
    var seed: Int64?

    @Option(name: .customLong("os"), help: "The OS profile: ios6, ios7 or ios13 (overrides the scenario's).")
    var osProfile: String?

    @Option(help: "Stop the run at this virtual time: 90, 90s, 15m, 2h, 3d.")
    var until: String?

    @Option(help: "Output format: text or jsonl (one JSON object per line; see docs/JSONL.md).")
    var format: OutputFormat = .text

    @Option(help: "Also write a Chrome Trace Event file (open it in Perfetto or chrome://tracing).")
    var trace: String?

    @Flag(help: "Print the header and the summary only.")
    var quiet = false

    @Flag(help: "No colour (also when NO_COLOR is set or stdout is not a terminal).")
    var noColor = false

    @Flag(help: "Warnings fail the run too.")
    var strict = false

    func validate() throws {
        if let osProfile, OSProfile(rawValue: osProfile) == nil {
            throw ValidationError("unknown --os '\(osProfile)': use ios6, ios7 or ios13")
        }
        if let until, Time.parseDuration(until) == nil {
            throw ValidationError("bad --until '\(until)': use a duration like 90, 90s, 15m, 2h or 3d")
        }
    }

    var options: RunOptions {
        RunOptions(seed: seed, os: osProfile.flatMap(OSProfile.init(rawValue:)),
                   until: until.flatMap(Time.parseDuration), strict: strict)
    }

    func run() throws {
        let runtime = ScenarioRuntime(path: file, options: options, lazyBudget: true)
        do {
            try runtime.load()
        } catch {
            throw fail(error)
        }
        let world = runtime.world
        let color = format == .text && !noColor && ProcessInfo.processInfo.environment["NO_COLOR"] == nil && isatty(1) != 0
        let report = TextReport(world: world, version: luafetchVersion, color: color)
        let earlier = world.timeline  // what top-level code printed while loading
        world.recordTimeline = trace != nil
        if trace == nil { world.clearTimeline() }
        switch format {
        case .text:
            Output.line(report.header(world))
            if !quiet {
                world.sink = { entry, w in Output.line(report.line(entry, in: w)) }
                for entry in earlier { Output.line(report.line(entry, in: world)) }
            }
        case .jsonl:
            Output.line(JSONLReport.header(world, version: luafetchVersion))
            if !quiet {
                world.sink = { entry, w in Output.line(JSONLReport.event(entry, in: w)) }
                for entry in earlier { Output.line(JSONLReport.event(entry, in: world)) }
            }
        }
        do {
            try runtime.run()
        } catch {
            throw fail(error)
        }
        let code = world.exitCode
        switch format {
        case .text:
            for line in report.summary(world) { Output.line(line) }
            Output.line("result     \(code == 0 ? "PASS" : "FAIL") (exit \(code))")
            if code != 0 { Output.line("reproduce  \(reproduction(world))") }
        case .jsonl:
            Output.line(JSONLReport.summary(world, reproduce: code != 0 ? reproduction(world) : nil))
        }
        if let trace {
            do {
                try TraceReport.build(world).write(toFile: trace, atomically: true, encoding: .utf8)
            } catch {
                Output.error("luafetch: cannot write the trace to \(trace): \(error.localizedDescription)\n")
                throw ExitCode(2)
            }
        }
        throw ExitCode(code)
    }

    /// The command that replays this run exactly.
    func reproduction(_ world: World) -> String {
        var parts = ["luafetch", "run", shellQuote(file), "--seed", String(world.seed)]
        parts += ["--os", world.os.rawValue]
        if let until { parts += ["--until", until] }
        if format == .jsonl { parts += ["--format", "jsonl"] }
        if strict { parts.append("--strict") }
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

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

func shellQuote(_ s: String) -> String {
    s.allSatisfy { $0.isLetter || $0.isNumber || "/._-+".contains($0) } ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

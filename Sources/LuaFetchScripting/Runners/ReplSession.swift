// ReplSession: the interactive session behind `luafetch repl [FILE]` (SPEC 9), without terminal
// I/O so it can be driven by tests. Lua input follows the standalone `lua`: a first line is tried
// as `return <line>`, a syntax error ending at <eof> asks for more, errors print with a traceback
// and the session goes on. Dot commands drive the clock. Typed code runs as world code at the
// current virtual time (app methods work while the app runs, as in a debugger).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LuaFetchCore

public final class ReplSession {
    public private(set) var runtime: ScenarioRuntime
    let file: String?
    let options: RunOptions
    let color: Bool
    /// Receives every line of output (timeline, results, errors).
    public var output: (String) -> Void
    var buffer: [String] = []
    /// What was typed and ran, with its virtual time and how many events had run before it, for `.save`.
    var typed: [(time: Millis, events: Int, source: String)] = []
    var report: TextReport
    public var quit = false

    /// Words for completion: every global, API table, method and field the runtime declared
    /// (derived from the API tables), `print`/`log`, and the dot commands.
    public var words: [String] {
        var seen = Set<String>()
        let names = (runtime.lua.declaredNames + ["print", "log"]).filter { seen.insert($0).inserted }
        return names + Self.commands.map { "." + $0.name }
    }

    static let commands: [(name: String, usage: String, help: String)] = [
        ("advance", ".advance DURATION", "advance the clock (90, 90s, 15m, 2h, 3d, 5m12s), running what falls due"),
        ("step", ".step", "run the next scheduled event"),
        ("run", ".run [until TIME]", "run to the end of the scenario, or until a virtual time"),
        ("now", ".now", "the virtual time"),
        ("state", ".state", "the app's state, background time, fetch settings, device"),
        ("pending", ".pending", "open tasks, pending completions, in-flight requests, timers"),
        ("trace", ".trace [N]", "the last N timeline lines (default 20)"),
        ("violations", ".violations", "every violation so far"),
        ("reset", ".reset", "restart from t=0 with the same scenario and seed"),
        ("save", ".save FILE", "write the scenario plus what you typed, at its virtual times, as a runnable scenario"),
        ("help", ".help", "this list"),
        ("quit", ".quit", "leave (Ctrl-D too)"),
    ]

    /// Loads `file` (if any), prints `banner` (made from the loaded world: its name, profile and
    /// seed) before anything the scenario does, runs what is due at t = 0, and is ready for input.
    public init(file: String?, options: RunOptions = RunOptions(), color: Bool = false,
                banner: ((World) -> String?)? = nil, output: @escaping (String) -> Void) throws(ScenarioError) {
        self.file = file
        self.options = options
        self.color = color
        self.output = output
        (runtime, report) = try ReplSession.makeRuntime(file: file, options: options, color: color, output: output) { world in
            if let line = banner?(world) { output(line) }
        }
    }

    /// A runtime with `file` loaded; `loaded` is called before the first timeline line prints.
    static func makeRuntime(file: String?, options: RunOptions, color: Bool, output: @escaping (String) -> Void,
                            loaded: (World) -> Void = { _ in }) throws(ScenarioError) -> (ScenarioRuntime, TextReport) {
        let runtime = ScenarioRuntime(path: file ?? "stdin", options: options)
        if file != nil { try runtime.load() }
        let world = runtime.world
        loaded(world)
        let report = TextReport(world: world, version: "", color: color)
        world.context = .repl
        world.timelineKeeping = .recent(ReplSession.keptLines)  // what .trace can show
        world.sink = { entry, w in output(report.line(entry, in: w)) }
        for entry in world.timeline { output(report.line(entry, in: world)) }
        world.advance(to: 0)
        return (runtime, report)
    }

    var world: World { runtime.world }

    /// Timeline lines the session keeps for `.trace` (older ones were printed and are gone).
    static let keptLines = 1000

    /// The prompt for the next line: "> " or, inside an unfinished chunk, ">> ".
    public var prompt: String { buffer.isEmpty ? "> " : ">> " }

    // MARK: - Input

    /// Feeds one line of input.
    public func feed(_ line: String) {
        if buffer.isEmpty {
            let trimmed = line.trimmedWhitespace()
            if trimmed.hasPrefix(".") { command(trimmed); return }
            if trimmed.isEmpty { return }
        }
        buffer.append(line)
        let source = buffer.joined(separator: "\n")
        // First as an expression (so `app.state` prints its value), then as statements.
        let lua = runtime.lua
        let asExpression = lua.compile(Array(("return " + source).utf8), chunkName: "@stdin")
        if case .success(let chunk) = asExpression {
            // Saved as a statement when it is one (a call), else as `local _ = <expression>`.
            let statement = lua.compile(Array(source.utf8), chunkName: "@stdin")
            if case .success(let other) = statement { lua.release(other) }
            execute(chunk, source: statement.isSuccess ? source : "local _ = " + source)
            return
        }
        switch lua.compile(Array(source.utf8), chunkName: "@stdin") {
        case .failure(let err):
            // A syntax error at <eof> (of either reading) means the chunk is unfinished.
            if case .failure(let other) = asExpression, err.text.hasSuffix("<eof>") || other.text.hasSuffix("<eof>") { return }
            buffer.removeAll()
            output(err.text)
        case .success(let chunk):
            execute(chunk, source: source)
        }
    }

    /// Runs a compiled chunk (and lets it go).
    func execute(_ chunk: ScriptRef, source: String) {
        buffer.removeAll()
        let lua = runtime.lua
        lua.interruptible = true
        let time = world.now
        let (r, values) = lua.runCollectingResults(chunk)
        lua.release(chunk)
        lua.interruptible = false
        if let fatal = world.fatal {
            output(runtime.expandChunkNames(fatal.message))
            world.clearFatal()
            return
        }
        switch r.status {
        case .ok:
            typed.append((time, world.stats.events, source))
            if !values.isEmpty { output(values.joined(separator: "\t")) }
        case .error:
            output(r.message)
            if let tb = r.traceback { output(tb.split(separator: "\n").filter { !$0.contains("[C]") && !$0.hasPrefix("\tluafetch:") }.joined(separator: "\n")) }
        case .budget:
            output("stdin: the line ran past the instruction budget (\(world.config.instructionBudget) Lua instructions)")
        case .memory:
            output("stdin: the line passed the memory cap")
        case .interrupted:
            output("interrupted!")
        case .stopped, .restart, .parked:
            output("stopped")
        case .runLimit:
            output("stdin: the session passed its limit of \(world.config.instructionLimit) Lua instructions; .reset starts over")
        }
    }

    /// Ctrl-C: stops a running line or `.run`, not the session. Safe to call from a signal handler.
    public func interrupt() { runtime.lua.interruptRequested = true }

    var interrupted: Bool { runtime.lua.interruptRequested }

    // MARK: - Dot commands

    func command(_ line: String) {
        let parts = line.dropFirst().split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let name = parts.first ?? ""
        let args = Array(parts.dropFirst())
        switch name {
        case "advance":
            guard let d = args.first.flatMap(Time.parseDuration) else { return usage("advance") }
            runUntil(world.now + d, clockTo: true)
        case "step":
            if !world.step(limit: Int64.max, stopWhenIdle: false) { output("(nothing is scheduled)") }
        case "run":
            if args.isEmpty {
                runUntil(world.endTime, clockTo: false, idleStops: world.config.duration == nil)
                if !interrupted { world.finish(); summary() }
            } else {
                guard args.count == 2, args[0] == "until", let t = Time.parseDuration(args[1]) else { return usage("run") }
                runUntil(t, clockTo: true)
            }
        case "now":
            output("\(Time.stamp(world.now))  (now() = \(Time.secondsText(world.now)))")
        case "state": world.stateReport.forEach(output)
        case "pending": world.pendingReport.forEach(output)
        case "trace":
            let n = args.first.flatMap { Int($0) } ?? 20
            let lines = world.timeline.suffix(max(0, n))
            if lines.isEmpty { output("(the timeline is empty)") }
            for e in lines { output(report.line(e, in: world)) }
        case "violations":
            if world.violations.isEmpty { output("(no violations)") }
            for v in world.violations { output("\(Time.stamp(v.time))  \(report.violationText(v))") }
        case "reset":
            do {
                (runtime, report) = try ReplSession.makeRuntime(file: file, options: options, color: color, output: output) { [output] world in
                    output("(reset to +0d00:00:00.000, seed \(world.seed))")  // before what t = 0 prints again
                }
                typed.removeAll()
                buffer.removeAll()
            } catch {
                output(error.message)
            }
        case "save":
            guard let path = args.first else { return usage("save") }
            do throws(ScenarioError) {
                if let problem = writeFile(path, try saved(), existing: .replace) { throw ScenarioError(problem.message) }
                output("saved \(typed.count) typed chunk\(typed.count == 1 ? "" : "s") to \(path) (run it with: luafetch run \(path) --until \(Time.secondsText(world.now)))")
            } catch {
                output("cannot write \(path): \(error.message)")
            }
        case "help":
            output("Lua lines run at the current virtual time (expressions print their value). Commands:")
            for c in Self.commands { output("  \(c.usage.padding(toWidth: 20))\(c.help)") }
        case "quit", "exit", "q":
            quit = true
        default:
            let hint = closest(name, among: Self.commands.map(\.name)).map { "; did you mean .\($0)?" } ?? ""
            output("unknown command .\(name)\(hint) (.help lists them)")
        }
    }

    func usage(_ name: String) {
        output("usage: \(Self.commands.first { $0.name == name }!.usage)")
    }

    /// Runs events up to `limit`, stopping early on Ctrl-C (checked between events).
    func runUntil(_ limit: Millis, clockTo: Bool, idleStops: Bool = false) {
        runtime.lua.interruptRequested = false
        world.start()
        while world.step(limit: limit, stopWhenIdle: idleStops) {
            if runtime.lua.interruptRequested { output("interrupted at \(Time.stamp(world.now))"); return }
        }
        if let fatal = world.fatal {
            output(runtime.expandChunkNames(fatal.message))
            world.clearFatal()
            return
        }
        if clockTo && world.now < limit { world.advance(to: limit) }
    }

    func summary() {
        for line in report.summary(world) { output(line) }
    }

    // MARK: - .save

    /// The scenario plus what was typed, each line inside `typed(time, function() ... end)`: at
    /// its virtual time, after everything else of that millisecond, with the prompt's rights.
    /// Lines typed one after another with no event in between share one `typed` (each in its own
    /// `do ... end`, as each typed line is its own chunk), so what they schedule runs after all of them.
    func saved() throws(ScenarioError) -> String {
        var out = ""
        if let file {  // first and unchanged, so its line numbers stay the same
            out += String(decoding: try ScenarioFile.read(file), as: UTF8.self)
            if !out.hasSuffix("\n") { out += "\n" }
        }
        out += "\n-- Saved by luafetch repl at \(Time.stamp(world.now))\(file.map { " from \($0)" } ?? ""); typed at the prompt:\n"
        var i = 0
        while i < typed.count {
            let (time, events, _) = typed[i]
            var group: [String] = []
            while i < typed.count, typed[i].time == time, typed[i].events == events {
                group.append(typed[i].source)
                i += 1
            }
            out += "typed(\(Time.secondsText(time)), function()\n"
            // Not indented: a long string spanning lines must stay as typed.
            out += group.map { "do\n" + $0 + "\nend\n" }.joined()
            out += "end)\n"
        }
        // Where the session's clock stood: the run goes on to it (run it with --until that time).
        out += "typed(\(Time.secondsText(world.now)), function() end)  -- the session's clock\n"
        return out
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { return true } else { return false } }
}

extension String {
    func padding(toWidth w: Int) -> String { count >= w ? self + " " : self + String(repeating: " ", count: w - count) }

}

// SPEC 9, driven in-process: expressions print values, unfinished chunks continue, errors print
// with a traceback and the session goes on, every dot command, and `.save` replays the same timeline.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

final class Transcript: @unchecked Sendable {
    var lines: [String] = []
}

func repl(_ file: String? = nil, _ input: [String]) throws -> (ReplSession, [String]) {
    let t = Transcript()
    let session = try ReplSession(file: file, output: { t.lines.append($0) })
    for line in input where !session.quit { session.feed(line) }
    return (session, t.lines)
}

let replScenario = """
    local id
    app { didEnterBackground = function(app)
            id = app:beginBackgroundTask("sync", function() app:endBackgroundTask(id) end)
          end }
    at(0, user.launch)

    """

func scenarioFile(_ source: String) throws -> String {
    let path = "/tmp/luafetch-repl-\(UInt64.random(in: 0...UInt64.max)).lua"
    if let problem = writeFile(path, source, existing: .replace) { throw problem }
    return path
}

@Suite struct ReplTests {
    @Test func completionWordsComeFromTheAPITables() throws {
        let (session, _) = try repl(nil, [])
        let words = session.words
        for w in ["app", "app:beginBackgroundTask", "app.state", "user.home", "user.interrupt", "system.setLowPowerMode",
                  "http.request", "timer.every", "expect.violation", "device.lowPowerMode", "scenario", "at",
                  "UIBackgroundFetchResultNewData", "print", ".advance", ".save"] {
            #expect(words.contains(w), "missing \(w)")
        }
        // Every action of the action table completes; nothing internal does.
        for a in ActionSpec.all { #expect(words.contains(a.qualifiedName)) }
        #expect(!words.contains { $0.hasPrefix("luafetch") || $0.hasPrefix("timer:") })
        #expect(Set(words).count == words.count)
    }

    @Test func expressionsPrintTheirValues() throws {
        let (_, out) = try repl(nil, ["1 + 2", "'a', nil, true", "{}", "now()"])
        #expect(out == ["3", "a\tnil\ttrue", "table: #1", "0"])
    }

    @Test func unfinishedChunksContinue() throws {
        let (s, out) = try repl(nil, ["for i = 1, 2 do", "print(i)"])
        #expect(s.prompt == ">> ")
        s.feed("end")
        #expect(s.prompt == "> ")
        #expect(out.isEmpty)
        let (_, sum) = try repl(nil, ["1 +", "41"])
        #expect(sum == ["42"])
    }

    @Test func errorsPrintWithATracebackAndTheSessionGoesOn() throws {
        let (_, out) = try repl(nil, ["local function f() error('boom') end f()", "x = = 1", "1 + 1"])
        #expect(out[0] == "stdin:1: boom")
        #expect(out[1].hasPrefix("stack traceback:"))
        #expect(out[2] == "stdin:1: unexpected symbol near '='")
        #expect(out.last == "2")
    }

    @Test func actionsHappenAtTheCurrentVirtualTime() throws {
        let path = try scenarioFile(replScenario)
        let (s, out) = try repl(path, [".advance 10s", "user.home()", ".now"])
        #expect(out.contains { $0.hasPrefix("+0d00:00:10.000  user    goes to the Home screen") })
        #expect(out.last == "+0d00:00:10.000  (now() = 10)")
        #expect(s.runtime.world.state == .background)
    }

    @Test func stepRunAndPending() throws {
        let path = try scenarioFile(replScenario)
        let (s, out) = try repl(path, ["user.home()", ".pending", ".step", ".run until 2m", ".now", ".pending"])
        #expect(out.contains { $0.hasPrefix("task       #1 \"sync\" began +0d00:00:00.000") })
        #expect(out.contains { $0.hasPrefix("deadline   +0d00:00:30.000") })
        #expect(out.contains { $0.contains("background time almost spent") })
        #expect(s.runtime.world.now == 120_000)
        #expect(out.last == "(nothing pending)")
    }

    @Test func runToTheEndPrintsTheSummary() throws {
        let path = try scenarioFile(replScenario + "at(60, user.home)\n")
        let (s, out) = try repl(path, [".run"])
        #expect(out.contains { $0.hasPrefix("── summary") })
        #expect(s.runtime.world.state == .suspended)
    }

    @Test func stateViolationsAndTrace() throws {
        let path = try scenarioFile(replScenario)
        let (_, out) = try repl(path, [".state", "app:endBackgroundTask(9)", ".violations", ".trace 2"])
        #expect(out.contains("app        active (process 1, launched: user)"))
        #expect(out.contains { $0.contains("⚠ task-unknown [warning] stdin:1: endBackgroundTask(9)") })
        #expect(out.suffix(2).allSatisfy { $0.hasPrefix("+0d00:00:00.000") })
    }

    /// `.state` says what background time is really left: none while suspended (no code runs),
    /// the seconds to the deadline while a task is open, ∞ only in the foreground.
    @Test func stateSaysTheBackgroundTimeOfEachState() throws {
        let path = try scenarioFile(replScenario)
        let (_, out) = try repl(path, [".state", "user.home()", ".advance 10s", ".state", ".advance 30s", ".state", "user.forceQuit()", ".state"])
        let lines = out.filter { $0.hasPrefix("remaining ") }
        #expect(lines == ["remaining  background time: ∞ (in the foreground)",
                          "remaining  background time: 20s",
                          "remaining  background time: 0s (suspended: no code runs until iOS wakes or opens the app)",
                          "remaining  background time: none (not running)"], "\(out)")
    }

    /// The banner (the scenario's name, profile and seed) comes before what the scenario does at
    /// t = 0; `.reset` says so before t = 0 prints again.
    @Test func theBannerComesBeforeTheTimeline() throws {
        let path = try scenarioFile(replScenario)
        let t = Transcript()
        let session = try ReplSession(file: path, banner: { "banner: os \($0.os.rawValue) · seed \($0.seed)" }, output: { t.lines.append($0) })
        #expect(t.lines.first == "banner: os ios13 · seed 1", "\(t.lines)")
        #expect(t.lines.dropFirst().first?.hasPrefix("+0d00:00:00.000  user    taps the app icon") == true, "\(t.lines)")
        t.lines.removeAll()
        session.feed(".reset")
        #expect(t.lines.first == "(reset to +0d00:00:00.000, seed 1)", "\(t.lines)")
        #expect(t.lines.count > 1 && t.lines.dropFirst().allSatisfy { $0.hasPrefix("+0d00:00:00.000") }, "\(t.lines)")
    }

    @Test func appMethodsNeedARunningApp() throws {
        let (_, out) = try repl(nil, ["app:beginBackgroundTask(nil)"])
        #expect(out.first?.contains("the app is not running (notRunning)") == true)
    }

    @Test func resetRestartsFromZero() throws {
        let path = try scenarioFile(replScenario)
        let (s, out) = try repl(path, [".advance 1h", "user.home()", ".reset", ".now"])
        #expect(out.contains("(reset to +0d00:00:00.000, seed 1)"))
        #expect(s.runtime.world.now == 0)
        #expect(s.runtime.world.state == .active)
    }

    @Test func unknownCommandsSuggestAndQuitStops() throws {
        let (s, out) = try repl(nil, [".advnce 5s", ".advance", ".quit", "print('after quit')"])
        #expect(out[0] == "unknown command .advnce; did you mean .advance? (.help lists them)")
        #expect(out[1] == "usage: .advance DURATION")
        #expect(s.quit)
        #expect(out.count == 2)
    }

    @Test func helpListsEveryCommand() throws {
        let (_, out) = try repl(nil, [".help"])
        for c in ["advance", "step", "run", "now", "state", "pending", "trace", "violations", "reset", "save", "help", "quit"] {
            #expect(out.contains { $0.hasPrefix("  .\(c)") }, "\(c)")
        }
    }

    @Test func saveThenRunGivesTheSameTimeline() throws {
        let path = try scenarioFile(replScenario)
        let saved = path + ".saved.lua"
        let (session, out) = try repl(path, [".advance 5s", "user.home()", "app.state", ".advance 10s", "user.open()",
                                              ".advance 19s", "system.memoryPressure()", ".save \(saved)"])
        #expect(out.last?.hasPrefix("saved 4 typed chunks to \(saved)") == true)
        let replTimeline = session.runtime.world.timeline.map { "\($0.time) \($0.actor) \($0.message)" }
        let run = ScenarioRuntime(path: saved, options: RunOptions(until: session.runtime.world.now))
        try run.load()
        try run.run()
        let runTimeline = run.world.timeline
            // The cut's notes (what is pending there, expectations not checked) are the run's own.
            .filter { !$0.message.hasPrefix("(at the cut:") && !$0.message.hasPrefix("(the run was cut by --until") }
            .map { "\($0.time) \($0.actor) \($0.message.replacingAll(saved, with: path))" }
        #expect(runTimeline == replTimeline)
    }
}

// `luafetch repl` as a program: driven through a pipe (no prompts, every line read to EOF) and
// through a pseudo-terminal (prompt, history recall, Ctrl-C), the latter by pty_repl.py.
import Foundation
import Testing

@Suite(.serialized) struct ReplCLITests {
    func runWithInput(_ args: [String], _ input: String) throws -> CLI.Result { try runIn(CLI.root, args, input: input) }

    @Test func pipedInputHasNoPromptsAndReadsToEOF() throws {
        let r = try runWithInput(["repl", "examples/long_task.lua"], "app.state\nuser.home()\n.advance 30s\n.pending\n.violations\nfor i = 1, 2 do\nprint(i)\nend\n")
        #expect(r.status == 0)
        #expect(!r.stdout.contains("> "))
        #expect(r.stdout.contains("\nactive\n"))
        #expect(r.stdout.contains("+0d00:00:25.000  task    background time almost spent"))
        #expect(r.stdout.contains("(no violations)"))
        #expect(r.stdout.contains("world   1\n"))
    }

    @Test func aBadScenarioExits2() throws {
        let path = try CLI.scenario("scenari {}\n")
        let r = try runWithInput(["repl", path], "")
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("\(path):1: unknown global 'scenari'"))
    }

    @Test func savedSessionsRun() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let saved = dir.appendingPathComponent("session.lua").path
        let scenario = try CLI.scenario("""
            local id
            app { didEnterBackground = function(app) id = app:beginBackgroundTask(nil) end,
                  willEnterForeground = function(app) print("ending #" .. id); app:endBackgroundTask(id) end }
            at(0, user.launch)
            """)
        let r = try runWithInput(["repl", scenario], ".advance 1m\nuser.home()\n.advance 10s\nuser.open()\n.save \(saved)\n")
        #expect(r.stdout.contains("saved 2 typed chunks"))
        let run = try CLI.run(["run", saved, "--no-color"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("+0d00:01:10.000  app     ending #1\n"))
    }

    /// On a terminal the banner is the first line, before what the scenario does at t = 0.
    @Test func theBannerComesFirstOnATerminal() throws {
        let script = """
            import os, pty, select, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.environ["TERM"] = "dumb"
                os.environ["LUAFETCH_LINE_EDITING"] = "off"
                os.execv(sys.argv[1], [sys.argv[1], "repl", "examples/long_task.lua", "--no-color"])
            seen, end = b"", time.time() + 10
            while b"> " not in seen and time.time() < end:
                r, _, _ = select.select([fd], [], [], 0.05)
                if r:
                    try: seen += os.read(fd, 65536)
                    except OSError: break
            os.write(fd, b"\\x04")
            os.waitpid(pid, 0)
            sys.stdout.write(seen.decode("utf-8", "replace"))
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, CLI.binary]
        p.currentDirectoryURL = CLI.root
        let r = try CLI.collect(p)
        let lines = r.stdout.split(whereSeparator: \.isNewline).map(String.init)  // a terminal ends lines with \r\n
        #expect(lines.first?.hasPrefix("luafetch 0.1.0 · scenario \"Finishing a long task in the background\" · os ios13 · seed 1") == true, "\(r.stdout)")
        #expect(lines.dropFirst().first?.hasPrefix("+0d00:00:00.000") == true, "\(r.stdout)")
    }

    /// With libedit (loaded when the session starts) and without it (`LUAFETCH_LINE_EDITING=off`,
    /// as when libedit is missing): the prompt, Ctrl-C and Ctrl-D work either way.
    @Test(arguments: [[], ["plain"]])
    func aPseudoTerminalGetsPromptHistoryAndCtrlC(mode: [String]) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let long = try CLI.scenario("scenario { duration = days(30) }\nevery(0.01, function() end)\n")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", CLI.root.appendingPathComponent("Tests/luafetchCLITests/pty_repl.py").path, CLI.binary, long, home.path] + mode
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(o)")
    }
}

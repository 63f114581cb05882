// The command line of SPEC 1, tested on the built executable: exit codes, options before or after
// FILE, the header, the reproduction command, scenario errors on stderr as `file:line: message`.
import Foundation
import Testing

@Suite(.serialized) struct CommandLineTests {
    @Test func versionAndHelp() throws {
        let v = try CLI.run(["--version"])
        #expect(v.status == 0)
        #expect(v.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
        let h = try CLI.run(["--help"])
        #expect(h.status == 0)
        #expect(h.stdout.contains("USAGE"))
        let r = try CLI.run(["run", "--help"])
        #expect(r.stdout.contains("--seed"))
    }

    @Test func usageErrorsExit2() throws {
        let unknown = try CLI.run(["examples/hello.lua", "--bogus"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--bogus"))
        #expect(try CLI.run(["examples/hello.lua", "--os", "ios99"]).status == 2)
        #expect(try CLI.run(["examples/hello.lua", "--until", "soon"]).status == 2)
        #expect(try CLI.run([]).status == 2)
    }

    @Test func limitOptionsApplyAndAppearInTheReproduction() throws {
        let path = try CLI.scenario("scenario { duration = days(1) }\napp {}\nevery(1, function() end)\n")
        for args in [[path, "--limit-events", "1000"], ["run", path, "--no-color", "--limit-events=1000"]] {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.hasPrefix("\(path):3: the run passed its limit of 1000 events"), "\(r.stderr)")
        }
        let leak = try CLI.scenario("app { didEnterBackground = function(app) app:beginBackgroundTask(function() end) end }\nat(0, user.launch)\nat(1, user.home)\n")
        let r = try CLI.run([leak, "--limit-memory", "64M", "--limit-instructions", "2e9", "--no-color"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("--limit-instructions 2000000000 --limit-memory 67108864"), "\(r.stdout)")
        for (flag, value) in [("--limit-memory", "12Q"), ("--limit-events", "0"), ("--limit-instructions", "-1")] {
            let e = try CLI.run([leak, "\(flag)=\(value)"])
            #expect(e.status == 2)
            #expect(e.stderr.contains("bad \(flag) '\(value)'"), "\(e.stderr)")
        }
    }

    @Test func fileAloneMeansRunAndOptionsGoAnywhere() throws {
        let a = try CLI.run(["examples/hello.lua", "--seed", "3"])
        let b = try CLI.run(["run", "--seed", "3", "examples/hello.lua"])
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.hasPrefix("luafetch 0.1.0 · scenario \"Hello, luafetch\" · os ios13 · seed 3\n"))
    }

    @Test func printOutputIsStampedWithVirtualTime() throws {
        let r = try CLI.run(["examples/hello.lua"])
        #expect(r.stdout.contains("+0d00:00:00.000  world   hello from virtual time\t0\n"))
    }

    @Test func aFailingRunExits1WithAReproductionCommand() throws {
        let path = try CLI.scenario("app { didEnterBackground = function(app) app:beginBackgroundTask(nil) end }\nat(0, user.launch)\nat(1, user.home)\n")
        let r = try CLI.run([path, "--os", "ios7", "--until", "1h"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("✗ task-expired [error, 0x8badf00d] \(path):1:"))
        #expect(r.stdout.contains("reproduce  luafetch run \(path) --seed 1 --os ios7 --until 1h\n"))
    }

    @Test func strictMakesWarningsFail() throws {
        let path = try CLI.scenario("app { didFinishLaunching = function(app) app:endBackgroundTask(5) return true end }\nat(0, user.launch)\n")
        #expect(try CLI.run([path]).status == 0)
        let strict = try CLI.run([path, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("--strict"))
    }

    @Test func quietPrintsHeaderAndSummaryOnly() throws {
        let r = try CLI.run(["examples/leaky_task.lua", "--quiet"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("goes to the Home screen"))
        #expect(r.stdout.contains("── summary"))
        #expect(r.stdout.contains("task-expired"))
    }

    @Test func noColourWhenNotATerminal() throws {
        let r = try CLI.run(["examples/leaky_task.lua"])
        #expect(!r.stdout.contains("\u{1b}["))
    }

    @Test(arguments: [
        ("", "the scenario is empty"),
        ("local x = \n", ":2: unexpected symbol near <eof>"),
        ("error('top-level failure')\n", ":1: top-level failure"),
        ("scenari { }\n", ":1: unknown global 'scenari'; did you mean scenario?"),
        ("at('soon', user.home)\n", ":1: bad argument #1 to 'at' (number expected, got string)"),
        ("while true do end\n", ":1: scenario code ran past the instruction budget"),
        ("local t = {}\nfor i = 1, 1e12 do t[i] = i end\n", ":2: scenario code passed the memory cap"),
    ])
    func badScenariosExit2WithFileAndLine(source: String, message: String) throws {
        let path = try CLI.scenario(source)
        let r = try CLI.run([path])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix(path), "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    /// The command line arms the instruction budget lazily (a CPU-time watchdog); runaway code is
    /// still stopped, inside pcall and in nested coroutines, and the world goes on.
    @Test(arguments: [
        ("app { didFinishLaunching = function(app)\n  pcall(function() while true do end end)\n  print('unreachable') return true end }\n", "app-hang", ":2:"),
        ("app { didFinishLaunching = function(app)\n  local co = coroutine.wrap(function() while true do end end)\n  pcall(co); pcall(co); print('unreachable') return true end }\n", "app-hang", ":2:"),
        ("local keep = {}\napp { didFinishLaunching = function(app)\n  pcall(function() for i = 1, 1e9 do keep[i] = ('x'):rep(64):rep(64) .. i end end)\n  print('unreachable') return true end }\nat(1, function() keep = nil end)\n", "out-of-memory", ":3:"),
    ])
    func runawayHandlersAreStoppedOnTheCommandLine(source: String, code: String, line: String) throws {
        let path = try CLI.scenario(source + "at(0, user.launch)\nat(5, function() print('world goes on') end)\n")
        let r = try CLI.run([path, "--no-color"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("✗ \(code) [error"), "\(r.stdout)")
        #expect(r.stdout.contains("\(path)\(line)"), "\(r.stdout)")
        #expect(r.stdout.contains("world   world goes on"))
        #expect(!r.stdout.contains("unreachable"))
    }

    @Test func missingDirectoryBinaryAndInvalidUTF8Files() throws {
        let missing = try CLI.run(["no/such/file.lua"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("no/such/file.lua: no such file"))
        let dir = try CLI.run(["examples"])
        #expect(dir.stderr.hasPrefix("examples: is a directory"))
        let bin = try CLI.scenario("\u{1b}Lua\u{54}\u{0}junk")
        #expect(try CLI.run([bin]).stderr.contains("precompiled"))
        let path = try CLI.scenario("")
        try Data([0x70, 0x72, 0x69, 0x6e, 0x74, 0x28, 0x22, 0xff, 0x22, 0x29, 0x0a]).write(to: URL(fileURLWithPath: path))
        let utf = try CLI.run([path])
        #expect(utf.status == 2)
        #expect(utf.stderr.hasPrefix("\(path):1: invalid UTF-8"))
        let nul = try CLI.scenario("print(1)\n\u{0}\n")
        #expect(try CLI.run([nul]).stderr.hasPrefix("\(nul):2: contains a NUL byte"))
    }

    @Test func tracebacksAccompanyNestedErrors() throws {
        let path = try CLI.scenario("local function inner() error('deep') end\nlocal function outer() inner() end\nouter()\n")
        let r = try CLI.run([path])
        #expect(r.stderr.hasPrefix("\(path):1: deep\nstack traceback:\n"))
        #expect(r.stderr.contains("\(path):3: in main chunk"))
    }
}

@Suite(.serialized) struct ExampleOutputTests {
    /// Every example passes (an example that demonstrates a bug names it with expect.violation).
    @Test(arguments: CLI.examples)
    func examplePasses(name: String) throws {
        let r = try CLI.run(["examples/\(name)", "--no-color"])
        #expect(r.status == 0, "\(name): \(r.stdout.suffix(600))")
    }

    /// Same file + seed + options ⇒ byte-identical output, in separate processes.
    @Test(arguments: CLI.examples)
    func exampleIsDeterministic(name: String) throws {
        let a = try CLI.run(["examples/\(name)", "--no-color"])
        let b = try CLI.run(["examples/\(name)", "--no-color"])
        #expect(a.stdout == b.stdout)
        #expect(!a.stdout.contains("0x5"), "an address leaked")
    }

    /// The text output of every example matches its recorded snapshot. Re-record on purpose with
    /// `LUAFETCH_RECORD=1 swift test --filter snapshot`.
    @Test(arguments: CLI.examples)
    func snapshot(name: String) throws {
        let r = try CLI.run(["examples/\(name)", "--no-color"])
        let file = CLI.root.appendingPathComponent("Tests/luafetchCLITests/Snapshots/\(name).txt")
        if ProcessInfo.processInfo.environment["LUAFETCH_RECORD"] != nil {
            try r.stdout.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try String(contentsOf: file, encoding: .utf8)
        #expect(r.stdout == recorded, "\(name) differs from its snapshot; re-record on purpose with LUAFETCH_RECORD=1")
    }
}

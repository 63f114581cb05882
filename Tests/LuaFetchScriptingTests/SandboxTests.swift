// SPEC 2, 3 and 11: determinism of pairs/tostring/random/os, the sandbox, strict globals and API
// tables, limits that pcall cannot swallow, and scenario errors with file:line.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct DeterminismTests {
    @Test func pairsIteratesNumbersThenSortedStrings() {
        let s = simulate("""
            local t = { zeta = 1, alpha = 2, [10] = "x", [2] = "y", mid = 3, [true] = 4 }
            local out = {}
            for k in pairs(t) do out[#out + 1] = tostring(k) end
            print(table.concat(out, ","))
            """)
        #expect(s.printed == ["2,10,alpha,mid,zeta,true"])
    }

    @Test func tostringShowsNoAddresses() {
        let s = simulate("print(tostring({}), tostring(print), string.format('%s', {}))")
        #expect(s.printed.count == 1)
        #expect(!s.printed[0].contains("0x"))
        #expect(s.printed[0].hasPrefix("table: #"))
    }

    @Test func mathRandomFollowsTheSeed() {
        let src = "scenario { seed = 5 }\nprint(math.random(1000000), math.random(1000000))"
        let a = simulate(src), b = simulate(src)
        let c = simulate(src, options: RunOptions(seed: 6))
        #expect(a.printed == b.printed)
        #expect(a.printed != c.printed)
        #expect(simulate("math.randomseed()\nprint(math.random(10^9))").printed == simulate("math.randomseed()\nprint(math.random(10^9))").printed)
    }

    @Test func osReadsTheVirtualClock() {
        let s = simulate("""
            print(os.time(), os.date("!%Y-%m-%dT%H:%M:%S"))
            at(90.5, function() print(os.time(), os.date("%H:%M:%S"), os.clock(), now()) end)
            print(os.time({ year = 2013, month = 9, day = 18, hour = 0 }))
            """)
        #expect(s.printed == ["1379462400\t2013-09-18T00:00:00", "1379462400", "1379462490\t00:01:30\t90.5\t90.5"])
    }

    @Test func nowIsAnIntegerOnWholeSeconds() {
        let s = simulate("at(2, function() print(math.type(now())) end)\nat(2.25, function() print(math.type(now()), now()) end)")
        #expect(s.printed == ["integer", "float\t2.25"])
    }
}

@Suite struct SandboxTests {
    @Test(arguments: ["io", "debug", "dofile", "loadfile", "package"])
    func dangerousGlobalsAreGone(name: String) {
        let s = simulate("local x = \(name)")
        #expect(s.exitCode == 2)
        #expect(s.error?.message.contains("unknown global '\(name)'") == true)
    }

    @Test func stringDumpAndBinaryChunksAreRefused() {
        #expect(simulate("print(string.dump == nil)").printed == ["true"])
        let s = simulate("print(load('return 1', 'x', 'b'))\nprint(load('return 1 + 1')())")
        #expect(s.printed.first?.contains("text chunks only") == true)
        #expect(s.printed.last == "2")
    }

    @Test func osHasOnlyTheClock() {
        let s = simulate("print(os.execute)")
        #expect(s.exitCode == 0)
        #expect(s.printed == ["nil"])
    }

    @Test func strictGlobalsSuggestTheClosestName() {
        let s = simulate("scenari { name = 'x' }")
        #expect(s.exitCode == 2)
        #expect(s.error?.message == "test.lua:1: unknown global 'scenari'; did you mean scenario? (assign it first to declare a global)")
    }

    @Test func assigningAGlobalDeclaresIt() {
        #expect(simulate("counter = 1\ncounter = counter + 1\nprint(counter)").printed == ["2"])
    }

    @Test func unknownFieldsOfAPITablesSuggest() {
        let s = simulate("\nuser.hom()")
        #expect(s.error?.message == "test.lua:2: unknown field 'hom' of user; did you mean home?")
        let t = simulate("system.backgroundFetch = nil")
        #expect(t.error?.message.contains("system is read-only") == true)
    }

    @Test func topLevelEndlessLoopIsStoppedAndPcallCannotSwallowIt() {
        let s = simulate("local n = 0\npcall(function() while true do n = n + 1 end end)\nprint('after')")
        #expect(s.exitCode == 2)
        #expect(s.error?.message.contains("instruction budget") == true)
        #expect(s.error?.message.hasPrefix("test.lua:2:") == true)
        #expect(s.printed.isEmpty)
    }

    @Test func topLevelRunawayAllocationHitsTheMemoryCap() {
        let s = simulate("local t = {}\nfor i = 1, 1e9 do t[i] = string.rep('x', 4096) .. i end", budget: 0, memoryCap: 16 << 20)
        #expect(s.exitCode == 2)
        #expect(s.error?.message.contains("memory cap") == true)
    }

    @Test func runtimeErrorsCarryFileAndLine() {
        let s = simulate("local x = 1\nlocal function f() error('boom') end\nf()")
        #expect(s.error?.message == "test.lua:2: boom")
        #expect(s.error?.traceback?.contains("test.lua:3") == true)
    }

    @Test func worldCallbackErrorsEndTheRunWithExit2() {
        let s = simulate("at(10, function()\n  local t = nil\n  return t.x\nend)")
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:3: attempt to index a nil value") == true)
    }

    @Test func requireLoadsOnlyFilesBesideTheScenario() {
        let s = simulate("local ok, err = pcall(require, '../etc/passwd')\nprint(ok, err)")
        #expect(s.printed.first?.hasPrefix("false") == true)
        let m = simulate("print(pcall(require, 'no_such_module'))")
        #expect(m.printed.first?.contains("module 'no_such_module' not found") == true)
    }
}

@Suite struct BadArgumentTests {
    /// Every API function rejects wrong types with `file:line: ... expected ...` and exit 2.
    @Test(arguments: [
        ("at('x', print)", "bad argument #1 to 'at' (number expected, got string)"),
        ("at(1, 2)", "bad argument #2 to 'at' (function expected, got number)"),
        ("every(0, print)", "bad argument #1 to 'every' (a positive duration expected"),
        ("at(-1, print)", "bad argument #1 to 'at' (a duration of 0 seconds or more expected"),
        ("minutes('x')", "bad argument #1 to 'minutes' (number expected, got string)"),
        ("scenario('x')", "bad argument #1 to 'scenario' (table expected, got string)"),
        ("scenario { os = 'ios99' }", "unknown os 'ios99'"),
        ("scenario { seed = 1.5 }", "seed must be an integer"),
        ("scenario { nmae = 'x' }", "unknown field 'nmae' in scenario{}; did you mean name?"),
        ("scenario { fetchPolicy = 'adaptve' }", "did you mean adaptive?"),
        ("scenario { budgets = { backgroundTaks = 1 } }", "did you mean backgroundTask?"),
        ("scenario { device = { multitasking = 'yes' } }", "device.multitasking must be true or false"),
        ("scenario {}\nscenario {}", "scenario{} is declared twice"),
        ("app(3)", "bad argument #2 to 'app' (table expected, got number)"),
        ("app { didEnterBackgroud = function() end }", "did you mean didEnterBackground?"),
        ("app { didEnterBackground = 1 }", "didEnterBackground must be a function"),
        ("app { backgroundModes = { 'fetc' } }", "did you mean fetch?"),
        ("app { backgroundModes = { 'fetch', 3 } }", "app{}: backgroundModes[2] must be a string"),
        ("app { backgroundModes = 'fetch' }", "app{}: backgroundModes must be a list of strings"),
        ("app { performFetch = true }", "app{}: performFetch must be a function, got boolean"),
        ("scenario { limits = { events = 0.5 } }", "scenario{}: limits.events must be a whole number"),
        ("scenario { budgets = { fetch = -1 } }", "scenario{}: budgets.fetch must be a number ≥ 0"),
        ("scenario { duration = days(31) }", "scenario{}: duration is at most 30 days"),
        ("scenario { device = { multitaskng = true } }", "unknown field 'multitaskng' in scenario{ device = ... }; did you mean multitasking?"),
        ("server 'a.test' { latency = -1 }", "server \"a.test\": latency must be a number of seconds ≥ 0, got -1"),
        ("after(1, print)", "after is app code"),
        ("timer.every(1, print)", "timer.every is app code"),
        ("work(1)", "work is app code"),
        ("http.get('https://x.test/', print)", "http.get is app code"),
        ("server(1)", "bad argument #1 to 'server' (string expected, got number)"),
        ("server 'a.test' { latency = 'slow' }", "latency must be a number"),
        ("server 'a.test' { failureRate = 2 }", "failureRate must be between 0 and 1"),
        ("server 'a.test' { latncy = 1 }", "did you mean latency?"),
        ("server 'a.test'\nserver 'a.test'", "declared twice"),
        ("local s = server 'a.test'\ns:route('GET', {})", "the route must look like \"GET /path\""),
        ("local s = server 'a.test'\ns:route('GET /x', 5)", "function or response table expected"),
        ("local s = server 'a.test'\ns.route('GET /x', {})", "call it with a colon"),
        ("local s = server 'a.test'\ns:down(10, 5)", "must end after it starts"),
        ("expect.violation('task-expird')", "did you mean task-expired?"),
        ("expect.violation('task-expired', -1)", "count must be 0 or more"),
        ("expect.that(1, print)", "bad argument #1 to 'expect.that' (string expected, got number)"),
        ("expect.at('x', 'd', print)", "bad argument #1 to 'expect.at' (number expected"),
        ("user.interrupt()", "bad argument #1 to 'user.interrupt' (number expected, got nil)"),
        ("system.setLowPowerMode('on')", "bad argument #1 to 'system.setLowPowerMode' (boolean expected, got string)"),
        ("notifications.observe(1, print)", "bad argument #1 to 'notifications.observe' (string expected"),
        ("local x = device.multitasking", "unknown field 'multitasking' of device; did you mean isMultitaskingSupported?"),
    ])
    func rejected(source: String, message: String) {
        let s = simulate(source)
        #expect(s.exitCode == 2, "\(source)")
        let text = s.error?.message ?? ""
        #expect(text.hasPrefix("test.lua:"), "\(text)")
        #expect(text.contains(message), "\(text)")
    }

    /// Inside app handlers a bad argument is an app-crash, with the line that made the call.
    @Test(arguments: [
        ("app:beginBackgroundTask(5)", "bad argument #1 to 'app:beginBackgroundTask' (function expected, got number)"),
        ("app:endBackgroundTask('x')", "bad argument #1 to 'app:endBackgroundTask' (integer expected, got string)"),
        ("app.endBackgroundTask(1)", "call it with a colon, app:endBackgroundTask(...)"),
        ("app:setMinimumBackgroundFetchInterval(-1)", "an interval ≥ 0 expected"),
        ("app:beginBackgroudTask()", "unknown field 'beginBackgroudTask' of app; did you mean beginBackgroundTask?"),
        ("app.state = 'x'", "app is read-only"),
        ("after('soon', print)", "bad argument #1 to 'after' (number expected, got string)"),
        ("timer.every(0, print)", "a positive duration expected"),
        ("timer.after(1)", "bad argument #2 to 'timer.after' (function expected, got nil)"),
        ("work(-1)", "bad argument #1 to 'work'"),
        ("http.get('not a url', print)", "is not a URL"),
        ("http.get('https://a.test/')", "bad argument #2 to 'http.get' (function expected, got nil)"),
        ("http.request({ url = 'https://a.test/', tmeout = 1 }, print)", "did you mean timeout?"),
        ("http.request({ method = 'GET' }, print)", "url is required"),
        ("http.request({ url = 'https://a.test/', timeout = 0 }, print)", "http.request: timeout must be a positive number of seconds"),
        ("http.request({ url = 'https://a.test/', headers = 'x' }, print)", "http.request: headers must be a table of strings"),
        ("http.request({ url = 'https://a.test/', method = 5 }, print)", "http.request: method must be a string"),
        ("user.home()", "user.home belongs to the world, not the app"),
        ("at(1, print)", "at belongs to the world"),
        ("scenario {}", "scenario is a declaration"),
    ])
    func crashesTheApp(call: String, message: String) {
        let s = simulate("app { didFinishLaunching = function(app, launch)\n  \(call)\nend }\nat(0, user.launch)")
        #expect(s.error == nil)
        #expect(s.codes == ["app-crash"], "\(call)")
        let v = s.world.violations.first
        #expect(v?.location?.description == "test.lua:2")
        #expect(v?.message.contains(message) == true, "\(v?.message ?? "")")
    }
}

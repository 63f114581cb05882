// SPEC 11's limits, in-process: every kind of work inside C library functions meets the budget,
// the whole run has an instruction, event and memory limit (scenario{ limits } and the command
// line's options), host-side memory counts against the cap, kills are sticky through pcall and
// coroutines, finalizers are refused, `next` follows the order of `pairs`, and the strict
// globals cannot be switched off.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct LimitsTests {
    /// Top-level code that spends more than the budget inside one library call.
    @Test(arguments: [
        "string.rep('', math.maxinteger)",
        "string.rep('ab', 1e9, ',')",
        "table.move({1, 2, 3}, 1, 2^40, 2)",
        "table.concat(setmetatable({}, { __index = function() return 'x' end }), '', 1, 1e12)",
        "table.insert(setmetatable({}, { __len = function() return 1e12 end }), 1, 'x')",
        "table.remove(setmetatable({}, { __len = function() return 1e12 end }), 1)",
        "local s = string.rep('a', 1e7) for i = 1, 1e6 do s:find('b', 1, true) end",
        "local s = string.rep('a', 1e7) for i = 1, 1e6 do utf8.len(s) end",
        "local s = string.rep('a', 1e7) for i = 1, 1e6 do tonumber(s) end",
        "local s = string.rep('a', 1e7) for i = 1, 1e6 do string.format(s) end",
        "string.find(string.rep('a', 1e5), '.-.-.-.-.-b')",
        "string.gsub(string.rep('a', 2e4), '.-.-b', '')",
        "for w in string.gmatch(string.rep('a', 2e4), '(.-)(.-)b') do end",
        "load(function() return ' ' end)",
        "local t = {} for i = 1, 1e5 do t[i] = i end for i = 1, 1e6 do table.sort(t) end",
        "local t = {} for i = 1, 1e5 do t[i] = i end for i = 1, 1e6 do local _ = table.unpack(t) end",
        "for i = 1, 1e9 do collectgarbage() end",
        "local function nest(n) if n == 0 then while true do end end local co = coroutine.wrap(function() nest(n - 1) end) co() end nest(60)",
    ])
    func workInCFunctionsMeetsTheBudget(code: String) {
        let s = simulate(code + "\n", budget: 20_000_000)
        #expect(s.exitCode == 2, "\(code)")
        #expect(s.error?.message.hasPrefix("test.lua:1: scenario code ran past the instruction budget") == true,
                "\(code): \(s.error?.message ?? "no error")")
    }

    @Test func killsAreStickyThroughPcallAndCoroutines() {
        let s = simulate("""
        app { didFinishLaunching = function(app)
          local co = coroutine.create(function() pcall(string.rep, '', math.maxinteger) print('in coroutine') end)
          print(pcall(coroutine.resume, co))
          print('after')
          return true end }
        at(0, user.launch)
        at(1, function() print('world') end)
        """, budget: 20_000_000)
        #expect(s.codes == ["app-hang"])
        #expect(s.printed == ["world"])
    }

    @Test func theRunHasAnInstructionLimit() {
        let s = simulate("""
        scenario { duration = 60, limits = { instructions = 1.1e8 } }
        app { didFinishLaunching = function(app) while true do end end }
        every(5, user.launch)
        """, budget: 20_000_000)
        // Five hangs of 20 million each, then the sixth passes the limit (the margin covers start-up).
        #expect(s.exitCode == 2)
        #expect(s.codes.allSatisfy { $0 == "app-hang" } && s.codes.count == 5, "\(s.codes)")
        #expect(s.error?.message.hasPrefix("test.lua:2: the run passed its limit of 110000000 Lua instructions") == true,
                "\(s.error?.message ?? "")")
    }

    @Test func theCommandLineLimitWins() {
        let s = simulate("scenario { limits = { instructions = 1e6, memory = 8 * 1024 * 1024 } }",
                         options: RunOptions(limits: RunLimits(instructions: 5000)))
        #expect(s.world.config.instructionLimit == 5000)
        #expect(s.world.config.memoryCap == 8 << 20)
        let t = simulate("scenario { duration = days(1), limits = { events = 100 } }\nevery(1, function() end)")
        #expect(t.exitCode == 2)
        #expect(t.error?.message.hasPrefix("test.lua:2: the run passed its limit of 100 events") == true)
    }

    @Test(arguments: [
        ("limits = 5", "limits must be a table"),
        ("limits = { instructions = -1 }", "limits.instructions must be a whole number from 1000"),
        ("limits = { events = 1.5 }", "limits.events must be a whole number"),
        ("limits = { memory = 1e12 }", "limits.memory must be a whole number from 1048576 to 4294967296 (bytes)"),
        ("limits = { memroy = 1 }", "unknown field 'memroy' in scenario{ limits = ... }; did you mean memory?"),
    ])
    func badLimitsAreScenarioErrors(field: String, message: String) {
        let s = simulate("scenario { \(field) }")
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:1: ") == true)
        #expect(s.error?.message.contains(message) == true, "\(s.error?.message ?? "")")
    }

    @Test func commandLineLimitsParse() {
        #expect(RunLimits.parse("1e9", for: "instructions") == 1_000_000_000)
        #expect(RunLimits.parse("64M", for: "memory") == 64 << 20)
        #expect(RunLimits.parse("2g", for: "memory") == 2 << 30)
        #expect(RunLimits.parse("12Q", for: "memory") == nil)
        #expect(RunLimits.parse("0", for: "events") == nil)
        #expect(RunLimits.parse("1.5", for: "events") == nil)
        #expect(RunLimits.parse("64M", for: "events") == nil)
    }

    @Test func pendingEventsCountAgainstTheMemoryCap() {
        let s = simulate("for i = 1, 1e7 do at(i, function() end) end", budget: 1_000_000_000, memoryCap: 32 << 20)
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:1: scenario code passed the memory cap (32 MiB)") == true,
                "\(s.error?.message ?? "")")
    }

    @Test func aSmallerMemoryLimitApplies() {
        let s = simulate("scenario { limits = { memory = 2 * 1024 * 1024 } }\nlocal t = {} for i = 1, 1e7 do t[i] = i end")
        #expect(s.exitCode == 2)
        #expect(s.error?.message.contains("passed the memory cap (2 MiB)") == true, "\(s.error?.message ?? "")")
    }

    @Test func finalizersAreRefused() {
        let s = simulate("setmetatable({}, { __gc = function() end })")
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:1: a metatable with __gc") == true)
        #expect(simulate("setmetatable({}, { __close = function() end, __index = {} })").exitCode == 0)
    }

    @Test func strictGlobalsCannotBeSwitchedOff() {
        let s = simulate("print(getmetatable(_G))\nprint(pcall(setmetatable, _G, nil))\nprint(undefinedName)")
        #expect(s.printed.first == "false")
        #expect(s.printed.dropFirst().first?.hasPrefix("false") == true)
        #expect(s.error?.message.hasPrefix("test.lua:3: unknown global 'undefinedName'") == true)
        #expect(simulate("x = nil\nprint(x)").printed == ["nil"])
    }

    @Test func nextFollowsTheOrderOfPairs() {
        let s = simulate("""
        local t = { zeta = 1, alpha = 2, [3] = 'c', [1] = 'a', mid = true }
        local a, b = {}, {}
        for k in pairs(t) do a[#a + 1] = tostring(k) end
        for k in next, t do b[#b + 1] = tostring(k) end
        print(table.concat(a, ' '))
        print(table.concat(b, ' '))
        print(next({}), next(t, 'zeta'))
        print(pcall(next, t, 'nope'))
        local u = { x = 1, y = 2, z = 3 }
        for k in next, u do u[k] = nil end
        print(next(u))
        """)
        #expect(s.printed.count == 5, "\(s.printed) \(s.error?.message ?? "")")
        #expect(s.printed[0] == "1 3 alpha mid zeta")
        #expect(s.printed[1] == s.printed[0])
        #expect(s.printed[2] == "nil\tnil")
        #expect(s.printed[3].hasPrefix("false") && s.printed[3].contains("invalid key to 'next'"))
        #expect(s.printed[4] == "nil")
    }

    @Test func patternsBehaveAsLuas() {
        let s = simulate("""
        print(string.find('hello world', 'o w'))
        print(string.find('hello', 'l+'))
        print(string.match('key = value', '(%w+)%s*=%s*(%w+)'))
        print(string.gsub('hello world', '(%w+)', '<%1>'))
        print(string.gsub('abc', '%w', { a = 1, b = false }))
        print(string.match('  trim  ', '^%s*(.-)%s*$'))
        print(string.find('THE (quick) fox', '%((%a+)%)'))
        print(string.match('f(a(b)c)d', '%b()'))
        print(string.gsub('THE (quick) fox', '%f[%a]%a+', 'W'))
        print(string.match('2024-01-02', '(%d+)-(%d+)-(%d+)'))
        print(string.find('a.b', '.', 1, true), string.find('abc', 'b', -1))
        print(pcall(string.find, 'x', '[a'))
        print(pcall(string.gsub, 'x', 'x', '%2'))
        local t = {} for k, v in string.gmatch('a=1, b=2', '(%w+)=(%w+)') do t[#t + 1] = k .. v end
        print(table.concat(t, ','))
        print(('x'):rep(3), ('abc'):match('()b()'))
        """)
        #expect(s.error == nil, "\(s.error?.message ?? "")")
        // As the stock lua5.4 interpreter prints them (Tests/fuzz/patterns_diff.py compares thousands more).
        #expect(s.printed == [
            "5\t7", "3\t4", "key\tvalue", "<hello> <world>\t2", "1bc\t3", "trim", "5\t11\tquick", "(a(b)c)",
            "W (W) W\t3", "2024\t01\t02", "2\tnil", "false\tmalformed pattern (missing ']')",
            "false\tinvalid capture index %2", "a1,b2", "xxx\t2\t3",
        ], "\(s.printed)")
    }

    @Test func theTotalLimitAlsoEndsAppCode() {
        let s = simulate("""
        scenario { limits = { instructions = 5e6 } }
        app { didFinishLaunching = function(app) for i = 1, 4e6 do end return true end }
        at(0, user.launch)
        at(1, user.forceQuit)
        at(2, user.launch)
        """, budget: 20_000_000)
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:2: the run passed its limit of 5000000 Lua instructions") == true,
                "\(s.error?.message ?? "")")
        #expect(!s.codes.contains("app-hang"))
    }
}

/// Run-summary bookkeeping found while hardening (issue #10).
@Suite struct SummaryBookkeepingTests {
    func summary(_ s: Sim) -> [String] { TextReport(world: s.world, version: "", color: false).summary(s.world) }

    /// The streamed timeline writes most lines as bytes (`TextReport.append`); each is the line
    /// `TextReport.line` makes, padding by characters where a server's name is not ASCII.
    @Test func timelineLinesWrittenAsBytesAreTheLinesOfTheReport() {
        let s = simulate("""
        local api = server "ünï.test" { latency = 100 }
        api:route("GET /x", { status = 200, body = "x" })
        app { didFinishLaunching = function(app)
            http.get("https://ünï.test/x", function() print("done ✓") end)
            app:beginBackgroundTask("名前")
            return true end }
        at(0, user.launch)
        at(1, user.home)
        scenario { duration = 100 }
        """)
        let report = TextReport(world: s.world, version: "", color: false)
        var written = 0
        for e in s.world.timeline {
            var bytes: [UInt8] = []
            if report.append(e, to: &bytes) {
                #expect(String(decoding: bytes, as: UTF8.self) == report.line(e, in: s.world))
                written += 1
            } else {
                #expect(bytes.isEmpty)
            }
        }
        #expect(written >= 5 && s.world.timeline.contains { $0.violation != nil }, "\(s.world.timeline.map(\.message))")
        var coloured: [UInt8] = []
        #expect(!TextReport(world: s.world, version: "", color: true).append(s.world.timeline[0], to: &coloured))
    }

    @Test func aRequestInFlightAtTheEndIsCountedAsSuch() {
        let s = simulate("""
        server "api.test" { latency = 100 }
        app { didFinishLaunching = function(app) http.get("https://api.test/x", function() end) return true end }
        at(0, user.launch)
        scenario { duration = 5 }
        """)
        let line = summary(s).first { $0.hasPrefix("requests") }
        #expect(line == "requests   1: 1 in flight at the end", "\(summary(s))")
    }

    @Test func aFetchEndedByACrashIsMissed() {
        let s = simulate("""
        app { backgroundModes = { "fetch" },
          performFetch = function(app, done) error("crash in fetch") end }
        at(0, system.launchForFetch)
        """)
        #expect(s.codes == ["app-crash"])
        #expect(s.world.stats.fetches == 1)
        #expect(s.world.stats.fetchesMissed == 1)
        #expect(summary(s).contains { $0.hasPrefix("fetches    1:") && $0.contains("1 missed") }, "\(summary(s))")
    }

    @Test func aTerminatedProcessesAfterKeepsNoIdleRunAlive() {
        let s = simulate("""
        app { didFinishLaunching = function(app) after(hours(5), function() print("never") end) return true end }
        at(0, user.launch)
        at(1, user.forceQuit)
        """)
        #expect(s.world.now == 1000, "the run should end when idle, at 1 s, not at 5 h")
        #expect(s.printed.isEmpty)
    }
}

/// Where a kept value came from, in 4 bytes a reference (issue #19): each distinct (file, line)
/// is kept once, and a reference names it.
@Suite struct RefLocationTests {
    @Test func eachReferenceNamesItsOwnLocation() {
        var book = RefLocations()
        book.record(0, ("a.lua", 1))
        book.record(1, ("a.lua", 1))
        book.record(2, ("b.lua", 7))
        book.record(5, ("a.lua", 1))  // past a gap
        book.record(6, nil)
        book.record(-1, ("c.lua", 3))  // no reference: nothing to record
        let seen = (0...7).map { book.location(of: $0).map { "\($0.file):\($0.line)" } }
        #expect(seen == ["a.lua:1", "a.lua:1", "b.lua:7", nil, nil, "a.lua:1", nil, nil])
        book.record(2, nil)  // a reused reference forgets the location it had
        book.record(1, ("b.lua", 7))
        #expect(book.location(of: 2) == nil)
        #expect(book.location(of: 1).map { "\($0.file):\($0.line)" } == "b.lua:7")
        #expect(book.location(of: 0).map { "\($0.file):\($0.line)" } == "a.lua:1")
    }

    /// Callbacks made in a loop on two lines, alternately, each name their own line: the event
    /// limit's message names the `every` scheduled on line 3.
    @Test func callbacksMadeInALoopNameTheirLines() {
        let s = simulate("""
            for i = 1, 3 do
              at(100, function() end)
              every(1, function()
              end)
            end
            """, eventLimit: 5)
        #expect(s.error?.message.hasPrefix("test.lua:3: the run passed its limit of 5 events") == true, "\(String(describing: s.error))")
    }
}

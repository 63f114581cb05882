// Issue 29's limits, in-process (SPEC 11, third amendment; 12.2; 15): the default whole-run limits
// are reached in seconds; every handler call counts toward the run's instruction limit however
// short it is; an event limit reached by a storm of blocks names the line that submitted them;
// host structures that grow with the scenario stay near-linear and are counted: a deadlock of any
// length is found, lock waiters are handed over in request order, delivered transfers and their
// objects are let go, threads count against the memory cap, host work is charged. Uses the
// Harness; the adversarial inputs themselves run as a user would in AdversarialLimitsTests.
import Testing
@testable import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct HostWorkLimitsTests {
    @Test func theDefaultLimitsAreTenToTheNineUnitsAndTenToTheSevenEvents() {
        let config = ScenarioConfig(name: "any.lua")
        #expect(config.instructionLimit == 1_000_000_000)
        #expect(config.eventLimit == 10_000_000)
        let s = simulate("scenario { duration = 1 }")
        #expect(s.world.config.instructionLimit == 1_000_000_000)
        #expect(s.world.config.eventLimit == 10_000_000)
    }

    /// R03: a handler shorter than the count hook's step is still a call the run pays for.
    @Test func everyHandlerCallCountsTowardTheRunsInstructionLimit() {
        let s = simulate("""
        app { didFinishLaunching = function(app)
          local function f() after(0, f) end
          after(0, f)
          return true end }
        at(0, user.launch)
        """, options: RunOptions(limits: RunLimits(instructions: 1_000_000)), eventLimit: 100_000)
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:2: the run passed its limit of 1000000 Lua instructions") == true,
                "\(s.error?.message ?? "no error")")
        #expect(s.world.stats.events < 20_000)
    }

    /// Dispatch's other primitives start work as `q:async` does, and are charged like it: a storm
    /// of them meets the instruction limit after a few thousand blocks (uncharged: over 10,000).
    @Test(arguments: [
        "local function f() dispatch.asyncAfter(0.001, f) end\n  f()",
        "local q = dispatch.queue('q')\n  local function f() q:asyncAfter(0.001, f) end\n  f()",
        "local function f() local g = dispatch.group(); g:enter(); g:notify(f); g:leave() end\n  f()",
        "local s = dispatch.semaphore(0)\n  local function f() s:signal(); dispatch.global(f) end\n  dispatch.global(function() while s:wait() do end end)\n  f()",
    ])
    func stormsOfDispatchPrimitivesAreCharged(body: String) {
        let s = simulate("""
        app { didFinishLaunching = function(app)
          \(body)
          return true end }
        at(0, user.launch)
        """, options: RunOptions(limits: RunLimits(instructions: 1_000_000)), eventLimit: 100_000)
        #expect(s.exitCode == 2)
        #expect(s.error?.message.contains("the run passed its limit of 1000000 Lua instructions") == true, "\(s.error?.message ?? "no error")")
        #expect(s.world.stats.events < 10_000, "\(s.world.stats.events) events")
    }

    /// R04: the event limit names the line that submitted the block (or where a thread works).
    @Test(arguments: [
        ("local q = dispatch.queue('q')\n  local function f() q:async(f) end\n  q:async(f)", 3),
        ("local function f() dispatch.global(f) end\n  f()", 2),
        ("dispatch.global(function() while true do work(0.001) end end)", 2),
    ])
    func aStormAtTheEventLimitNamesTheLineThatSubmittedIt(body: String, line: Int) {
        let s = simulate("""
        app { didFinishLaunching = function(app)
          \(body)
          return true end }
        at(0, user.launch)
        """, budget: 100_000_000, eventLimit: 5_000)
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:\(line): the run passed its limit of 5000 events") == true,
                "\(s.error?.message ?? "no error")")
    }

    /// R02: the wait-for walk marks what it visited, so a cycle of any length is found (it gave
    /// up past 10,000 threads) in time linear in the chain.
    @Test func aDeadlockOfAnyLengthIsReported() {
        let s = simulate("""
        app { didFinishLaunching = function(app)
          local qs = {}
          for i = 1, 10500 do qs[i] = dispatch.queue("q" .. i) end
          for i = 1, 10500 do
            local next = qs[i % 10500 + 1]
            qs[i]:async(function() next:sync(function() end) end)
          end
          return true end }
        at(0, user.launch)
        """, budget: 100_000_000)
        #expect(s.codes.filter { $0 == "deadlock" }.count == 1, "\(s.codes)")
        let message = s.world.violations.first { $0.code == .deadlock }?.message ?? ""
        #expect(message.hasPrefix("deadlock: thread #10500 at test.lua:6, thread #1 at test.lua:6, thread #2 at test.lua:6"), "\(message.prefix(200))")
        #expect(message.contains("thread #10499 at test.lua:6 wait for each other"))
    }

    /// R01: 3,000 threads waiting on one lock get it one after another, in the order they asked.
    @Test func lockWaitersAreHandedOverInRequestOrder() {
        let s = simulate("""
        app { didFinishLaunching = function(app)
          local m = dispatch.lock()
          m:lock()
          for i = 1, 3000 do dispatch.global(function() m:lock() if i % 1000 == 0 then print(i, now()) end m:unlock() end) end
          after(1, function() m:unlock() end)
          return true end }
        at(0, user.launch)
        """, budget: 100_000_000)
        #expect(s.printed == ["1000\t1", "2000\t1", "3000\t1"])
        #expect(s.codes.isEmpty, "\(s.codes)")
    }

    /// R06: a download started from each didComplete: what was delivered is forgotten, the task
    /// objects handed to the delegate are let go once its calls ran, so memory stays flat.
    @Test func deliveredTransfersAndTheirObjectsAreLetGo() {
        let s = simulate("""
        scenario { os = "ios26", duration = minutes(20) }
        local api = server "api.test" { latency = 0.5 }
        api:route("GET /f", { status = 200, body = "x" })
        app { scenes = true, delegate = function(app)
          local S
          local function sess()
            S = S or urlSession.background("dl", { didFinishDownloading = function(t, r) end,
                                                   didComplete = function(t, e) sess():download("https://api.test/f") end })
            return S
          end
          return {
            didFinishLaunching = function(app, l) sess():download("https://api.test/f") return true end,
            handleEventsForBackgroundURLSession = function(app, id, done) sess() dispatch.main(done) end,
          } end }
        at(0, user.launch) at(1, user.home)
        every(60, function() collectgarbage() print(math.floor(collectgarbage("count"))) end)
        """, budget: 100_000_000)
        #expect(s.exitCode == 0, "\(s.error?.message ?? "") \(s.codes)")
        #expect(s.world.stats.transfers > 2000)
        #expect(s.world.sessions.held.count <= 2, "\(s.world.sessions.held.count) objects still held")
        #expect((s.world.sessions.sessions["dl"]?.tasks.count ?? 0) <= 1)
        let kib = s.printed.compactMap { Int($0) }
        #expect(kib.count >= 19 && kib.last! <= kib[1] + 8, "Lua memory grew: \(kib)")
    }

    /// R13: threads and queued blocks count against the memory cap with what they really take.
    @Test func threadsCountAgainstTheMemoryCap() {
        let s = simulate("""
        app { didFinishLaunching = function(app)
          local f = function() end
          for i = 1, 100000 do dispatch.global(f) end
          return true end }
        at(0, user.launch)
        """, budget: 100_000_000, memoryCap: 32 << 20)
        #expect(s.codes == ["out-of-memory"], "\(s.codes)")
        #expect(ThreadBook.bytesPerThread >= 200)
    }

    /// The waiting threads' order survives its compaction: a thread that waits and wakes 200
    /// times beside 50 idle queue threads, then one waiting for good, which pending-at-end names.
    @Test func pendingAtEndNamesTheFirstThreadStillWaiting() {
        let s = simulate("""
        scenario { duration = 10 }
        app { didFinishLaunching = function(app)
          local m = dispatch.lock()
          for i = 1, 50 do local q = dispatch.queue("idle" .. i) q:async(function() end) end
          dispatch.global(function() for k = 1, 200 do work(0.01) end end)
          m:lock()
          dispatch.global(function() work(1) m:lock() end)
          return true end }
        at(0, user.launch)
        """)
        let v = s.world.violations.first { $0.code == .pendingAtEnd }
        #expect(v?.location?.description == "test.lua:7", "\(s.codes) \(v?.message ?? "")")
        #expect(v?.message.contains("1 background thread waiting") == true, "\(v?.message ?? "")")
    }

    /// Host work that grows with the scenario is charged: a chain of waits walked at each wait.
    @Test func theDeadlockWalkIsChargedToTheRun() {
        let s = simulate("""
        app { didFinishLaunching = function(app)
          local prev
          for i = 1, 2000 do
            local q, p = dispatch.queue("q" .. i), prev
            q:async(function() if p then p:sync(function() end) end work(0.01) end)
            prev = q
          end
          return true end }
        at(0, user.launch)
        """, options: RunOptions(limits: RunLimits(instructions: 5_000_000)), budget: 100_000_000)
        // 2,000 waits walk 2,000,000 steps in all: past the limit, at the line of a sync.
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:5: the run passed its limit of 5000000 Lua instructions") == true,
                "\(s.error?.message ?? "no error")")
    }
}

// SPEC 4.2 and 8: after/timers across suspension, work() and the callback limits, handler errors,
// endless loops and memory (app-crash, app-hang, out-of-memory), and the world going on after.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct AppTimeTests {
    @Test func timersDoNotFireWhileSuspendedAndCatchUpOnceOnResume() {
        let s = simulate("""
            app { didFinishLaunching = function(app)
                    timer.every(10, function() print(now()) end)
                    return true end,
                  didBecomeActive = function() print("active " .. now()) end }
            at(0, user.launch)
            at(25, user.home)
            at(67, user.open)
            at(85, user.home)
            """)
        #expect(s.printed == ["active 0", "10", "20", "active 67", "67", "70", "80"])
    }

    /// A world `every` longer than 2^31 ms (about 25 days) keeps its interval: the event carries
    /// it whole.
    @Test func aWorldEveryOfWeeksKeepsItsInterval() {
        let s = simulate("scenario { duration = days(30) }\nevery(days(12.5), function() print(now() / 86400) end)\nevery(days(26), function() print(now() / 86400) end)")
        #expect(s.printed == ["12.5", "25.0", "26.0"])
    }

    @Test func invalidatedTimersStop() {
        let s = simulate("""
            app { didFinishLaunching = function(app)
                    local t
                    t = timer.every(1, function(timer) print(now(), tostring(timer)); if now() >= 2 then t:invalidate() end end)
                    return true end }
            at(0, user.launch)
            at(10, user.home)
            """)
        #expect(s.printed == ["1\ttimer #1", "2\ttimer #1"])
    }

    @Test func afterRunsLateWhenTheAppWasSuspended() {
        let s = simulate("""
            app { didEnterBackground = function() after(5, function() print("after " .. now()) end) end }
            at(0, user.launch)
            at(10, user.home)
            at(100, user.open)
            """)
        #expect(s.printed == ["after 100"])
    }

    @Test func workAdvancesTheClock() {
        let s = simulate("""
            app { didFinishLaunching = function(app) work(2.5); print(now()); return true end }
            at(0, user.launch)
            """)
        #expect(s.printed == ["2.5"])
    }

    @Test(arguments: [("didEnterBackground", "at(0, user.launch)\nat(10, user.home)", 15_000),
                      ("didFinishLaunching", "at(0, user.launch)", 20_000),
                      ("willTerminate", "at(0, user.launch)\nat(10, user.home)\nat(11, user.forceQuit)", 11_000 + 5_000)])
    func callbackOverrunIsKilledAtTheLimit(method: String, timeline: String, at time: Millis) {
        let extra = method == "willTerminate" ? "didEnterBackground = function(app) app:beginBackgroundTask(nil) end," : ""
        let s = simulate("app { \(extra)\n  \(method) = function(app)\n    work(60)\n    print('unreachable')\n    return true\n  end }\n" + timeline)
        #expect(s.codes == ["callback-overrun"])
        #expect(s.world.violations[0].time == time)
        #expect(s.world.violations[0].location?.description == "test.lua:3")
        #expect(s.world.violations[0].exceptionCode == "0x8badf00d")
        #expect(s.printed.isEmpty)
    }

    @Test func workWithinTheLimitIsFine() {
        let s = simulate("app { didEnterBackground = function() work(4.999) end }\nat(0, user.launch)\nat(10, user.home)")
        #expect(s.codes.isEmpty)
    }

    @Test func workPastTheTaskDeadlineIsTaskExpired() {
        let s = simulate("""
            app { didEnterBackground = function(app)
                    app:beginBackgroundTask(nil)
                    after(1, function() work(100) end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            """)
        #expect(s.codes == ["task-expired"])
        #expect(s.world.violations[0].time == 40_000)
    }

    @Test func anErrorInAHandlerIsAnAppCrashAndTheWorldGoesOn() {
        let s = simulate("""
            local launches = 0
            app { didFinishLaunching = function(app)
                    launches = launches + 1
                    if launches == 1 then
                      local t = nil
                      return t.field
                    end
                    return true
                  end,
                  didBecomeActive = function() print("active " .. now()) end }
            at(0, user.launch)
            at(5, user.launch)
            expect.violation("app-crash", 1)
            """)
        #expect(s.codes == ["app-crash"])
        let v = s.world.violations[0]
        #expect(v.location?.description == "test.lua:6")
        #expect(v.message.contains("attempt to index a nil value"))
        #expect(v.traceback?.contains("test.lua:6") == true)
        #expect(s.printed == ["active 5"])
        #expect(s.exitCode == 0)
    }

    @Test func anEndlessLoopInAHandlerIsAnAppHangEvenUnderPcall() {
        let s = simulate("""
            app { didFinishLaunching = function(app)
                    pcall(function() while true do end end)
                    print("unreachable")
                    return true
                  end }
            at(0, user.launch)
            """)
        #expect(s.codes == ["app-hang"])
        #expect(s.world.violations[0].location?.description == "test.lua:2")
        #expect(s.printed.isEmpty)
        #expect(s.world.state == .notRunning)
    }

    @Test func anEndlessLoopInANestedCoroutineIsStillAHang() {
        let s = simulate("""
            app { didFinishLaunching = function(app)
                    local co = coroutine.wrap(function() while true do end end)
                    pcall(co)
                    pcall(co)
                    print("unreachable")
                    return true
                  end }
            at(0, user.launch)
            """)
        #expect(s.codes == ["app-hang"])
        #expect(s.printed.isEmpty)
    }

    @Test func runawayMemoryInAHandlerIsOutOfMemory() {
        let s = simulate("""
            local keep = {}
            app { didFinishLaunching = function(app)
                    pcall(function() for i = 1, 1e9 do keep[i] = string.rep("x", 4096) .. i end end)
                    print("unreachable")
                    return true
                  end }
            at(0, user.launch)
            at(1, function() keep = nil end)
            """, budget: 0, memoryCap: 16 << 20)
        #expect(s.codes == ["out-of-memory"])
        #expect(s.world.violations[0].location?.description == "test.lua:3")
        #expect(s.printed.isEmpty)
        #expect(s.error == nil)
    }
}

@Suite struct ExpectationTests {
    @Test func noViolationsFailsOnAWarningToo() {
        let s = simulate("app { didFinishLaunching = function(app) app:endBackgroundTask(7) return true end }\nat(0, user.launch)\nexpect.noViolations()")
        #expect(s.exitCode == 1)
        #expect(s.world.expectationResults.map(\.passed) == [false])
    }

    @Test func violationWithoutCountNeedsAtLeastOne() {
        let base = "app { didFinishLaunching = function(app) app:endBackgroundTask(7) app:endBackgroundTask(8) return true end }\nat(0, user.launch)\n"
        #expect(simulate(base + "expect.violation('task-unknown')").exitCode == 0)
        #expect(simulate(base + "expect.violation('task-unknown', 2)").exitCode == 0)
        #expect(simulate(base + "expect.violation('task-unknown', 1)").exitCode == 1)
        #expect(simulate(base + "expect.violation('task-expired')").exitCode == 1)
    }

    @Test func anUnexpectedErrorFailsTheRunAndANamedOneDoesNot() {
        let crash = "app { didFinishLaunching = function(app) error('x') end }\nat(0, user.launch)\n"
        #expect(simulate(crash).exitCode == 1)
        #expect(simulate(crash + "expect.violation('app-crash')").exitCode == 0)
    }

    @Test func thatAndAtAreCheckedWhenDue() {
        let s = simulate("""
            local n = 0
            every(10, function() n = n + 1 end)
            scenario { duration = 100 }
            expect.at(35, "three ticks", function() return n == 3 end)
            expect.that("ten ticks", function() return n == 10 end)
            expect.that("wrong", function() return n == 11 end)
            """)
        #expect(s.world.expectationResults.map(\.passed) == [true, true, false])
        #expect(s.world.expectationResults.map(\.time) == [35_000, 100_000, 100_000])
        #expect(s.exitCode == 1)
    }

    @Test func anErrorInAnExpectationIsAScenarioError() {
        let s = simulate("expect.that('x', function() return nil + 1 end)")
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:1:") == true)
    }

    @Test func aRunWithTooManyEventsFailsLoudly() {
        let s = simulate("scenario { duration = days(30) }\nevery(0.001, function() end)", eventLimit: 5_000)
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:2: the run passed its limit of 5000 events at +0d00:00:05.000") == true)
        #expect(s.error?.message.contains("--limit-events") == true)
    }

    @Test func observersThatPostWhatTheyObserveStop() {
        let world = simulate("notifications.observe('x', function() notifications.post('x') end)\nat(1, function() notifications.post('x') end)")
        #expect(world.exitCode == 2)
        #expect(world.error?.message.contains("handlers nested more than 48 deep") == true)
        let app = simulate("""
            app { didFinishLaunching = function(app)
                    notifications.observe("y", function() notifications.post("y") end)
                    notifications.post("y")
                    return true end }
            at(0, user.launch)
            at(5, function() print("world goes on") end)
            """)
        #expect(app.codes == ["app-crash"])
        #expect(app.printed == ["world goes on"])
    }

    @Test func pendingAtEndWarns() {
        let s = simulate("scenario { duration = 20 }\napp { didEnterBackground = function(app) app:beginBackgroundTask(nil) end }\nat(0, user.launch)\nat(10, user.home)")
        #expect(s.codes == ["pending-at-end"])
        #expect(s.exitCode == 0)
    }

    @Test func runsUntilIdleWithoutADuration() {
        let s = simulate("every(60, function() end)\nat(100, function() print('last') end)")
        #expect(s.world.now == 100_000)
        let d = simulate("scenario { duration = 3600 }\nevery(60, function() end)")
        #expect(d.world.now == 3_600_000)
    }

    @Test func eventsAtExactlyTheDurationRun() {
        let s = simulate("scenario { duration = 10 }\nat(10, function() print('at the end') end)\nat(10.001, function() print('too late') end)")
        #expect(s.printed == ["at the end"])
    }

    @Test func untilCutsTheRun() {
        let s = simulate("at(10, function() print('a') end)\nat(20, function() print('b') end)", options: RunOptions(until: 15_000))
        #expect(s.printed == ["a"])
    }
}

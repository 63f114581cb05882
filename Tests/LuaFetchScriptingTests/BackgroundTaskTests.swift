// SPEC 4.3 and 5: background tasks, the app's budget per background episode, expiration handlers,
// the watchdog, suspension when the last task ends, inclusive deadlines, profile numbers.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

/// An app that begins a task on Home and ends it in the expiration handler, printing times.
let expiringApp = """
    local task
    app { didEnterBackground = function(app)
            task = app:beginBackgroundTask("t", function()
              print("expire " .. now() .. " " .. app.backgroundTimeRemaining)
              app:endBackgroundTask(task)
            end)
          end }
    at(0, user.launch)
    at(10, user.home)

    """

@Suite struct BackgroundTaskTests {
    @Test(arguments: [("ios6", 600), ("ios7", 180), ("ios13", 30)])
    func budgetPerProfile(os: String, budget: Int) {
        let s = simulate("scenario { os = '\(os)' }\n" + expiringApp)
        #expect(s.printed == ["expire \(10 + budget - 5) 5"])
        #expect(s.codes.isEmpty)
    }

    @Test func budgetsAreOverridable() {
        let s = simulate("scenario { budgets = { backgroundTask = 100, expirationWarning = 10 } }\n" + expiringApp)
        #expect(s.printed == ["expire 100 10"])
    }

    @Test func remainingTimeIsHugeInTheForegroundAndCountsDownInTheBackground() {
        let s = simulate("""
            local id
            app { didBecomeActive = function(app) print(app.backgroundTimeRemaining == math.huge) end,
                  didEnterBackground = function(app)
                    id = app:beginBackgroundTask(function() app:endBackgroundTask(id) end)
                    print(app.backgroundTimeRemaining)
                    timer.after(7.5, function() print(app.backgroundTimeRemaining) end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            """)
        #expect(s.printed == ["true", "30", "22.5"])
    }

    @Test func aTaskStillOpenAtTheDeadlineGetsTheAppKilled() {
        let s = simulate("app { didEnterBackground = function(app)\n  app:beginBackgroundTask(function() end)\nend }\nat(0, user.launch)\nat(10, user.home)")
        #expect(s.codes == ["task-not-ended-in-handler", "task-expired"])
        let v = s.world.violations[1]
        #expect(v.time == 40_000)
        #expect(v.location?.description == "test.lua:2")
        #expect(v.exceptionCode == "0x8badf00d")
        #expect(s.world.state == .notRunning)
        #expect(s.exitCode == 1)
    }

    @Test func moreTasksNeverExtendTheBudget() {
        let s = simulate("""
            local a, b
            app { didEnterBackground = function(app)
                    a = app:beginBackgroundTask(function() print("a " .. now()); app:endBackgroundTask(a) end)
                    after(20, function() b = app:beginBackgroundTask(function() print("b " .. now()); app:endBackgroundTask(b) end) end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            """)
        #expect(s.printed == ["a 35", "b 35"])
    }

    @Test func expirationHandlersRunInBeginOrder() {
        let s = simulate("""
            local ids = {}
            app { didEnterBackground = function(app)
                    for i = 1, 3 do ids[i] = app:beginBackgroundTask(function() print(i); app:endBackgroundTask(ids[i]) end) end
                  end }
            at(0, user.launch)
            at(10, user.home)
            """)
        #expect(s.printed == ["1", "2", "3"])
    }

    @Test func returningToTheForegroundStopsTheClockAndTheNextHomeGrantsAFreshBudget() {
        let s = simulate("""
            local id
            app { didEnterBackground = function(app)
                    if id then return end
                    id = app:beginBackgroundTask(function() print("expire " .. now()); app:endBackgroundTask(id) end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            at(30, user.open)
            at(100, user.home)
            """)
        #expect(s.printed == ["expire 125"])
    }

    @Test func suspensionWaitsForTheHandlerToReturn() {
        let s = simulate("""
            app { didEnterBackground = function(app)
                    local id = app:beginBackgroundTask(nil)
                    after(3, function()
                      app:endBackgroundTask(id)
                      print("still running: " .. app.state)
                      after(0, function() print("same-instant block: " .. app.state) end)
                      after(1, function() print("never: suspended") end)
                    end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            expect.at(14, "suspended", function() return app.state == "suspended" end)
            """)
        // Blocks submitted for the same instant run before suspension (SPEC 12.2 amends 4.3).
        #expect(s.printed == ["still running: background", "same-instant block: background"])
        #expect(s.exitCode == 0)
    }

    @Test func endingAtExactlyTheDeadlineIsInTime() {
        let s = simulate("""
            app { didEnterBackground = function(app)
                    local id = app:beginBackgroundTask(nil)
                    after(30, function() app:endBackgroundTask(id) end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            """)
        #expect(s.codes.isEmpty)
    }

    @Test func endingOneMillisecondLateIsNot() {
        let s = simulate("""
            app { didEnterBackground = function(app)
                    local id = app:beginBackgroundTask(nil)
                    after(30.001, function() app:endBackgroundTask(id) end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            """)
        #expect(s.codes == ["task-expired"])
    }

    @Test func unknownOrEndedTaskIDsWarn() {
        let s = simulate("""
            app { didFinishLaunching = function(app)
                    local id = app:beginBackgroundTask(nil)
                    app:endBackgroundTask(id)
                    app:endBackgroundTask(id)
                    app:endBackgroundTask(99)
                    return true end }
            at(0, user.launch)
            """)
        #expect(s.codes == ["task-unknown", "task-unknown"])
        #expect(s.world.violations[0].severity == .warning)
        #expect(s.exitCode == 0)
        #expect(simulate("app { didFinishLaunching = function(app) app:endBackgroundTask(1) return true end }\nat(0, user.launch)", options: RunOptions(strict: true)).exitCode == 1)
    }

    @Test func taskHeldTooLongWarnsOnlyUnderIOS13() {
        let src = """
            local id
            app { didEnterBackground = function(app)
                    id = app:beginBackgroundTask(function() app:endBackgroundTask(id) end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            """
        #expect(simulate("scenario { budgets = { backgroundTask = 60 } }\n" + src).codes == ["task-held-too-long"])
        #expect(simulate("scenario { os = 'ios7' }\n" + src).codes.isEmpty)
    }

    @Test func tooManyTasksTerminatesTheApp() {
        let s = simulate("scenario { budgets = { maxTasks = 3 } }\napp { didFinishLaunching = function(app)\n for i = 1, 5 do app:beginBackgroundTask(nil) end\n print('unreachable')\n return true end }\nat(0, user.launch)")
        #expect(s.codes == ["too-many-tasks"])
        #expect(s.world.violations[0].exceptionCode == "0xbada5e47")
        #expect(s.printed.isEmpty)
    }

    @Test func beginReturnsInvalidWithoutMultitaskingOrOnceTheTimeIsSpent() {
        let s = simulate("""
            local id
            app { didEnterBackground = function(app)
                    id = app:beginBackgroundTask(function()
                      print(app:beginBackgroundTask(nil) == UIBackgroundTaskInvalid)
                      app:endBackgroundTask(id)
                    end)
                  end }
            at(0, user.launch)
            at(10, user.home)
            """)
        #expect(s.printed == ["true"])
        let off = simulate("scenario { device = { multitasking = false } }\napp { didFinishLaunching = function(app) print(app:beginBackgroundTask(nil)) return true end }\nat(0, user.launch)")
        #expect(off.printed == ["0"])
    }

    @Test func idsStartAtOneAndAreNeverReused() {
        let s = simulate("""
            app { didFinishLaunching = function(app)
                    local a = app:beginBackgroundTask(nil); app:endBackgroundTask(a)
                    local b = app:beginBackgroundTask(nil); app:endBackgroundTask(b)
                    print(a, b) return true end }
            at(0, user.launch)
            """)
        #expect(s.printed == ["1\t2"])
    }
}

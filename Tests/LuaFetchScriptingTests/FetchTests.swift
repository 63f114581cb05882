// SPEC 4.4, 6.2, 6.3: background fetch eligibility, the three policies, waking and launching for
// a fetch, the completion handler's rules, Xcode's debug actions.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

/// An app that sets the interval at launch and completes every fetch with `result` after `delay`.
func fetchingApp(result: String = "newData", delay: Double = 0.5, interval: String = "UIApplicationBackgroundFetchIntervalMinimum",
                 modes: String = "{ 'fetch' }") -> String {
    """
    app {
      backgroundModes = \(modes),
      didFinishLaunching = function(app, launch)
        print("launch " .. launch.reason .. " " .. app.state)
        app:setMinimumBackgroundFetchInterval(\(interval))
        return true
      end,
      didBecomeActive = function() print("active") end,
      performFetch = function(app, completionHandler)
        print("fetch " .. now() .. " " .. app.state)
        after(\(delay), function() completionHandler("\(result)") end)
      end,
    }

    """
}

extension Sim {
    /// Virtual times (seconds) at which performFetch ran.
    var fetchTimes: [Double] {
        printed.filter { $0.hasPrefix("fetch ") }.map { Double($0.split(separator: " ")[1])! }
    }
}

@Suite struct FetchScheduleTests {
    @Test func fixedPolicyFetchesExactlyEveryGap() {
        let s = simulate("scenario { fetchPolicy = 'fixed', duration = hours(1) + 1 }\n" + fetchingApp() + "at(0, user.launch)\nat(10, user.home)")
        #expect(s.fetchTimes == [900, 1800, 2700, 3600])
    }

    @Test func fixedPolicyUsesTheLargerOfIntervalAndFloor() {
        let s = simulate("scenario { fetchPolicy = 'fixed', duration = hours(1) + 1 }\n" + fetchingApp(interval: "1500") + "at(0, user.launch)\nat(10, user.home)")
        #expect(s.fetchTimes == [1500, 3000])
        let ios7 = simulate("scenario { os = 'ios7', fetchPolicy = 'fixed', duration = 1300 }\n" + fetchingApp() + "at(0, user.launch)\nat(10, user.home)")
        #expect(ios7.fetchTimes == [600, 1200])
    }

    @Test func neverIsTheDefault() {
        let s = simulate("scenario { duration = hours(2) }\n" + fetchingApp(interval: "UIApplicationBackgroundFetchIntervalNever") + "at(0, user.launch)\nat(10, user.home)")
        #expect(s.fetchTimes.isEmpty)
    }

    @Test func adaptivePolicyDoublesTheGapOnNoData() {
        let s = simulate("scenario { duration = days(1) }\n" + fetchingApp(result: "noData") + "at(0, user.launch)\nat(10, user.home)")
        let t = s.fetchTimes
        #expect(t.count >= 4)
        let gaps = zip(t.dropFirst(), t).map { $0 - $1 }
        #expect(t[0] >= 900 && t[0] <= 1080)  // never sooner than the interval (SPEC 12.3): u in [0, 0.2]
        for (i, g) in gaps.prefix(4).enumerated() {
            let expected = min(900 * Double(1 << (i + 1)), 900 * 32)
            #expect(g >= expected && g <= expected * 1.2 + 0.001, "gap \(i): \(g)")
        }
    }

    @Test func adaptiveFactorResetsOnNewDataAndIsShown() {
        let s = simulate("scenario { duration = hours(3) }\n" + fetchingApp(result: "newData") + "at(0, user.launch)\nat(10, user.home)")
        let gaps = zip(s.fetchTimes.dropFirst(), s.fetchTimes).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 900 && $0 <= 1080 })
        #expect(s.messages.contains { $0.contains("next gap ×1") })
    }

    @Test func lateCompletionBacksOffByOneAndAHalf() {
        let s = simulate("scenario { duration = hours(2) }\n" + fetchingApp(result: "newData", delay: 12) + "at(0, user.launch)\nat(10, user.home)")
        #expect(s.messages.contains { $0.contains("next gap ×1.5") })
    }

    @Test func jitterFollowsTheSeed() {
        let src = "scenario { duration = hours(6) }\n" + fetchingApp() + "at(0, user.launch)\nat(10, user.home)"
        #expect(simulate(src).fetchTimes == simulate(src).fetchTimes)
        #expect(simulate(src).fetchTimes != simulate(src, options: RunOptions(seed: 99)).fetchTimes)
    }

    @Test func manualPolicyFetchesOnlyOnRequest() {
        let s = simulate("scenario { fetchPolicy = 'manual', duration = hours(2) }\n" + fetchingApp() + "at(0, user.launch)\nat(10, user.home)\nat(100, system.backgroundFetch)")
        #expect(s.fetchTimes == [100])
    }

    @Test func aFetchDueInTheForegroundHappensWhenTheAppIsSuspended() {
        let s = simulate("scenario { fetchPolicy = 'fixed', duration = 1000 }\n" + fetchingApp() + "at(0, user.launch)\nat(950, user.home)")
        #expect(s.fetchTimes == [950])
    }

    @Test(arguments: ["system.setLowPowerMode(true)", "system.setBackgroundRefresh(false)", "user.forceQuit()"])
    func ineligibleFetchesAreSkipped(action: String) {
        let s = simulate("scenario { fetchPolicy = 'fixed', duration = 2000 }\n" + fetchingApp() + "at(0, user.launch)\nat(10, user.home)\nat(20, function() \(action) end)")
        #expect(s.fetchTimes.isEmpty)
        #expect(s.messages.filter { $0.hasPrefix("scheduled fetch skipped") }.count == 2)
    }

    @Test func forceQuitBlocksUntilTheNextUserLaunch() {
        let s = simulate("scenario { fetchPolicy = 'fixed', duration = 2000 }\n" + fetchingApp() + "at(0, user.launch)\nat(10, user.home)\nat(20, user.forceQuit)\nat(1000, user.launch)\nat(1010, user.home)")
        #expect(s.fetchTimes == [1900])
    }

    @Test func withoutTheFetchModeNothingHappensAndAWarningSaysWhy() {
        let s = simulate("scenario { fetchPolicy = 'fixed', duration = 2000 }\n" + fetchingApp(modes: "{}") + "at(0, user.launch)\nat(10, user.home)\nat(30, system.backgroundFetch)")
        #expect(s.fetchTimes.isEmpty)
        #expect(s.codes == ["fetch-not-configured"])
        #expect(s.world.violations[0].time == 0)
    }
}

@Suite struct FetchDeliveryTests {
    @Test func aFetchLaunchesANotRunningAppIntoTheBackground() {
        let s = simulate(fetchingApp() + "at(0, system.launchForFetch)")
        #expect(s.printed == ["launch backgroundFetch background", "fetch 0 background"])
        #expect(s.world.stats.backgroundLaunches == 1)
    }

    @Test func aFetchWakesASuspendedApp() {
        let s = simulate(fetchingApp() + "at(0, user.launch)\nat(10, user.home)\nat(50, system.backgroundFetch)\nexpect.at(51, 'suspended again', function() return app.state == 'suspended' end)")
        #expect(s.fetchTimes == [50])
        #expect(s.world.stats.wakes == 1)
        #expect(s.exitCode == 0)
    }

    @Test func simulateBackgroundFetchSendsAForegroundAppToTheBackgroundFirst() {
        let s = simulate(fetchingApp() + "at(0, user.launch)\nat(5, system.backgroundFetch)")
        #expect(s.printed == ["launch user inactive", "active", "fetch 5 background"])
    }

    @Test func aBackgroundLaunchGetsTheLaunchedBudget() {
        let s = simulate("scenario { budgets = { backgroundTaskLaunched = 20 } }\n" + """
            local id
            app { backgroundModes = { "fetch" },
                  performFetch = function(app, done)
                    id = app:beginBackgroundTask(function() print("expire " .. now()); app:endBackgroundTask(id) end)
                    done("noData")
                  end }
            at(0, system.launchForFetch)
            """)
        #expect(s.printed == ["expire 15"])
    }

    @Test func aMissingCompletionKillsTheAppAfterThirtySeconds() {
        let s = simulate("""
            app { backgroundModes = { "fetch" },
                  performFetch = function(app, completionHandler)
                    print("forgot")
                  end }
            at(0, system.launchForFetch)
            """)
        #expect(s.codes == ["fetch-no-completion"])
        #expect(s.world.violations[0].time == 30_000)
        // Where performFetch returned without calling it (its end), not its first line.
        #expect(s.world.violations[0].location?.description == "test.lua:4")
        #expect(s.world.violations[0].exceptionCode == "0x8badf00d")
    }

    @Test func completingAtExactlyTheDeadlineIsInTime() {
        let s = simulate(fetchingApp(delay: 30) + "at(0, system.launchForFetch)")
        #expect(s.codes.isEmpty)
    }

    @Test func aSecondCompletionCrashesTheApp() {
        let s = simulate("""
            app { backgroundModes = { "fetch" },
                  performFetch = function(app, completionHandler)
                    completionHandler("newData")
                    completionHandler(UIBackgroundFetchResultNewData)
                    print("unreachable")
                  end }
            at(0, system.launchForFetch)
            """)
        #expect(s.codes == ["fetch-double-completion"])
        #expect(s.world.violations[0].location?.description == "test.lua:4")
        #expect(s.world.violations[0].exceptionCode == "NSInternalInconsistencyException")
        #expect(s.printed.isEmpty)
    }

    @Test(arguments: ["'newdata'", "1", "nil", "true"])
    func aBadResultCrashesTheApp(result: String) {
        let s = simulate("app { backgroundModes = { 'fetch' }, performFetch = function(app, done) done(\(result)) end }\nat(0, system.launchForFetch)")
        #expect(s.codes == ["fetch-bad-result"])
    }

    @Test func theResultConstantsAreTheStrings() {
        let s = simulate("print(UIBackgroundFetchResultNewData, UIBackgroundFetchResultNoData, UIBackgroundFetchResultFailed, UIApplicationBackgroundFetchIntervalMinimum, UIApplicationBackgroundFetchIntervalNever == math.huge)")
        #expect(s.printed == ["newData\tnoData\tfailed\t0\ttrue"])
    }

    @Test func theSuspensionAfterCompletionWaitsForOpenTasks() {
        let s = simulate("""
            app { backgroundModes = { "fetch" },
                  performFetch = function(app, done)
                    local id = app:beginBackgroundTask(nil)
                    done("newData")
                    after(3, function() print(app.state); app:endBackgroundTask(id) end)
                  end }
            at(0, system.launchForFetch)
            expect.at(4, "suspended", function() return app.state == "suspended" end)
            """)
        #expect(s.printed == ["background"])
        #expect(s.exitCode == 0)
    }

    @Test func ios6HasNoFetchAPI() {
        let s = simulate("scenario { os = 'ios6' }\n" + fetchingApp() + "at(0, user.launch)")
        #expect(s.codes == ["app-crash"])
        #expect(s.world.violations[0].message.contains("unrecognized selector"))
    }
}

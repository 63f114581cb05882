// SPEC 12.3: watchdog details. Observers run inside their transition's limit; task-held-too-long
// is logged taskHeldWarning after the task began, in any state; a completion limit passing in the
// foreground is reported without terminating the app; adaptive fetch never comes sooner than the
// interval.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct WatchdogDetailTests {
    @Test func anObserverOfDidEnterBackgroundSharesItsFiveSeconds() {
        let s = simulate("""
        app {
          didFinishLaunching = function()
            notifications.observe(UIApplicationDidEnterBackgroundNotification, function() work(3) end)
          end,
          didEnterBackground = function(app)
            app:beginBackgroundTask(function() end)
            work(3)
          end,
        }
        at(0, user.launch)
        at(1, user.home)
        """)
        #expect(s.codes == ["callback-overrun"])
        #expect(s.world.violations[0].time == 6_000)
        #expect(s.world.violations[0].location?.line == 3)
        #expect(s.world.violations[0].message.hasPrefix("an observer of UIApplicationDidEnterBackgroundNotification computed past didEnterBackground's 5s limit"),
                "\(s.world.violations[0].message)")
    }

    @Test func anObserverAloneStillHasTheLimit() {
        let s = simulate("""
        notifications.observe(UIApplicationWillTerminateNotification, function() end)
        app { didFinishLaunching = function()
          notifications.observe(UIApplicationDidFinishLaunchingNotification, function() work(25) end)
        end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["callback-overrun"])
        #expect(s.world.violations[0].time == 20_000)
    }

    @Test func taskHeldTooLongIsLoggedInTheForegroundToo() {
        let s = simulate("""
        app { didBecomeActive = function(app) app:beginBackgroundTask("sync", function() end) end }
        at(0, user.launch)
        at(100, function() end)
        """)
        #expect(s.codes == ["task-held-too-long", "pending-at-end"])
        #expect(s.world.violations[0].time == 30_000)
        #expect(s.world.state == .active)
    }

    @Test func aCompletionLimitPassingInTheForegroundDoesNotTerminate() {
        let s = simulate("""
        local late
        app { backgroundModes = { "fetch" },
          performFetch = function(app, done) late = done end }
        at(0, user.launch)
        at(1, system.backgroundFetch)
        at(5, user.open)
        at(50, user.home)
        """)
        #expect(s.codes == ["fetch-no-completion"])
        #expect(s.world.violations[0].time == 31_000)
        #expect(s.world.violations[0].message.contains("does not terminate it"))
        #expect(s.world.stats.terminations == 0)
        #expect(s.world.state == .suspended)  // the completion no longer keeps the app running
    }

    @Test func aLateCompletionAfterAForegroundLapseIsIgnoredOnce() {
        let s = simulate("""
        local late
        app { backgroundModes = { "fetch" },
          performFetch = function(app, done) late = done end,
          didEnterBackground = function() if late then late("newData") end end }
        at(0, user.launch)
        at(1, system.backgroundFetch)
        at(5, user.open)
        at(50, user.home)
        """)
        #expect(s.codes == ["fetch-no-completion"])
        #expect(s.world.state == .suspended)
    }
}

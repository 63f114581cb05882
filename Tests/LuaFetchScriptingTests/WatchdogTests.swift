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

/// SPEC 12.2 (third amendment): a transition's own calls that block the main thread, and the
/// call's end on the person's clock (SPEC 6.1).
@Suite struct TransitionCallTests {
    /// The states the app went through, in order.
    static func states(_ s: Sim) -> [String] {
        s.world.timeline.compactMap { e in if case .state(let st)? = e.detail { return st.rawValue } else { return nil } }
    }

    @Test func aBlockingWillEnterForegroundIsAMainThreadHangAndNeverSuspended() {
        let s = simulate("""
        scenario { duration = 300 }
        app { willEnterForeground = function(app)
          work(30)   -- a synchronous network call on resume
        end }
        at(0, user.launch)
        at(10, user.home)
        at(60, user.open)
        """)
        #expect(s.codes == ["main-thread-hang"])
        #expect(s.world.violations[0].time == 70_000)
        #expect(s.world.violations[0].location?.line == 3)
        #expect(s.world.violations[0].exceptionCode == "0x8badf00d")
        // Suspended after Home, resumed at the open, never suspended again while the person waits.
        #expect(Self.states(s) == ["inactive", "active", "inactive", "background", "suspended", "background", "notRunning"])
    }

    @Test func aBlockingDidBecomeActiveAtLaunchIsAMainThreadHang() {
        let s = simulate("""
        app { didBecomeActive = function(app) work(30) end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["main-thread-hang"])
        #expect(s.world.violations[0].time == 10_000)
    }

    @Test func theBoundCoversEveryCallOfTheTransitionAndItsObservers() {
        // willEnterForeground 6 s, then an observer of didBecomeActive 6 s: 12 s > 10 s.
        let s = simulate("""
        app {
          didFinishLaunching = function()
            notifications.observe(UIApplicationDidBecomeActiveNotification, function() if now() > 0 then work(6) end end)
          end,
          willEnterForeground = function(app) work(6) end,
        }
        at(0, user.launch)
        at(10, user.home)
        at(60, user.open)
        """)
        #expect(s.codes == ["main-thread-hang"])
        #expect(s.world.violations[0].time == 70_000)
        #expect(s.world.violations[0].location?.line == 3)
    }

    @Test func aShortBlockingTransitionCallIsFineAndKeepsTheForeground() {
        let s = simulate("""
        scenario { duration = 300 }
        app { willEnterForeground = function(app) work(5) end }
        at(0, user.launch)
        at(10, user.home)
        at(60, user.open)
        """)
        #expect(s.codes == [])
        #expect(Self.states(s) == ["inactive", "active", "inactive", "background", "suspended", "background", "active"])
    }

    @Test func aBlockingWillResignActiveIsAMainThreadHangAtHomePlusTen() {
        let s = simulate("""
        app { willResignActive = function(app) work(30) end }
        at(0, user.launch)
        at(5, user.home)
        """)
        #expect(s.codes == ["main-thread-hang"])
        #expect(s.world.violations[0].time == 15_000)
    }

    @Test func theCallEndsOnThePersonsClock() {
        // The main thread is busy until 8 s; the 5 s call began at 4 s and ends at 9 s, not at
        // 8 + 5 = 13 s.
        let s = simulate("""
        app {
          didBecomeActive = function()
            print("active", now())
            if now() == 0 then after(1, function() work(7) end) end
          end,
          willResignActive = function() print("resign", now()) end,
        }
        at(0, user.launch)
        at(4, function() user.interrupt(5) end)
        """)
        #expect(s.codes == [])
        #expect(s.printed == ["active\t0", "resign\t8", "active\t9"])
        // A call that ended while willResignActive waited: didBecomeActive comes right after it.
        let short = simulate("""
        app {
          didBecomeActive = function()
            print("active", now())
            if now() == 0 then after(1, function() work(7) end) end
          end,
          willResignActive = function() print("resign", now()) end,
        }
        at(0, user.launch)
        at(4, function() user.interrupt(2) end)
        """)
        #expect(short.codes == [])
        #expect(short.printed == ["active\t0", "resign\t8", "active\t8"])
    }
}

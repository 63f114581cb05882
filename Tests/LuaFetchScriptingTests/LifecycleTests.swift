// SPEC 4.1, 6.1, 6.2: every transition of the lifecycle table, in order, with notifications;
// user and system actions; launches and terminations.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

/// An app{} whose delegate methods print "<method> <app.state>".
let tracingApp = """
    local function t(name) return function(app) print(name .. " " .. app.state) end end
    app {
      didFinishLaunching = function(app, launch) print("didFinishLaunching " .. app.state .. " " .. launch.reason); return true end,
      didBecomeActive = t("didBecomeActive"), willResignActive = t("willResignActive"),
      didEnterBackground = t("didEnterBackground"), willEnterForeground = t("willEnterForeground"),
      willTerminate = t("willTerminate"),
    }

    """

@Suite struct LifecycleTests {
    @Test func userLaunchCallsDidFinishLaunchingThenDidBecomeActive() {
        let s = simulate(tracingApp + "at(0, user.launch)")
        #expect(s.printed == ["didFinishLaunching inactive user", "didBecomeActive active"])
    }

    @Test func homeResignsEntersBackgroundAndSuspends() {
        let s = simulate(tracingApp + "at(0, user.launch)\nat(5, user.home)\nexpect.at(6, 's', function() return app.state == 'suspended' end)")
        #expect(Array(s.printed.dropFirst(2)) == ["willResignActive inactive", "didEnterBackground background"])
        #expect(s.exitCode == 0)
    }

    @Test func returnToForegroundCallsWillEnterForegroundThenDidBecomeActive() {
        let s = simulate(tracingApp + "at(0, user.launch)\nat(5, user.home)\nat(9, user.open)")
        #expect(Array(s.printed.dropFirst(4)) == ["willEnterForeground background", "didBecomeActive active"])
    }

    @Test func interruptionResignsAndReactivatesWithoutBackground() {
        let s = simulate(tracingApp + "at(0, user.launch)\nat(5, function() user.interrupt(20) end)")
        #expect(Array(s.printed.dropFirst(2)) == ["willResignActive inactive", "didBecomeActive active"])
        #expect(s.world.timeline.last(where: { $0.kind == .log })?.time == 25_000)
    }

    @Test func forceQuitOfASuspendedAppCallsNothing() {
        let s = simulate(tracingApp + "at(0, user.launch)\nat(5, user.home)\nat(9, user.forceQuit)\nexpect.at(10, 'gone', function() return app.state == 'notRunning' end)")
        #expect(s.printed.count == 4)
        #expect(s.exitCode == 0)
    }

    @Test func terminationWhileRunningInBackgroundCallsWillTerminate() {
        let s = simulate("""
            local id
            app { didEnterBackground = function(app) id = app:beginBackgroundTask(function() end) end,
                  willTerminate = function(app) print("willTerminate " .. app.state) end }
            at(0, user.launch)
            at(5, user.home)
            at(9, user.forceQuit)
            """)
        #expect(s.printed == ["willTerminate background"])
    }

    @Test func withoutMultitaskingHomeTerminates() {
        let s = simulate("scenario { device = { multitasking = false } }\n" + tracingApp + """
            at(0, user.launch)
            at(5, user.home)
            at(6, function() print(app.state, device.isMultitaskingSupported) end)
            """)
        #expect(Array(s.printed.dropFirst(2)) == ["willTerminate background", "notRunning\tfalse"])
    }

    @Test func memoryPressurePurgesASuspendedAppSilently() {
        let s = simulate(tracingApp + "at(0, user.launch)\nat(5, user.home)\nat(9, system.memoryPressure)\nat(10, function() print(app.state) end)\nat(11, user.launch)")
        #expect(Array(s.printed.dropFirst(4)) == ["notRunning", "didFinishLaunching inactive user", "didBecomeActive active"])
    }

    @Test func notificationsArePostedAfterEachDelegateMethod() {
        let s = simulate("""
            app { didBecomeActive = function() print("delegate") end }
            notifications.observe(UIApplicationDidBecomeActiveNotification, function(name) print("observer " .. name) end)
            notifications.observe(UIApplicationDidFinishLaunchingNotification, function(name) print(name) end)
            at(0, user.launch)
            """)
        #expect(s.printed == ["UIApplicationDidFinishLaunchingNotification", "delegate", "observer UIApplicationDidBecomeActiveNotification"])
    }

    @Test func appObserversBelongToTheProcess() {
        let s = simulate("""
            app { didFinishLaunching = function(app)
                    notifications.observe("ping", function(_, info) print("app got " .. info.n) end)
                    return true end,
                  didBecomeActive = function() notifications.post("ping", { n = 1 }) end }
            at(0, user.launch)
            at(5, user.home)
            at(6, user.forceQuit)
            at(7, function() notifications.post("ping", { n = 2 }) end)
            """)
        #expect(s.printed == ["app got 1"])
    }

    @Test func topLevelActionsRunAtTimeZeroInOrder() {
        let s = simulate(tracingApp + "user.launch()\nuser.home()")
        #expect(s.printed.count == 4)
        #expect(s.world.timeline.allSatisfy { $0.time == 0 })
    }

    @Test func appStateFromTheWorldShowsSuspendedAndNotRunning() {
        let s = simulate("at(1, function() print(app.state) end)\nat(2, user.launch)\nat(3, user.home)\nat(4, function() print(app.state) end)")
        #expect(s.printed == ["notRunning", "suspended"])
    }
}

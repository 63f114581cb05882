// SPEC 14: remote notifications. In the foreground every push reaches the handler at once with no
// time limit; a content-available push wakes or launches an eligible app in the background, whose
// completion keeps it running for at most pushCompletion; everything else is dropped, saying why.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

func pushApp(modes: String = "\"remote-notification\"", handler: String = "done('newData')") -> String {
    """
    app { backgroundModes = { \(modes) },
      delegate = function(app)
        return {
          didFinishLaunching = function(app, launch) print("launch", launch.reason) end,
          didReceiveRemoteNotification = function(app, userInfo, done)
            print("push", userInfo.id, app.state, now())
            \(handler)
          end,
        }
      end }
    """
}

@Suite struct PushTests {
    @Test func theForegroundGetsEveryPushAtOnce() {
        let s = simulate(pushApp(modes: "") + """
        at(0, user.launch)
        at(5, function() system.remoteNotification({ id = 1 }) end)
        at(6, function() system.remoteNotification({ id = 2 }, { contentAvailable = true }) end)
        """)
        #expect(s.printed == ["launch\tuser", "push\t1\tactive\t5", "push\t2\tactive\t6"])
        #expect(s.world.stats.pushesDelivered == 2)
    }

    @Test func aContentAvailablePushWakesOrLaunchesAnEligibleApp() {
        let s = simulate(pushApp() + """
        at(0, user.launch)
        at(5, user.home)
        at(10, function() system.remoteNotification({ id = 1 }, { contentAvailable = true }) end)
        at(20, system.memoryPressure)
        at(30, function() system.remoteNotification({ id = 2 }, { contentAvailable = true }) end)
        """)
        #expect(s.printed == ["launch\tuser", "push\t1\tbackground\t10", "launch\tremoteNotification", "push\t2\tbackground\t30"])
        #expect(s.world.state == .suspended)
        #expect(s.world.stats.wakes == 1 && s.world.stats.backgroundLaunches == 1)
    }

    @Test func pushesThatCannotBeDeliveredAreDroppedSayingWhy() {
        let s = simulate(pushApp() + """
        at(0, user.launch)
        at(5, user.home)
        at(10, function() system.remoteNotification({ id = 1 }) end)
        at(11, function() system.setLowPowerMode(true) end)
        at(12, function() system.remoteNotification({ id = 2 }, { contentAvailable = true }) end)
        """)
        #expect(s.printed == ["launch\tuser"])
        #expect(s.messages.contains { $0.contains("#1 not delivered: an alert push") })
        #expect(s.messages.contains { $0.contains("#2 dropped: Low Power Mode is on") })
        #expect(s.world.stats.pushesDropped == 2)
        let noMode = simulate(pushApp(modes: "") + "at(0, user.launch)\nat(5, user.home)\nat(10, function() system.remoteNotification({}, { contentAvailable = true }) end)")
        #expect(noMode.messages.contains { $0.contains("dropped: \"remote-notification\" is not in backgroundModes") })
        let quit = simulate(pushApp() + "at(0, user.launch)\nat(5, user.forceQuit)\nat(10, function() system.remoteNotification({}, { contentAvailable = true }) end)")
        #expect(quit.messages.contains { $0.contains("dropped: the app was force-quit") })
    }

    @Test func aBackgroundPushMustCompleteWithinItsLimit() {
        let s = simulate(pushApp(handler: "") + """
        at(0, user.launch)
        at(5, user.home)
        at(10, function() system.remoteNotification({ id = 1 }, { contentAvailable = true }) end)
        """)
        #expect(s.codes == ["push-no-completion"])
        #expect(s.world.violations[0].time == 40_000)
        #expect(s.world.violations[0].exceptionCode == "0x8badf00d")
        let fg = simulate(pushApp(handler: "") + "scenario { duration = 100 }\nat(0, user.launch)\nat(5, function() system.remoteNotification({ id = 1 }) end)")
        #expect(fg.codes == [])  // a push handled in the foreground has no limit
    }

    @Test func completionRules() {
        let twice = simulate(pushApp(modes: "", handler: "done('newData') done('newData')") + "at(0, user.launch)\nat(5, function() system.remoteNotification({}) end)")
        #expect(twice.codes == ["push-double-completion"])
        #expect(twice.world.violations[0].exceptionCode == "NSInternalInconsistencyException")
        let bad = simulate(pushApp(handler: "done('yes')") + "at(0, user.launch)\nat(5, user.home)\nat(10, function() system.remoteNotification({}, { contentAvailable = true }) end)")
        #expect(bad.codes == ["push-bad-result"])
    }

    @Test func iOS6HasNoBackgroundPushesAndNoCompletion() {
        let s = simulate("scenario { os = 'ios6' }\n" + pushApp(handler: "print(done)") + """
        at(0, user.launch)
        at(5, function() system.remoteNotification({ id = 1 }) end)
        at(6, user.home)
        at(10, function() system.remoteNotification({ id = 2 }, { contentAvailable = true }) end)
        """)
        #expect(s.printed == ["launch\tuser", "push\t1\tactive\t5", "nil"])
        #expect(s.messages.contains { $0.contains("dropped: the ios6 profile has no background pushes") })
    }

    @Test func badArguments() {
        let s = simulate("at(0, function() system.remoteNotification(5) end)")
        #expect(s.error?.message.hasPrefix("test.lua:1: bad argument #1 to 'system.remoteNotification'") == true, "\(s.error?.message ?? "")")
        let t = simulate("at(0, function() system.remoteNotification({}, { contentAvailabl = true }) end)")
        #expect(t.error?.message.contains("did you mean contentAvailable?") == true, "\(t.error?.message ?? "")")
    }
}

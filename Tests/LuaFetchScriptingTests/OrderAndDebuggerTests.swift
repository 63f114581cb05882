// SPEC 12.4: orders iOS leaves open are choice points; `--order N` takes the other alternative at
// the i-th when bit i is set, and each choice changes the outcome of a scenario written to expose
// it. SPEC 12.5: with the debugger attached the app is never suspended nor killed by the
// watchdog; each termination it hides is the warning masked-by-debugger.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct ChoicePointTests {
    /// A wake: performFetch first, or the timer that fell due while suspended.
    static let wake = """
    scenario { fetchPolicy = "manual" }
    local fresh = false
    app { backgroundModes = { "fetch" },
      didEnterBackground = function(app)
        local id = app:beginBackgroundTask(function() end)
        timer.after(5, function() fresh = true end)
        after(1, function() app:endBackgroundTask(id) end)
      end,
      performFetch = function(app, done) print(fresh and "timer first" or "fetch first") done("noData") end }
    at(0, user.launch)
    at(1, user.home)
    at(60, system.backgroundFetch)
    """

    @Test func aWakesDelegateCallGoesFirstUnlessTheOtherOrderIsTaken() {
        let first = simulate(Self.wake)
        #expect(first.printed == ["fetch first"])
        #expect(first.world.stats.choicePoints == 1)
        let other = simulate(Self.wake, options: RunOptions(order: 1))
        #expect(other.printed == ["timer first"])
        #expect(other.messages.contains { $0.contains("choice point #0") && $0.contains("other order") })
    }

    static let race = """
    app { didFinishLaunching = function()
      dispatch.global(function() print("a") end)
      dispatch.global(function() print("b") end)
      dispatch.global(function() print("c") end)
    end }
    at(0, user.launch)
    """

    @Test func sameInstantBackgroundBlocksRunInSubmissionOrderOrReversed() {
        #expect(simulate(Self.race).printed == ["a", "b", "c"])
        #expect(simulate(Self.race, options: RunOptions(order: 1)).printed == ["c", "b", "a"])
    }

    static let lateTask = """
    scenario { fetchPolicy = "manual", duration = 300 }
    app { backgroundModes = { "fetch" },
      didEnterBackground = function(app)
        dispatch.global(function()
          local id = app:beginBackgroundTask("sdk", function() print("expiring", now()) end)
          work(10)
          app:endBackgroundTask(id)
        end)
      end,
      performFetch = function(app, done) after(20, function() done("noData") end) end }
    at(0, user.launch)
    at(1, user.home)
    at(100, system.backgroundFetch)
    """

    @Test func aTaskBegunFromABlockThatRacedSuspensionMustEndWithinTheWarning() {
        let first = simulate(Self.lateTask)
        #expect(first.codes == [])
        #expect(first.world.stats.suspensions >= 1)
        let other = simulate(Self.lateTask, options: RunOptions(order: 1))
        #expect(other.codes == ["task-not-ended-in-handler", "task-expired"], "\(other.codes)")
        #expect(other.printed == ["expiring\t100"])
        #expect(other.world.violations[1].time == 105_000)
        #expect(other.world.violations[1].location?.line == 5)
    }

    @Test func noChoicePointWhereOnlyOneOrderExists() {
        let s = simulate("app { didFinishLaunching = function() dispatch.global(function() end) end }\nat(0, user.launch)")
        #expect(s.world.stats.choicePoints == 0)
    }
}

@Suite struct DebuggerTests {
    static let leak = """
    scenario { duration = 120 }
    app { didEnterBackground = function(app) app:beginBackgroundTask("upload", function() end) end }
    at(0, user.launch)
    at(10, user.home)
    """

    @Test func aTaskLeakPassesUnderTheDebuggerAndIsKilledWithout() {
        let device = simulate(Self.leak)
        #expect(device.codes.contains("task-expired"))
        let xcode = simulate(Self.leak, options: RunOptions(debugger: true))
        #expect(!xcode.codes.contains("task-expired"))
        #expect(xcode.codes.contains("masked-by-debugger"))
        let masked = xcode.world.violations.first { $0.code == .maskedByDebugger }!
        #expect(masked.message.contains("task-expired (0x8badf00d)"))
        #expect(masked.location?.line == 2)
        #expect(xcode.world.stats.terminations == 0)
        #expect(xcode.world.state == .background)
    }

    @Test func theScenarioCanAttachTheDebuggerToo() {
        let s = simulate("scenario { debugger = true }\n" + Self.leak.replacingAll("scenario { duration = 120 }\n", with: ""))
        #expect(s.codes.contains("masked-by-debugger"))
        let bad = simulate("scenario { debugger = 1 }")
        #expect(bad.error?.message == "test.lua:1: scenario{}: debugger must be true or false")
    }

    @Test func neverSuspendedButALockAtWouldBeSuspensionIsReported() {
        let s = simulate("""
        app { didEnterBackground = function(app) sharedContainer.lock("db") end }
        at(0, user.launch)
        at(1, user.home)
        at(2, function() print(app.state) end)
        """, options: RunOptions(debugger: true))
        #expect(s.codes == ["masked-by-debugger"])
        #expect(s.world.violations[0].message.contains("lock-held-at-suspension (0xdead10cc)"))
        #expect(s.world.stats.suspensions == 0)
    }

    @Test func mainThreadHangsAndMissedCompletionsAreMaskedCrashesAreNot() {
        let hang = simulate("""
        app { didBecomeActive = function() after(1, function() work(30) end) end }
        at(0, user.launch)
        at(5, user.home)
        """, options: RunOptions(debugger: true))
        #expect(hang.codes == ["masked-by-debugger"])
        #expect(hang.world.violations[0].message.contains("main-thread-hang"))
        let fetch = simulate("""
        scenario { fetchPolicy = "manual" }
        app { backgroundModes = { "fetch" }, performFetch = function() end }
        at(0, user.launch)
        at(1, system.backgroundFetch)
        """, options: RunOptions(debugger: true))
        #expect(fetch.codes == ["masked-by-debugger"])
        #expect(fetch.world.violations[0].message.contains("fetch-no-completion"))
        let crash = simulate("app { didFinishLaunching = function() error('x') end }\nat(0, user.launch)", options: RunOptions(debugger: true))
        #expect(crash.codes == ["app-crash"])
    }
}

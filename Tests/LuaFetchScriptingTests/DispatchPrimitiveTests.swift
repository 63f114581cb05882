// SPEC 18.7.3: the dispatch primitives imported scenarios need, as scenario API. Groups (enter,
// leave, notify on a queue, wait with a timeout), semaphores (handed over in request order),
// concurrent queues (blocks side by side, barriers alone, sync beside blocks), asyncAfter on a
// queue or a new thread (frozen while suspended), and bad input for each. BGTask handler queues
// and the UIScene notifications are in BGTaskTests and SceneTests.
import Testing
@testable import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct DispatchPrimitiveTests {
    // MARK: - Groups

    @Test func notifyRunsOnceTheGroupIsEmptyOnTheQueueItNames() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local g = dispatch.group()
          local q = dispatch.queue("db")
          for i = 1, 2 do
            g:enter()
            dispatch.global(function() work(i) print("done", i, now()) g:leave() end)
          end
          -- a timer made on a background thread never fires: only the main queue's fires
          g:notify(function() timer.after(1, function() print("main's timer", now()) end) end)
          g:notify(function() timer.after(1, function() print("never") end) end, "global")
          g:notify(function() print("on the queue", now()) end, q)
          g:notify(function() print("on main too", now()) end, "main")
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["done\t1\t1", "done\t2\t2", "on main too\t2", "on the queue\t2", "main's timer\t3"], "\(s.printed)")
        #expect(s.codes == ["timer-on-background-thread"])
        #expect(s.world.violations.first?.location?.line == 10)
    }

    @Test func notifyOnAnEmptyGroupIsSubmittedAtOnce() {
        let s = simulate("""
        app { didBecomeActive = function()
          local g = dispatch.group()
          g:notify(function() print("notified", now()) end, "global")
          g:enter(); g:leave()
          g:notify(function() print("again", now()) end)
          print("returned", now())
        end }
        at(5, user.launch)
        """)
        #expect(s.printed == ["returned\t5", "again\t5", "notified\t5"], "\(s.printed)")
    }

    @Test func aBackgroundWaitParksUntilTheGroupIsEmptyOrItsTimePasses() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local g = dispatch.group()
          g:enter()
          dispatch.global(function() work(3) g:leave() end)
          dispatch.global(function() print("forever", g:wait(), now()) end)
          dispatch.global(function() print("1 s", g:wait(1), now()) end)
          dispatch.global(function() print("10 s", g:wait(10), now()) end)
          dispatch.global(function() print("huge", g:wait(math.huge), now()) end)
          dispatch.global(function() print("0 s", g:wait(0), now()) end)
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["0 s\tfalse\t0", "1 s\tfalse\t1", "forever\ttrue\t3", "10 s\ttrue\t3", "huge\ttrue\t3"], "\(s.printed)")
        #expect(s.codes == [])
    }

    @Test func aMainThreadWaitBlocksItAndATransitionWaitsForIt() {
        let short = simulate("""
        app { didBecomeActive = function()
          local g = dispatch.group()
          g:enter()
          dispatch.global(function() work(6) g:leave() end)
          after(1, function() print("waited", g:wait(), now()) end)
        end,
        willResignActive = function() print("willResignActive", now()) end }
        at(0, user.launch)
        at(2, user.home)
        """)
        #expect(short.printed == ["waited\ttrue\t6", "willResignActive\t6"], "\(short.printed)")
        #expect(short.codes == [])
        let forever = simulate("""
        app { didBecomeActive = function()
          local g = dispatch.group()
          g:enter()
          after(1, function() g:wait() end)
        end }
        at(0, user.launch)
        at(2, user.home)
        """)
        #expect(forever.codes == ["main-thread-hang"])
        #expect(forever.world.violations[0].time == 12_000)
        #expect(forever.world.violations[0].location?.line == 4)
        #expect(forever.world.violations[0].message.contains("waiting for group #1"), "\(forever.world.violations[0].message)")
    }

    @Test func aMainThreadWaitWithATimeoutReturnsFalseWhenItPasses() {
        let s = simulate("""
        app { didBecomeActive = function()
          local g = dispatch.group()
          g:enter()
          dispatch.global(function() work(5) g:leave() end)
          print("first", g:wait(2), now())
          print("second", g:wait(10), now())
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["first\tfalse\t2", "second\ttrue\t5"], "\(s.printed)")
    }

    @Test func aTimedWaitWhoseTimePassedWhileSuspendedEndsWhenTheProcessRunsAgain() {
        let s = simulate("""
        scenario { duration = 300 }
        app { didEnterBackground = function(app)
            local id = app:beginBackgroundTask(function() end)
            local s = dispatch.semaphore(0)
            after(1, function() print("main", s:wait(50), now()) end)
            dispatch.global(function() print("background", s:wait(20), now()) end)
            dispatch.global(function() work(1) app:endBackgroundTask(id) end)
          end,
          willEnterForeground = function() print("willEnterForeground", now()) end }
        at(0, user.launch)
        at(1, user.home)
        at(100, user.open)
        """)
        // Suspended at 2 with both waits running; their times pass at 21 and 52; both end at 100.
        #expect(s.printed == ["main\tfalse\t100", "willEnterForeground\t100", "background\tfalse\t100"], "\(s.printed)")
        #expect(s.codes == [])
    }

    @Test func anUnbalancedLeaveCrashesTheAppAndNoPcallCatchesIt() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local g = dispatch.group()
          g:enter(); g:leave()
          print(pcall(function() g:leave() end))
          print("never")
        end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["app-crash"])
        #expect(s.world.violations[0].message.contains("Unbalanced call to dispatch_group_leave()"))
        #expect(s.world.violations[0].location?.line == 4)
        #expect(s.printed.isEmpty)
    }

    @Test func aWaitNothingEndsStaysBlockedAndTheRunEnds() {
        let background = simulate("""
        scenario { duration = 60 }
        app { didFinishLaunching = function()
          local s = dispatch.semaphore(0)
          dispatch.global(function() s:wait() print("never") end)
        end }
        at(0, user.launch)
        """)
        #expect(background.codes == ["pending-at-end"])
        #expect(background.world.violations[0].message.contains("1 background thread waiting in a group or semaphore"), "\(background.world.violations[0].message)")
        #expect(background.world.violations[0].location?.line == 4)
        #expect(background.world.pendingReport.contains { $0.hasPrefix("thread     #1 (global) waiting for semaphore #1 at test.lua:4") })
        let main = simulate("""
        scenario { duration = 60 }
        app { didBecomeActive = function()
          local g = dispatch.group()
          g:enter()
          g:notify(function() print("never") end)
          after(1, function() g:wait() end)
        end }
        at(0, user.launch)
        """)
        #expect(main.error == nil)
        #expect(main.printed.isEmpty)
        #expect(main.world.now == 60_000)
        #expect(main.world.pendingReport.contains { $0.hasPrefix("group      #1 entered 1 time more than left, 1 notify block waiting") }, "\(main.world.pendingReport)")
        #expect(main.codes == ["pending-at-end"])
        #expect(main.world.violations[0].message == "the run ended with 1 group notify block never run (more enters than leaves)")
        #expect(main.world.violations[0].location?.line == 5)
    }

    // MARK: - Semaphores

    @Test func aSemaphoreHandsOverInRequestOrder() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local s = dispatch.semaphore(0)
          for i = 1, 3 do dispatch.global(function() work(i) s:wait() print("got it", i, now()) end) end
          dispatch.global(function()
            work(5)
            print("signal", s:signal())
            work(1)
            print("signal", s:signal(), s:signal(), s:signal())
          end)
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["signal\ttrue", "got it\t1\t5", "signal\ttrue\ttrue\tfalse", "got it\t2\t6", "got it\t3\t6"], "\(s.printed)")
    }

    @Test func aSemaphoreStartsAtItsValueAndSignalsAreKept() {
        let s = simulate("""
        app { didBecomeActive = function()
          local s = dispatch.semaphore(2)
          print(s:wait(), s:wait(), s:wait(0), now())
          print(s:signal(), s:wait(0))
          dispatch.global(function() work(4) s:signal() end)
          print(s:wait(1), now())
          print(s:wait(), now())
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["true\ttrue\tfalse\t0", "false\ttrue", "false\t1", "true\t4"], "\(s.printed)")
    }

    @Test func aTimedOutWaiterIsSkippedByTheNextSignal() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local s = dispatch.semaphore(0)
          dispatch.global(function() print("a", s:wait(1), now()) end)
          dispatch.global(function() print("b", s:wait(), now()) end)
          dispatch.global(function() work(2) s:signal() end)
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["a\tfalse\t1", "b\ttrue\t2"], "\(s.printed)")
    }

    // MARK: - Concurrent queues

    @Test func aConcurrentQueueRunsItsBlocksSideBySideInSubmissionOrder() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local q = dispatch.queue("images", { concurrent = true })
          for i = 1, 3 do q:async(function() print("start", i, now()) work(2) print("end", i, now()) end) end
          print(tostring(q), tostring(dispatch.queue("plain", { concurrent = false })))
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["concurrent queue \"images\"\tqueue \"plain\"", "start\t1\t0", "start\t2\t0", "start\t3\t0",
                              "end\t1\t2", "end\t2\t2", "end\t3\t2"], "\(s.printed)")
    }

    @Test func aBarrierWaitsForTheRunningBlocksRunsAloneAndHoldsBackLaterOnes() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local q = dispatch.queue("cache", { concurrent = true })
          q:async(function() work(2) print("a", now()) end)
          q:async(function() work(1) print("b", now()) end)
          q:async(function() print("barrier in", now()) work(3) print("barrier out", now()) end, { barrier = true })
          q:async(function() print("c", now()) end)
          q:async(function() print("d", now()) end, { barrier = false })
          local serial = dispatch.queue("serial")
          serial:async(function() print("serial barrier", now()) end, { barrier = true })
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["serial barrier\t0", "b\t1", "a\t2", "barrier in\t2", "barrier out\t5", "c\t5", "d\t5"], "\(s.printed)")
    }

    @Test func syncOnAConcurrentQueueRunsBesideItsBlocksUnlessABarrierIsPending() {
        let s = simulate("""
        app { didBecomeActive = function()
          local q = dispatch.queue("store", { concurrent = true })
          q:async(function() work(4) print("reader", now()) end)
          print("beside", q:sync(function() return now() end))
          q:async(function() work(1) print("writer", now()) end, { barrier = true })
          dispatch.global(function() print("behind the barrier", q:sync(function() return now() end)) end)
          after(1, function() print("main behind it", q:sync(function() return now() end), now()) end)
        end }
        at(0, user.launch)
        """)
        // Both wait behind the barrier, and get in together when it returns: the main thread first.
        #expect(s.printed == ["beside\t0", "reader\t4", "writer\t5", "main behind it\t5\t5", "behind the barrier\t5"], "\(s.printed)")
    }

    @Test func syncOntoAConcurrentQueueFromItsOwnBarrierDeadlocks() {
        let s = simulate("""
        scenario { duration = 30 }
        app { didFinishLaunching = function()
          local q = dispatch.queue("store", { concurrent = true })
          q:async(function() q:sync(function() end) print("never") end, { barrier = true })
          q:async(function() print("never either") end)
        end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["deadlock", "pending-at-end"])
        #expect(s.world.violations[0].location?.line == 4)
        #expect(s.printed.isEmpty)
    }

    @Test func aConcurrentQueueForgetsWhatATerminatedProcessLeftOnIt() {
        let s = simulate("""
        scenario { duration = 60 }
        local q
        app { didFinishLaunching = function()
          q = q or dispatch.queue("store", { concurrent = true })
          q:async(function() work(100) end, { barrier = true })
          q:async(function() print("ran", now()) end)
        end }
        at(0, user.launch)
        at(1, user.forceQuit)
        at(2, user.launch)
        """)
        // The second process's barrier is its own; its block runs after it (at 102, past the end).
        #expect(s.printed.isEmpty, "\(s.printed)")
        #expect(s.world.pendingReport.contains { $0.contains("(\"store\") in work until") }, "\(s.world.pendingReport)")
    }

    // MARK: - asyncAfter

    @Test func asyncAfterSubmitsToTheQueueLaterAndToANewThread() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local q = dispatch.queue("serial")
          q:asyncAfter(2, function() print("late block", now()) end)
          q:async(function() work(3) print("long block", now()) end)
          dispatch.asyncAfter(1, function() timer.after(1, function() end) print("own thread", now()) end)
          local c = dispatch.queue("c", { concurrent = true })
          c:asyncAfter(0, function() print("at once", now()) end)
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["at once\t0", "own thread\t1", "long block\t3", "late block\t3"], "\(s.printed)")
        #expect(s.codes == ["timer-on-background-thread"])
    }

    @Test func aBlockForLaterDoesNotHoldOffSuspensionAndRunsWhenTheProcessNextRuns() {
        let s = simulate("""
        scenario { duration = 200 }
        app { didEnterBackground = function()
          dispatch.asyncAfter(2, function() print("global", now()) end)
          dispatch.queue("q"):asyncAfter(3, function() print("queue", now()) end)
        end }
        at(0, user.launch)
        at(1, user.home)
        at(100, user.open)
        """)
        #expect(s.world.stats.backgroundTime == 0)
        #expect(s.printed == ["global\t100", "queue\t100"], "\(s.printed)")
    }

    @Test func terminationDropsBlocksForLater() {
        let s = simulate("""
        scenario { duration = 60 }
        local launches = 0
        app { didFinishLaunching = function()
          launches = launches + 1
          if launches > 1 then return end
          dispatch.asyncAfter(5, function() print("never") end)
          dispatch.queue("q"):asyncAfter(5, function() print("never") end)
        end }
        at(0, user.launch)
        at(1, user.forceQuit)
        at(2, user.launch)
        """)
        #expect(s.printed.isEmpty)
        #expect(s.codes == [])
    }

    // MARK: - Warm runs

    @Test func aCopiedWorldInTheMiddleOfDispatchWorkIsItsOriginal() throws {
        let source = """
        scenario { duration = 120 }
        app { delegate = function() return { didFinishLaunching = function()
          local g, s = dispatch.group(), dispatch.semaphore(0)
          local q = dispatch.queue("c", { concurrent = true })
          for i = 1, 3 do g:enter(); q:async(function() work(i) g:leave() end) end
          q:async(function() s:signal() end, { barrier = true })
          g:notify(function() print("all done") end, q)
          dispatch.global(function() s:wait(30) end)
          dispatch.asyncAfter(50, function() print("late") end)
          after(1, function() g:wait(2) end)
        end } end }
        at(0, user.launch)
        at(10, user.home)
        at(60, user.open)
        """
        let path = try WarmRunTests.scenarioFile("prims.lua", source)
        try WarmRunTests.expectCopiesAreOriginals(path, elsewhere: 2, steps: [1, 3, 6, 12])
        let warm = Explorer.Warm(path: path)
        for seed in Int64(1)...6 {
            #expect(WarmRunTests.outcome(path, seed: seed, warm: warm) == WarmRunTests.outcome(path, seed: seed, warm: nil))
        }
    }

    // MARK: - Bad input

    /// (A method's argument numbers are left out where they are: issue 29 renumbers them.)
    @Test func badArgumentsAreTheAppsCrashAtTheirLine() {
        for (code, message) in [
            ("dispatch.group().enter()", "g:enter is a method of a group"),
            ("dispatch.group():notify(5)", "to 'group:notify' (function expected, got number)"),
            ("dispatch.group():notify(print, 'mian')", "(\"main\", \"global\" or a queue from dispatch.queue expected, got string): \"mian\"; did you mean main?"),
            ("dispatch.group():notify(print, {})", "expected, got table"),
            ("dispatch.group():wait('1')", "(number expected, got string)"),
            ("dispatch.group():wait(-1)", "(a duration of 0 seconds or more expected, got -1)"),
            ("dispatch.semaphore()", "bad argument #1 to 'dispatch.semaphore' (integer expected, got nil)"),
            ("dispatch.semaphore(-1)", "bad argument #1 to 'dispatch.semaphore' (a value of 0 or more expected, got -1)"),
            ("dispatch.semaphore(1.5)", "has a fraction"),
            ("dispatch.semaphore(0).signal()", "s:signal is a method of a semaphore"),
            ("dispatch.semaphore(0).wait()", "s:wait is a method of a semaphore"),
            ("dispatch.semaphore(1):wait(true)", "(number expected, got boolean)"),
            ("dispatch.queue('q', 1)", "bad argument #2 to 'dispatch.queue' (table expected, got number)"),
            ("dispatch.queue('q', { concurent = true })", "did you mean concurrent?"),
            ("dispatch.queue('q', { concurrent = 1 })", "concurrent must be true or false"),
            ("dispatch.queue('q'):async(print, { barier = true })", "did you mean barrier?"),
            ("dispatch.queue('q'):async(print, true)", "(table expected, got boolean)"),
            ("dispatch.queue('q'):asyncAfter(print)", "(number expected, got function)"),
            ("dispatch.queue('q'):asyncAfter(1)", "(function expected, got nil)"),
            ("dispatch.queue('q').asyncAfter(1, print)", "call it with a colon, q:asyncAfter(seconds, fn)"),
            ("dispatch.asyncAfter(-2, print)", "(a duration of 0 seconds or more expected, got -2)"),
            ("dispatch.asyncAfter(1)", "bad argument #2 to 'dispatch.asyncAfter' (function expected, got nil)"),
        ] {
            let s = simulate("app { didFinishLaunching = function() \(code) end }\nat(0, user.launch)")
            #expect(s.codes == ["app-crash"], "\(code)")
            #expect(s.world.violations.first?.message.contains(message) == true, "\(code): \(s.world.violations.first?.message ?? "")")
            #expect(s.world.violations.first?.location?.line == 1, "\(code)")
        }
        for code in ["dispatch.group()", "dispatch.semaphore(1)", "dispatch.asyncAfter(1, print)", "dispatch.queue('q', { concurrent = true })"] {
            let world = simulate("at(0, function() \(code) end)")
            #expect(world.exitCode == 2, "\(code)")
            #expect(world.error?.message.hasPrefix("test.lua:1: dispatch.") == true, "\(code): \(world.error?.message ?? "")")
            #expect(world.error?.message.contains("is app code") == true, "\(code)")
        }
    }

    @Test func aBackgroundThreadCannotWaitInAGroupInsideACoroutine() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local s = dispatch.semaphore(0)
          dispatch.global(function() coroutine.wrap(function() s:wait() end)() end)
        end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["app-crash"])
        #expect(s.world.violations[0].message.contains("semaphore:wait cannot wait here"), "\(s.world.violations[0].message)")
    }
}

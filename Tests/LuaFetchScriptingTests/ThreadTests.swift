// SPEC 12.2: threads and queues. Background blocks run on their own threads after the main
// thread's blocks of the same instant; `work`, locks and `q:sync` make only the calling thread
// wait; a blocked main thread holds transitions back (main-thread-hang past mainThreadHang) while
// the world goes on; suspension freezes threads; wait-for cycles are reported as deadlock.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct ThreadTests {
    @Test func mainFirstThenBackgroundInSubmissionOrder() {
        let s = simulate("""
        app { didFinishLaunching = function()
          dispatch.global(function() print("global 1") end)
          local q = dispatch.queue("serial")
          q:async(function() print("queue a") end)
          q:async(function() print("queue b") end)
          dispatch.global(function() print("global 2") end)
          dispatch.main(function() print("main") end)
          print("launch")
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["launch", "main", "global 1", "queue a", "global 2", "queue b"])
    }

    @Test func workOnABackgroundThreadOccupiesOnlyThatThread() {
        let s = simulate("""
        app { didFinishLaunching = function()
          dispatch.global(function() work(5) print("bg done", now()) end)
          after(1, function() print("main free", now()) end)
        end }
        at(0, user.launch)
        at(2, function() print("world", now()) end)
        """)
        #expect(s.printed == ["main free\t1", "world\t2", "bg done\t5"])
    }

    @Test func workOnTheMainThreadLetsTheWorldGoOnAndMainWorkWait() {
        let s = simulate("""
        app { didBecomeActive = function()
          after(1, function() print("after 1", now()) end)
          dispatch.global(function() work(2) print("bg", now()) end)
          work(5)
          print("main free", now())
        end }
        at(0, user.launch)
        at(3, function() print("world", now()) end)
        """)
        #expect(s.printed == ["bg\t2", "world\t3", "main free\t5", "after 1\t5"])
    }

    @Test func aTaskBegunFromAGlobalBlockInDidEnterBackgroundKeepsTheAppRunning() {
        let s = simulate("""
        app { didEnterBackground = function(app)
          dispatch.global(function()
            local id = app:beginBackgroundTask("sdk", function() end)
            work(3)
            app:endBackgroundTask(id)
          end)
        end }
        at(0, user.launch)
        at(1, user.home)
        """)
        #expect(s.codes == [])
        #expect(s.world.stats.backgroundTime == 3_000)
    }

    @Test func homeWaitsForABlockedMainThreadThenHangs() {
        let short = simulate("""
        app { willResignActive = function() print("willResignActive", now()) end,
              didBecomeActive = function() after(1, function() work(8) end) end }
        at(0, user.launch)
        at(5, user.home)
        """)
        #expect(short.codes == [])
        #expect(short.printed == ["willResignActive\t9"])
        let long = simulate("""
        app { willResignActive = function() print("never") end,
              didBecomeActive = function() after(1, function() work(30) end) end }
        at(0, user.launch)
        at(5, user.home)
        """)
        #expect(long.codes == ["main-thread-hang"])
        #expect(long.world.violations[0].time == 15_000)
        #expect(long.world.violations[0].location?.line == 2)
        #expect(long.world.violations[0].exceptionCode == "0x8badf00d")
        #expect(long.printed == [])
    }

    @Test func aForegroundHangWithNothingDueOnlyFreezesTheApp() {
        let s = simulate("""
        scenario { duration = 100 }
        app { didBecomeActive = function() after(0, function() work(60) print("done", now()) end) end }
        at(0, user.launch)
        """)
        #expect(s.codes == [])
        #expect(s.printed == ["done\t60"])
    }

    @Test func didEnterBackgroundGetsItsOwnFiveSecondsAfterTheWait() {
        func run(_ seconds: String) -> Sim {
            simulate("""
            app { didBecomeActive = function() after(1, function() work(8) end) end,
                  didEnterBackground = function(app) print("didEnterBackground", now()) work(\(seconds)) end }
            at(0, user.launch)
            at(5, user.home)
            """)
        }
        let inTime = run("4.5")
        #expect(inTime.codes == [])
        #expect(inTime.printed == ["didEnterBackground\t9"])
        #expect(inTime.world.state == .suspended)
        let late = run("6")
        #expect(late.codes == ["callback-overrun"])
        #expect(late.world.violations[0].time == 14_000)  // 5 s from when it started, not from Home
    }

    @Test func locksHandOverInOrder() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local m = dispatch.lock()
          dispatch.global(function() m:lock() print("a has it", now()) work(2) m:unlock() end)
          dispatch.global(function() m:lock() print("b has it", now()) m:unlock() end)
          dispatch.global(function() print("try", m:tryLock()) end)
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["a has it\t0", "try\tfalse", "b has it\t2"])
    }

    @Test func theMainThreadWaitsForALockHeldByABackgroundThread() {
        let s = simulate("""
        app { didBecomeActive = function()
          local m = dispatch.lock()
          dispatch.global(function() m:lock() work(3) m:unlock() end)
          after(1, function() m:lock() print("main got it", now()) m:unlock() end)
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["main got it\t3"])
    }

    @Test func deadlocksAreReportedOnceAndStayBlocked() {
        let s = simulate("""
        scenario { duration = 60 }
        app { didFinishLaunching = function()
          local a, b = dispatch.lock(), dispatch.lock()
          dispatch.global(function() a:lock() work(1) b:lock() print("never 1") end)
          dispatch.global(function() b:lock() work(1) a:lock() print("never 2") end)
        end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["deadlock", "pending-at-end"])  // the threads still wait at the end
        #expect(s.world.violations[0].message.contains("thread #1 at test.lua:4"), "\(s.world.violations[0].message)")
        #expect(s.world.violations[0].message.contains("thread #2 at test.lua:5"))
        #expect(s.printed.isEmpty)
    }

    @Test func syncOntoTheQueueYouAreOnDeadlocks() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local q = dispatch.queue("db")
          q:async(function() q:sync(function() print("never") end) end)
        end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["deadlock", "pending-at-end"])
        #expect(s.world.violations[0].location?.line == 3)
    }

    @Test func syncWaitsForTheQueueAndReturnsTheBlocksResults() {
        let s = simulate("""
        app { didBecomeActive = function()
          local q = dispatch.queue("db")
          q:async(function() work(2) print("async done", now()) end)
          after(1, function()
            local a, b = q:sync(function() return 1, "two" end)
            print("sync", a, b, now())
            dispatch.global(function() print("bg sync", q:sync(function() work(1) return now() end), now()) end)
          end)
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["async done\t2", "sync\t1\ttwo\t2", "bg sync\t3\t3"])
    }

    @Test func anErrorInsideSyncIsTheAppsAndFreesTheQueue() {
        let s = simulate("""
        app { didFinishLaunching = function()
          local q = dispatch.queue("db")
          print(pcall(function() q:sync(function() error("boom") end) end))
          q:sync(function() print("again") end)
        end }
        at(0, user.launch)
        """)
        #expect(s.printed.first?.hasPrefix("false\ttest.lua:3: boom") == true, "\(s.printed)")
        #expect(s.printed.last == "again")
    }

    @Test func suspensionFreezesWorkAndTheRestCountsFromTheWake() {
        let s = simulate("""
        scenario { duration = 400 }
        app { didEnterBackground = function(app)
          local id = app:beginBackgroundTask(function() end)
          dispatch.global(function() work(10) print("bg done", now()) end)
          after(2, function() app:endBackgroundTask(id) end)
        end }
        at(0, user.launch)
        at(1, user.home)
        at(100, user.open)
        """)
        // Suspended at 3 with 8 s of work left; it continues at 100 and ends at 108.
        #expect(s.printed == ["bg done\t108"])
    }

    @Test func aTimerOnABackgroundThreadNeverFires() {
        let s = simulate("""
        scenario { duration = 10 }
        app { didFinishLaunching = function()
          dispatch.global(function() timer.every(1, function() print("never") end) end)
        end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["timer-on-background-thread"])
        #expect(s.world.violations[0].location?.line == 3)
        #expect(s.printed.isEmpty)
    }

    @Test func aBackgroundThreadCannotWaitInsideACoroutine() {
        let s = simulate("""
        app { didFinishLaunching = function()
          dispatch.global(function() coroutine.wrap(function() work(1) end)() end)
        end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["app-crash"])
        #expect(s.world.violations[0].message.contains("cannot wait here"))
    }

    @Test func badArgumentsAreFileLineMessages() {
        for (code, message) in [("dispatch.global(3)", "bad argument #1 to 'dispatch.global'"),
                                ("dispatch.queue('q').async(function() end)", "q:async is a method"),
                                ("dispatch.lock().unlock()", "m:unlock is a method"),
                                ("dispatch.queue('q'):sync(5)", "bad argument #1 to 'q:sync'")] {
            let s = simulate("app { didFinishLaunching = function() \(code) end }\nat(0, user.launch)")
            #expect(s.codes == ["app-crash"], "\(code)")
            #expect(s.world.violations.first?.message.contains(message) == true, "\(code): \(s.world.violations.first?.message ?? "")")
            #expect(s.world.violations.first?.location?.line == 1, "\(code)")
        }
        let world = simulate("at(0, function() dispatch.global(print) end)")
        #expect(world.exitCode == 2)
        #expect(world.error?.message.hasPrefix("test.lua:1: dispatch.global is app code") == true)
    }

    @Test func terminationEndsEveryThread() {
        let s = simulate("""
        scenario { duration = 30 }
        app { didFinishLaunching = function()
          dispatch.global(function() work(10) print("never") end)
        end }
        at(0, user.launch)
        at(1, user.forceQuit)
        """)
        #expect(s.printed.isEmpty)
    }

    @Test func anAnalyticsObserverBlockingElevenSecondsIsKilledAtFive() {
        let s = simulate("""
        app { didFinishLaunching = function()
          notifications.observe(UIApplicationDidEnterBackgroundNotification, function() work(11) end)
        end }
        at(0, user.launch)
        at(10, user.home)
        """)
        #expect(s.codes == ["callback-overrun"])
        #expect(s.world.violations[0].time == 15_000)
        #expect(s.world.violations[0].location?.line == 2)
    }

    @Test func appObserversOfAWorldPostWaitForABlockedMainThread() {
        let s = simulate("""
        app { didBecomeActive = function()
          notifications.observe("ping", function(name, info) print("observed", info.n, now()) end)
          after(1, function() work(5) end)
        end }
        at(0, user.launch)
        at(2, function() notifications.post("ping", { n = 7 }) print("posted", now()) end)
        """)
        #expect(s.printed == ["posted\t2", "observed\t7\t6"])
    }

    @Test func pendingListsWaitingThreads() {
        let s = simulate("""
        scenario { duration = 60 }
        app { didFinishLaunching = function()
          local m = dispatch.lock()
          m:lock()
          dispatch.global(function() m:lock() end)
          dispatch.global(function() work(100) end)
        end }
        at(0, user.launch)
        """)
        let lines = s.world.pendingReport
        #expect(lines.contains { $0.hasPrefix("thread     #1 (global) waiting for mutex #1 at test.lua:5") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("thread     #2 (global) in work until") }, "\(lines)")
        let end = s.world.violations.first { $0.code == .pendingAtEnd }
        #expect(end?.message.contains("2 background threads waiting") == true, "\(end?.message ?? "")")
    }
}

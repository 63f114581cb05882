// SPEC 13: the BackgroundTasks framework. Registration before launch finishes, submit and its
// error codes, when iOS launches a request (earliest date, at most once, never in the foreground,
// eligibility, idle windows, policies), the task's limits and expiration, the queue handlers run
// on, and the debug actions.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

/// An app with one refresh identifier and one processing identifier; `register` and `handler` are
/// spliced into didFinishLaunching and the launch handler.
func bgApp(modes: String = "\"fetch\", \"processing\"", register: String = "", handler: String = "task:setTaskCompleted(true)",
           submit: String = "") -> String {
    """
    app {
      backgroundModes = { \(modes) },
      permittedIdentifiers = { "refresh", "clean" },
      delegate = function(app)
        return {
          didFinishLaunching = function(app, launch)
            for _, id in ipairs({ "refresh", "clean" }) do
              BGTaskScheduler.register(id, function(task) print("runs", task.identifier, now()) \(handler) end)
            end
            \(register)
          end,
          didEnterBackground = function(app) \(submit) end,
        }
      end,
    }
    """
}

@Suite struct BGTaskTests {
    @Test func registrationAfterLaunchCrashesWithApplesMessage() {
        let late = simulate(bgApp(register: "after(1, function() BGTaskScheduler.register('refresh2', function() end) end)") + "\nat(0, user.launch)")
        #expect(late.codes == ["bgtask-registration"])
        #expect(late.world.violations[0].message.hasPrefix("All launch handlers must be registered before application finishes launching"))
        #expect(late.world.violations[0].exceptionCode == "NSInternalInconsistencyException")
        let twice = simulate(bgApp(register: "BGTaskScheduler.register('refresh', print)") + "\nat(0, user.launch)")
        #expect(twice.world.violations.first?.message.hasPrefix("Launch handler for task with identifier refresh has already been registered") == true)
        let unknown = simulate(bgApp(register: "BGTaskScheduler.register('nope', print)") + "\nat(0, user.launch)")
        #expect(unknown.world.violations.first?.message.hasPrefix("No task with identifier nope is permitted") == true)
        #expect(unknown.world.state == .notRunning)
    }

    @Test func submitReturnsTheErrorCodes() {
        let s = simulate("""
        scenario { fetchPolicy = "manual" }
        app { backgroundModes = { "fetch" }, permittedIdentifiers = { "a", "b", "p" },
          didFinishLaunching = function()
            BGTaskScheduler.register("a", function(task) end)
            BGTaskScheduler.register("b", function(task) end)
            print(BGTaskScheduler.submit(BGAppRefreshTaskRequest("a")))
            print(BGTaskScheduler.submit(BGAppRefreshTaskRequest("a")))   -- replaces it
            print(BGTaskScheduler.submit(BGAppRefreshTaskRequest("b")))
            print(BGTaskScheduler.submit(BGAppRefreshTaskRequest("zzz")))
            print(BGTaskScheduler.submit(BGProcessingTaskRequest("p")))  -- no "processing" mode
            print(#BGTaskScheduler.pendingTaskRequests(), BGTaskScheduler.pendingTaskRequests()[1].identifier)
            BGTaskScheduler.cancel("a")
            print(#BGTaskScheduler.pendingTaskRequests())
          end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["true", "true", "nil\ttooManyPendingTaskRequests", "nil\tnotPermitted", "nil\tnotPermitted", "1\ta", "0"])
        let off = simulate("""
        scenario { device = { backgroundRefresh = false } }
        app { backgroundModes = { "fetch" }, permittedIdentifiers = { "a" },
          didFinishLaunching = function() print(BGTaskScheduler.submit(BGAppRefreshTaskRequest("a"))) end }
        at(0, user.launch)
        """)
        #expect(off.printed == ["nil\tunavailable"])
    }

    /// Submits the refresh request in didFinishLaunching unless one is pending.
    static let refreshOnce = """
    if #BGTaskScheduler.pendingTaskRequests() == 0 then
      local r = BGAppRefreshTaskRequest("refresh"); r.earliestBeginDate = now() + minutes(15); BGTaskScheduler.submit(r)
    end
    """

    static let refresh = """
    local r = BGAppRefreshTaskRequest("refresh"); r.earliestBeginDate = now() + minutes(15); BGTaskScheduler.submit(r)
    """

    @Test func aRequestLaunchesOnceNotBeforeItsDateAndNeverInTheForeground() {
        let s = simulate("scenario { fetchPolicy = \"fixed\", duration = hours(2) }\n" + bgApp(register: Self.refreshOnce) + """
        at(0, user.launch)
        at(60, user.home)
        at(minutes(10), user.open)
        at(minutes(30), user.home)
        """)
        // Due at 15 min while in the foreground: it waits until the app leaves it at 30 min.
        #expect(s.printed == ["runs\trefresh\t1800"])
        #expect(s.world.stats.bgTasksLaunched == 1)
        #expect(s.world.bgTasksLaunched.map { "\($0.identifier) ×\($0.count)" } == ["refresh ×1"])
    }

    @Test func aTaskNotCompletedByItsEndTerminatesTheApp() {
        let s = simulate("scenario { fetchPolicy = \"manual\" }\n" + bgApp(handler: "task.expirationHandler = function() print('expiring', now()) end", submit: Self.refresh) + """
        at(0, user.launch)
        at(1, user.home)
        at(100, function() system.launchTask("refresh") end)
        """)
        #expect(s.printed == ["runs\trefresh\t100", "expiring\t125"])
        #expect(s.codes == ["bgtask-no-completion"])
        #expect(s.world.violations[0].time == 130_000)
        #expect(s.world.violations[0].exceptionCode == "0x8badf00d")
    }

    @Test func withoutAnExpirationHandlerTheTaskIsMarkedUnsuccessful() {
        let s = simulate("scenario { fetchPolicy = \"manual\" }\n" + bgApp(handler: "", submit: Self.refresh) + """
        at(0, user.launch)
        at(1, user.home)
        at(100, function() system.launchTask("refresh") end)
        """)
        #expect(s.codes == [])
        #expect(s.messages.contains { $0.contains("refresh completed (failure)") })
        #expect(s.world.state == .suspended)
    }

    @Test func completingTwiceIsAWarning() {
        let s = simulate("scenario { fetchPolicy = \"manual\" }\n" + bgApp(handler: "task:setTaskCompleted(true) task:setTaskCompleted(true)", submit: Self.refresh) + """
        at(0, user.launch)
        at(1, user.home)
        at(100, function() system.launchTask("refresh") end)
        """)
        #expect(s.codes == ["bgtask-double-completion"])
        #expect(s.world.state == .suspended)
    }

    @Test func aTaskLaunchedInAProcessThatNeverRegisteredCrashes() {
        // The first process registers and submits; the one launched for the task never registers.
        let s = simulate("""
        scenario { fetchPolicy = "manual" }
        local launches = 0
        app { backgroundModes = { "fetch" }, permittedIdentifiers = { "a" },
          didFinishLaunching = function()
            launches = launches + 1
            if launches == 1 then BGTaskScheduler.register("a", function(task) task:setTaskCompleted(true) end) end
          end,
          didEnterBackground = function() BGTaskScheduler.submit(BGAppRefreshTaskRequest("a")) end }
        at(0, user.launch)
        at(1, user.home)
        at(2, system.memoryPressure)
        at(5, function() system.launchTask("a") end)
        """)
        #expect(s.codes == ["bgtask-unregistered"])
        #expect(s.world.violations.first?.time == 5_000)
    }

    @Test func aSubmitBeforeTheLaunchHandlerIsRegisteredCrashesAtTheSubmit() {
        // SPEC 13 (third amendment): the submit runs before `register` (from another thread at
        // launch): NSInternalInconsistencyException at the submit, after the permission checks.
        let s = simulate("""
        scenario { fetchPolicy = "manual" }
        app { backgroundModes = { "fetch" }, permittedIdentifiers = { "a" },
          didFinishLaunching = function()
            print(BGTaskScheduler.submit(BGAppRefreshTaskRequest("zzz")))    -- not permitted: refused first
            BGTaskScheduler.submit(BGAppRefreshTaskRequest("a"))
            print("not reached")
            BGTaskScheduler.register("a", function(task) task:setTaskCompleted(true) end)
          end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["bgtask-submit-refused", "bgtask-unregistered"])   // the refusal is 13.1's warning
        #expect(s.printed == ["nil\tnotPermitted"])
        #expect(s.world.violations.last?.location?.line == 5)
        #expect(s.world.violations.last?.exceptionCode == "NSInternalInconsistencyException")
        #expect(s.world.violations.last?.message.hasPrefix("No launch handler registered for task with identifier a") == true)
        #expect(s.world.pendingBGRequests.isEmpty)
        #expect(s.world.state == .notRunning)
        // From a background thread at launch, before the main thread registers: the same crash.
        let racing = simulate("""
        scenario { fetchPolicy = "manual" }
        app { backgroundModes = { "fetch" }, permittedIdentifiers = { "a" },
          didFinishLaunching = function()
            dispatch.global(function() BGTaskScheduler.submit(BGAppRefreshTaskRequest("a")) end)
            work(0.5)   -- loading something first: the background thread runs meanwhile
            BGTaskScheduler.register("a", function(task) task:setTaskCompleted(true) end)
          end }
        at(0, user.launch)
        """)
        #expect(racing.codes == ["bgtask-unregistered"])
        #expect(racing.world.violations.first?.location?.line == 4)
    }

    @Test func theLaunchHandlerRunsBeforeAnExpiryOfTheSameInstant() {
        // SPEC 13 (third amendment): a launch and an open in the same millisecond. The handler
        // receives the task; the early expiry reaches the expiration handler it set afterwards.
        let s = simulate("scenario { fetchPolicy = \"manual\" }\n" + bgApp(
            handler: "task.expirationHandler = function() print('expired', task.identifier, now()) task:setTaskCompleted(false) end",
            submit: "BGTaskScheduler.submit(BGProcessingTaskRequest('clean'))") + """
        at(0, user.launch)
        at(1, user.home)
        at(100, function() system.launchTask("clean") end)
        at(100, user.open)
        """)
        #expect(s.codes == [])
        #expect(s.printed == ["runs\tclean\t100", "expired\tclean\t100"])
        #expect(s.messages.contains { $0.contains("clean completed (failure)") })
        // Without an expiration handler the task is marked complete after the launch handler
        // returned, and the handler still got its task.
        let bare = simulate("scenario { fetchPolicy = \"manual\" }\n" + bgApp(handler: "print(type(task), task.identifier)",
            submit: "BGTaskScheduler.submit(BGProcessingTaskRequest('clean'))") + """
        at(0, user.launch)
        at(1, user.home)
        at(100, function() system.launchTask("clean") end)
        at(100, user.open)
        """)
        #expect(bare.codes == [])
        #expect(bare.printed == ["runs\tclean\t100", "table\tclean"])
    }

    @Test func anExpiryWaitsForALaunchHandlerThatIsStillRunning() {
        // The handler works for 10 s on the scheduler's queue; the person opens the app at 3 s.
        let s = simulate("scenario { fetchPolicy = \"manual\" }\n" + bgApp(
            handler: "work(10) task.expirationHandler = function() print('expired', now()) task:setTaskCompleted(false) end",
            submit: "BGTaskScheduler.submit(BGProcessingTaskRequest('clean'))") + """
        at(0, user.launch)
        at(1, user.home)
        at(100, function() system.launchTask("clean") end)
        at(103, user.open)
        """)
        // The early expiry at 103 ends the task at 108; the handler returns at 110: too late.
        #expect(s.printed == ["runs\tclean\t100"])
        #expect(s.codes == ["bgtask-no-completion"])
    }

    @Test func theExpirationHandlerIsReadable() {
        // SPEC 13: nil when none is set, the function once set, nil again once it has run.
        let s = simulate("scenario { fetchPolicy = \"manual\" }\n" + bgApp(
            handler: """
            print(task.expirationHandler)
            local function onExpiry() print('inside', task.expirationHandler) task:setTaskCompleted(false) end
            task.expirationHandler = onExpiry
            print(task.expirationHandler == onExpiry)
            """,
            submit: "BGTaskScheduler.submit(BGAppRefreshTaskRequest('refresh'))") + """
        at(0, user.launch)
        at(1, user.home)
        at(100, function() system.launchTask("refresh") end)
        at(101, function() system.expireTask("refresh") end)
        """)
        #expect(s.codes == [])
        #expect(s.printed == ["runs\trefresh\t100", "nil", "true", "inside\tnil"])
        let typo = simulate("scenario { fetchPolicy = \"manual\" }\n" + bgApp(handler: "print(task.expirationHandlr)",
            submit: "BGTaskScheduler.submit(BGAppRefreshTaskRequest('refresh'))") + """
        at(0, user.launch)
        at(1, user.home)
        at(100, function() system.launchTask("refresh") end)
        """)
        #expect(typo.codes == ["app-crash"])
        #expect(typo.world.violations.first?.message.contains("did you mean expirationHandler?") == true)
    }

    @Test func processingWaitsForTheIdleWindowAndExpiresWhenThePersonUsesTheDevice() {
        let s = simulate("scenario { fetchPolicy = \"fixed\", duration = hours(3) }\n"
                         + bgApp(handler: "task.expirationHandler = function() print('expired', now()) task:setTaskCompleted(false) end",
                                 submit: "BGTaskScheduler.submit(BGProcessingTaskRequest('clean'))") + """
        at(0, user.launch)
        at(60, user.home)
        at(hours(1) + 100, user.open)
        """)
        #expect(s.printed == ["runs\tclean\t3600", "expired\t3700"])
        #expect(s.codes == [])
    }

    @Test func idleWindowsChargingAndNetworkGateProcessing() {
        let s = simulate("""
        scenario { fetchPolicy = "fixed", duration = days(1), device = { idleWindows = { { hours(2), hours(3) } } } }
        """ + bgApp(submit: "local p = BGProcessingTaskRequest('clean') p.requiresNetworkConnectivity = true BGTaskScheduler.submit(p)") + """
        at(0, user.launch)
        at(60, function() system.setNetwork(false) end)
        at(61, user.home)
        at(hours(2) + 600, function() system.setNetwork(true) end)
        """)
        #expect(s.printed == ["runs\tclean\t7800"])
        let charging = simulate("scenario { fetchPolicy = \"fixed\", duration = hours(2) }\n"
                                + bgApp(submit: "local p = BGProcessingTaskRequest('clean') p.requiresExternalPower = true BGTaskScheduler.submit(p)") + """
        at(0, user.launch)
        at(60, function() system.setDeviceIdle(true) system.setCharging(false) end)
        at(61, user.home)
        at(600, function() system.setCharging(true) end)
        """)
        #expect(charging.printed == ["runs\tclean\t600"])
    }

    @Test func eachOverrideCoversItsOwnPropertyAndWindowsStillCount() {
        // SPEC 13 (third amendment): after setDeviceIdle(true) the device charges only inside a
        // window; a request that needs power launches when the window opens, not at a later,
        // unrelated event.
        let power = simulate("scenario { fetchPolicy = \"fixed\", duration = hours(6), device = { idleWindows = { { hours(2), hours(3) } } } }\n"
                             + bgApp(submit: "local p = BGProcessingTaskRequest('clean') p.requiresExternalPower = true BGTaskScheduler.submit(p)") + """
        at(0, user.launch)
        at(60, function() system.setDeviceIdle(true) end)
        at(61, user.home)
        at(hours(5), function() end)
        """)
        #expect(power.printed == ["runs\tclean\t7200"])
        // The other way round: charging forced on, idleness still from the windows.
        let idle = simulate("scenario { fetchPolicy = \"fixed\", duration = hours(6), device = { idleWindows = { { hours(2), hours(3) } } } }\n"
                            + bgApp(submit: "local p = BGProcessingTaskRequest('clean') p.requiresExternalPower = true BGTaskScheduler.submit(p)") + """
        at(0, user.launch)
        at(60, function() system.setCharging(true) end)
        at(61, user.home)
        at(hours(5), function() end)
        """)
        #expect(idle.printed == ["runs\tclean\t7200"])
    }

    @Test func leavingTheForegroundForASimulatedFetchReconsidersRequests() {
        let s = simulate("scenario { fetchPolicy = \"fixed\", duration = hours(1) }\n" + """
        app {
          backgroundModes = { "fetch", "processing" },
          permittedIdentifiers = { "clean" },
          didFinishLaunching = function()
            BGTaskScheduler.register("clean", function(task) print("runs", now()) task:setTaskCompleted(true) end)
            system_submit = function() BGTaskScheduler.submit(BGProcessingTaskRequest("clean")) end
          end,
          didBecomeActive = function() system_submit() end,
          performFetch = function(app, done) after(20, function() done("noData") end) end,
        }
        at(0, function() system.setDeviceIdle(true) end)
        at(1, user.launch)
        at(100, system.backgroundFetch)
        """)
        #expect(s.printed == ["runs\t100"])
    }

    @Test func theAdaptivePolicyAddsADelayDrawnOnce() {
        let s = simulate("scenario { duration = hours(2), seed = 4 }\n" + bgApp(submit: Self.refresh) + "\nat(0, user.launch)\nat(60, user.home)")
        guard let line = s.printed.first, let t = Double(line.split(separator: "\t").last!) else {
            Issue.record("the refresh did not run: \(s.printed)")
            return
        }
        #expect(t >= 960 && t <= 960 + 1800)
        #expect(s.printed.count == 1)
    }

    @Test func forceQuitMakesTheAppIneligibleUntilTheNextUserLaunch() {
        let s = simulate("scenario { fetchPolicy = \"fixed\", duration = hours(2) }\n" + bgApp(register: Self.refreshOnce) + """
        at(0, user.launch)
        at(60, user.home)
        at(120, user.forceQuit)
        at(hours(1), user.launch)
        at(hours(1) + 60, user.home)
        """)
        #expect(s.printed == ["runs\trefresh\t3660"])
    }

    /// A process that ends launches nothing into itself: the task its end abandons frees the
    /// request waiting behind it, and a force quit blocks it (explore found a processing task
    /// launched into the force-quit process, whose watchdog then killed the next process).
    @Test func aTerminationLaunchesNoTaskIntoTheEndingProcess() {
        let s = simulate("scenario { fetchPolicy = \"fixed\", duration = minutes(10) }\n"
            + bgApp(handler: "BGTaskScheduler.submit(BGAppRefreshTaskRequest('refresh'))", submit: "BGTaskScheduler.submit(BGAppRefreshTaskRequest('refresh'))") + """
        at(0, user.launch)
        at(1, user.home)
        at(10, user.forceQuit)
        at(20, user.launch)
        """)
        #expect(s.printed == ["runs\trefresh\t1"], "\(s.messages)")
        #expect(s.codes.isEmpty, "\(s.messages)")
        #expect(s.world.state == .active)
    }

    @Test func pendingRequestsSurviveTermination() {
        let s = simulate("scenario { fetchPolicy = \"fixed\", duration = hours(1) }\n" + bgApp(submit: Self.refresh) + """
        at(0, user.launch)
        at(60, user.home)
        at(120, system.memoryPressure)
        """)
        #expect(s.printed == ["runs\trefresh\t960"])
        #expect(s.world.stats.backgroundLaunches == 1)
    }

    @Test func theDebugActionsNeedARequestOrATask() {
        let s = simulate(bgApp() + "\nat(0, user.launch)\nat(1, function() system.launchTask('refresh') end)")
        #expect(s.exitCode == 2)
        #expect(s.error?.message == "test.lua:17: system.launchTask(\"refresh\"): no request with that identifier is pending (submit one with BGTaskScheduler.submit first)",
                "\(s.error?.message ?? "")")
        let e = simulate(bgApp() + "\nat(0, user.launch)\nat(1, function() system.expireTask('refresh') end)")
        #expect(e.error?.message.contains("no task with that identifier is running") == true)
    }

    @Test func launchTaskStarLaunchesTheOldestPendingRequest() {
        let s = simulate("scenario { fetchPolicy = \"manual\" }\n" + bgApp(submit: Self.refresh) + """
        at(0, user.launch)
        at(1, user.home)
        at(100, function() system.launchTask("*") end)
        """)
        #expect(s.printed == ["runs\trefresh\t100"])
        // Explore injects it that way: the action table's launchTask row draws "*".
        let parsed = try? InjectedAction.parse("100:launchTask=*").get()
        #expect(parsed?.first?.luaLine == "at(100, function() system.launchTask(\"*\") end)")
    }

    @Test func anAppThatResubmitsAndCrashesAtLaunchDoesNotHangTheRun() {
        let s = simulate("""
        scenario { fetchPolicy = "fixed", duration = 2 }
        app { backgroundModes = { "fetch" }, permittedIdentifiers = { "a" },
          didFinishLaunching = function(app, launch)
            BGTaskScheduler.register("a", function(task) task:setTaskCompleted(true) end)
            BGTaskScheduler.submit(BGAppRefreshTaskRequest("a"))
            if launch.reason ~= "user" then error("crash at launch") end
          end }
        at(0, user.launch)
        at(0.5, function() system.setBackgroundRefresh(false) end)
        at(1, user.home)
        at(1.5, system.memoryPressure)
        at(1.6, function() system.setBackgroundRefresh(true) end)
        """, eventLimit: 100_000)
        // Launched, resubmitted and crashed again and again: 10 launches at one instant at most,
        // then a second's pause, so the clock moves and the run ends.
        #expect(s.codes.filter { $0 == "app-crash" }.count == 10, "\(s.codes.count)")
        #expect(s.world.now == 2_000)
    }

    @Test func olderProfilesHaveNoFramework() {
        let s = simulate("scenario { os = \"ios7\" }\n" + bgApp() + "\nat(0, user.launch)")
        #expect(s.codes == ["app-crash"])
        #expect(s.world.violations[0].message.contains("no BackgroundTasks framework"))
    }

    /// SPEC 18.7.3: `register`'s queue. A timer made on a background thread never fires, so
    /// whether a handler's timer fires tells the thread it ran on.
    @Test func handlersRunOnTheQueueTheyWereRegisteredWith() {
        let s = simulate("""
        scenario { fetchPolicy = "manual", duration = 200, budgets = { processingTask = 30 } }
        app { backgroundModes = { "processing" }, permittedIdentifiers = { "main", "global", "queue", "default" },
          didFinishLaunching = function()
            local q = dispatch.queue("refresher")
            local function handler(task)
              print("launch", task.identifier, now())
              timer.after(1, function() print("timer", task.identifier) end)
              task.expirationHandler = function()
                print("expires", task.identifier, now())
                timer.after(1, function() print("expiry timer", task.identifier) end)
                task:setTaskCompleted(false)
              end
            end
            BGTaskScheduler.register("main", handler, "main")
            BGTaskScheduler.register("global", handler, "global")
            BGTaskScheduler.register("queue", handler, q)
            BGTaskScheduler.register("default", handler, nil)
            for _, id in ipairs({ "main", "global", "queue", "default" }) do BGTaskScheduler.submit(BGProcessingTaskRequest(id)) end
            q:async(function() work(20) print("queue busy until", now()) end)
          end }
        at(0, user.launch)
        at(5, user.home)
        at(10, function() system.launchTask("main") end)
        at(11, function() system.launchTask("global") end)
        at(12, function() system.launchTask("queue") end)
        at(13, function() system.launchTask("default") end)
        """)
        #expect(s.printed == ["launch\tmain\t10", "timer\tmain", "launch\tglobal\t11", "launch\tdefault\t13",
                              "queue busy until\t25", "launch\tqueue\t25",  // the app's queue was busy (20 s of work, frozen 5 to 10)
                              "expires\tmain\t35", "expiry timer\tmain", "expires\tglobal\t36", "expires\tqueue\t37",
                              "expires\tdefault\t38"], "\(s.printed)")
        // Every background handler's timer: launch and expiry of global, default and queue.
        #expect(s.codes == Array(repeating: "timer-on-background-thread", count: 6), "\(s.codes)")
    }

    @Test func aLaunchHandlerOnTheMainQueueWaitsForABlockedMainThread() {
        let s = simulate("""
        scenario { fetchPolicy = "manual", duration = 200 }
        app { backgroundModes = { "fetch" }, permittedIdentifiers = { "r" },
          didFinishLaunching = function()
            BGTaskScheduler.register("r", function(task) print("launch", now()) task:setTaskCompleted(true) end, "main")
            BGTaskScheduler.submit(BGAppRefreshTaskRequest("r"))
          end,
          didEnterBackground = function(app)
            local id = app:beginBackgroundTask(function() end)
            after(1, function() work(4) app:endBackgroundTask(id) end)
          end }
        at(0, user.launch)
        at(5, user.home)
        at(7, function() system.launchTask("r") end)
        """)
        #expect(s.printed == ["launch\t10"], "\(s.printed)")
        #expect(s.codes == [])
        #expect(s.world.state == .suspended)
    }

    @Test func registersQueueMustBeMainGlobalOrAQueue() {
        for (queue, message) in [("'mian'", "got string): \"mian\"; did you mean main?"), ("5", "got number"), ("{}", "got table")] {
            let s = simulate("""
            app { permittedIdentifiers = { "a" }, didFinishLaunching = function() BGTaskScheduler.register("a", print, \(queue)) end }
            at(0, user.launch)
            """)
            #expect(s.codes == ["app-crash"], "\(queue)")
            #expect(s.world.violations.first?.message.contains("to 'BGTaskScheduler.register' (\"main\", \"global\" or a queue from dispatch.queue expected, \(message)") == true,
                    "\(queue): \(s.world.violations.first?.message ?? "")")
            #expect(s.world.violations.first?.location?.line == 1)
        }
    }

    @Test func badArgumentsAreFileLineMessages() {
        let s = simulate("""
        app { permittedIdentifiers = { "a" }, didFinishLaunching = function()
          local r = BGAppRefreshTaskRequest("a") r.earliestBeginData = 5 BGTaskScheduler.submit(r) end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["app-crash"])
        #expect(s.world.violations[0].message.contains("did you mean earliestBeginDate?"), "\(s.world.violations[0].message)")
        let t = simulate("app { permittedIdentifiers = { 3 } }")
        #expect(t.exitCode == 2)
        let u = simulate("scenario { device = { idleWindows = { { 5, 1 } } } }")
        #expect(u.error?.message.contains("device.idleWindows[1] must be { from, to }") == true, "\(u.error?.message ?? "")")
    }
}

/// SPEC 13's continued processing tasks (ios26).
@Suite struct ContinuedTaskTests {
    static func app(_ handler: String, submit: String) -> String {
        """
        scenario { os = "ios26", duration = minutes(30) }
        notifications.observe("never", print)
        local submitted = false
        app { permittedIdentifiers = { "com.example.export.*" },
          didBecomeActive = function()
            if submitted then return end
            submitted = true
            BGTaskScheduler.register("com.example.export.*", function(task)   -- late, as continued handlers may
              print("runs", task.identifier, now())
              \(handler)
            end)
            \(submit)
          end }
        at(0, user.launch)
        """
    }

    @Test func itStartsAtOnceAndRunsOnInTheBackgroundWhileItMakesProgress() {
        let s = simulate(Self.app("""
        for i = 1, 30 do work(10) task:updateProgress(i, 30) end
        task:setTaskCompleted(true)
        """, submit: "print(BGTaskScheduler.submit(BGContinuedProcessingTaskRequest('com.example.export.1', { title = 'Export' })))") + "\nat(5, user.home)\nat(30, user.open)")
        // The launch handler runs on the scheduler's queue, after the main thread's submit returned.
        #expect(s.printed == ["true", "runs\tcom.example.export.1\t0"], "\(s.printed)")
        #expect(s.codes.filter { $0 != "scene-lifecycle-required" } == [])  // ios26 warns apps without scenes
        #expect(s.messages.contains { $0.contains("com.example.export.1 completed (success)") })
    }

    @Test func noProgressForAMinuteExpiresIt() {
        let s = simulate(Self.app("task.expirationHandler = function() print('expired', now()) task:setTaskCompleted(false) end",
                                  submit: "BGTaskScheduler.submit(BGContinuedProcessingTaskRequest('com.example.export.1'))") + "\nat(5, user.home)")
        #expect(s.printed == ["runs\tcom.example.export.1\t0", "expired\t60"])
        #expect(s.codes.filter { $0 != "scene-lifecycle-required" } == [])  // ios26 warns apps without scenes
    }

    @Test func thePersonCancelsIt() {
        let s = simulate(Self.app("task.expirationHandler = function() print('cancelled', now()) end",
                                  submit: "BGTaskScheduler.submit(BGContinuedProcessingTaskRequest('com.example.export.1'))")
                         + "\nat(5, user.home)\nat(20, function() user.cancelTask('com.example.export.1') end)")
        #expect(s.printed == ["runs\tcom.example.export.1\t0", "cancelled\t20"])
        #expect(s.codes.filter { $0 != "scene-lifecycle-required" } == ["bgtask-no-completion"])
        #expect(s.world.violations.last?.time == 25_000)
    }

    @Test func strategiesQueueOrFail() {
        let s = simulate(Self.app("after(5, function() task:setTaskCompleted(true) end)", submit: """
            print(BGTaskScheduler.submit(BGContinuedProcessingTaskRequest('com.example.export.1')))
            print(BGTaskScheduler.submit(BGContinuedProcessingTaskRequest('com.example.export.2', { strategy = 'fail' })))
            print(BGTaskScheduler.submit(BGContinuedProcessingTaskRequest('com.example.export.3', { strategy = 'queue' })))
        """))
        #expect(s.printed == ["true", "nil\timmediateRunIneligible", "true", "runs\tcom.example.export.1\t0", "runs\tcom.example.export.3\t5"], "\(s.printed)")
    }

    @Test func onlyUnderIOS26() {
        let s = simulate("app { didFinishLaunching = function() BGContinuedProcessingTaskRequest('x') end }\nat(0, user.launch)")
        #expect(s.codes == ["app-crash"])
        #expect(s.world.violations[0].message.contains("new in iOS 26"))
    }
}

// SPEC 15: background URL sessions. The system carries transfers while the app is suspended or
// gone; a running app that holds the session hears at once; otherwise the app is woken or
// launched for handleEventsForBackgroundURLSession once every transfer of the session finished,
// must recreate the session to get the delegate calls, and must call the completion within
// sessionEvents (a warning otherwise). A force quit cancels transfers.
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

func sessionApp(events: String = "getSession() after(1, done)", launch: String = "") -> String {
    """
    local cdn = server "cdn.test" { latency = 1 }
    cdn:route("GET /a", { status = 200, body = "A", transfer = 100 })
    cdn:route("GET /b", { status = 200, body = "B", transfer = 50 })
    cdn:route("POST /up", { status = 201, transfer = 10 })
    app {
      delegate = function(app)
        local session
        function getSession()
          session = session or urlSession.background("dl", {
            didFinishDownloading = function(task, response) print("file", task.id, response.body, now()) end,
            didComplete = function(task, err) print("complete", task.id, err, now()) end,
            didFinishEvents = function(s) print("finish events", s.identifier, now()) end,
          })
          return session
        end
        return {
          didFinishLaunching = function(app, launch) print("launch", launch.reason) \(launch) end,
          handleEventsForBackgroundURLSession = function(app, identifier, done)
            print("handle", identifier, now())
            \(events)
          end,
        }
      end }
    """
}

@Suite struct URLSessionTests {
    @Test func aRunningAppHearsAtOnce() {
        let s = simulate(sessionApp(launch: "getSession():download('https://cdn.test/b')") + "\nat(0, user.launch)")
        #expect(s.printed == ["launch\tuser", "file\t1\tB\t51", "complete\t1\tnil\t51"])
    }

    @Test func transfersGoOnWhileSuspendedAndWakeTheAppOnceAllFinished() {
        let s = simulate(sessionApp(launch: "getSession():download('https://cdn.test/a') getSession():download({ url = 'https://cdn.test/b' })")
                         + "\nat(0, user.launch)\nat(5, user.home)")
        #expect(s.printed == ["launch\tuser", "handle\tdl\t101", "file\t2\tB\t101", "complete\t2\tnil\t101",
                              "file\t1\tA\t101", "complete\t1\tnil\t101", "finish events\tdl\t101"], "\(s.printed)")
        #expect(s.world.stats.wakes == 1)
        #expect(s.world.state == .suspended)
        #expect(s.codes == [])
    }

    @Test func aGoneAppIsLaunchedAndEventsWaitForTheSession() {
        let s = simulate(sessionApp(events: "print('not recreated') done()", launch: "if launch.reason == 'user' then getSession():download('https://cdn.test/b') end")
                         + "\nat(0, user.launch)\nat(5, user.home)\nat(10, system.memoryPressure)\nat(200, user.launch)\nat(201, function() end)")
        // Launched at 51 for the session; the handler does not recreate it, so the delegate calls
        // wait until a later process creates the session... which the user launch does not either.
        #expect(s.printed.prefix(3) == ["launch\tuser", "launch\tbackgroundURLSession", "handle\tdl\t51"])
        #expect(!s.printed.contains { $0.hasPrefix("file") })
    }

    @Test func theCompletionHasALimitThatOnlyWarns() {
        let s = simulate(sessionApp(events: "getSession()", launch: "getSession():download('https://cdn.test/b')") + "\nat(0, user.launch)\nat(5, user.home)")
        #expect(s.codes == ["session-no-completion"])
        #expect(s.world.violations[0].time == 81_000)
        #expect(s.world.state == .suspended)
        #expect(s.world.stats.terminations == 0)
    }

    @Test func forceQuitCancelsAndTheAppLearnsItWhenItCreatesTheSession() {
        let s = simulate(sessionApp(launch: "if launch.reason == 'user' and not started then started = true getSession():download('https://cdn.test/a') else getSession() end")
                         + "\nstarted = false\nat(0, user.launch)\nat(5, user.forceQuit)\nat(300, user.launch)")
        #expect(s.printed.contains("complete\t1\tcancelled\t300"), "\(s.printed)")
        #expect(!s.printed.contains { $0.hasPrefix("file") })
    }

    @Test func cancelReportsCancelled() {
        let s = simulate(sessionApp(launch: "local t = getSession():download('https://cdn.test/a') after(3, function() t:cancel() end)") + "\nat(0, user.launch)")
        #expect(s.printed == ["launch\tuser", "complete\t1\tcancelled\t3"])
    }

    @Test func uploadsGetNoFileCall() {
        let s = simulate(sessionApp(launch: "getSession():upload({ url = 'https://cdn.test/up', body = { n = 1 } })") + "\nat(0, user.launch)")
        #expect(s.printed == ["launch\tuser", "complete\t1\tnil\t11"])
    }

    @Test func transferTimeCountsForPlainRequestsAndTheirTimeout() {
        let s = simulate("""
        local cdn = server "cdn.test" { latency = 1 }
        cdn:route("GET /a", { status = 200, transfer = 5 })
        app { didFinishLaunching = function()
          http.get("https://cdn.test/a", function(r, e) print(r and r.status, e, now()) end)
          http.request({ url = "https://cdn.test/a", timeout = 3 }, function(r, e) print(r and r.status, e, now()) end)
        end }
        at(0, user.launch)
        """)
        #expect(s.printed == ["nil\ttimeout\t3", "200\tnil\t6"])
    }

    @Test func anAppThatCrashesAtEachSessionLaunchDoesNotHangTheRun() {
        let s = simulate("""
        scenario { duration = 3 }
        app { didFinishLaunching = function()
          urlSession.background("dl", {}):download("https://nowhere.test/x")   -- fails at once: no such host
          error("crash at launch")
        end }
        at(0, user.launch)
        """, eventLimit: 100_000)
        // The user launch, then at most 10 relaunches for the session at t = 0, 1 and 3 s (the wait
        // doubles each time).
        #expect(s.codes.filter { $0 == "app-crash" }.count == 31, "\(s.codes.filter { $0 == "app-crash" }.count)")
        #expect(s.world.now == 3_000)
    }

    @Test func badArguments() {
        let s = simulate("app { didFinishLaunching = function() urlSession.background('x', 5) end }\nat(0, user.launch)")
        #expect(s.codes == ["app-crash"])
        let t = simulate("app { didFinishLaunching = function() urlSession.background('x', {}):download({ ur = 'https://a.test/' }) end }\nat(0, user.launch)")
        #expect(t.world.violations.first?.message.contains("did you mean url?") == true, "\(t.world.violations.first?.message ?? "")")
        let u = simulate("app { didFinishLaunching = function() urlSession.background('x', {}).download('https://a.test/') end }\nat(0, user.launch)")
        #expect(u.world.violations.first?.message.contains("session:download is a method") == true)
        let v = simulate("scenario { os = 'ios6' }\napp { didFinishLaunching = function() urlSession.background('x', {}) end }\nat(0, user.launch)")
        #expect(v.world.violations.first?.message.contains("no background URL sessions") == true)
        let w = simulate("local s = server 'a.test' {}\ns:route('GET /', { status = 200, transfer = -1 })\napp { didFinishLaunching = function() http.get('https://a.test/', function() end) end }\nat(0, user.launch)")
        #expect(w.exitCode == 2)
    }
}

/// Bad arguments to every function of SPEC 13–15: `file:line: message`, `app-crash` in app code
/// and exit 2 in world code, never a crash of luafetch.
@Suite struct PartTwoBadArgumentTests {
    static let appCalls = [
        "BGTaskScheduler.register(5, print)", "BGTaskScheduler.register('a', 5)", "BGTaskScheduler.submit(5)",
        "BGTaskScheduler.submit({ identifier = 'a' })", "BGTaskScheduler.cancel({})", "BGAppRefreshTaskRequest()",
        "BGProcessingTaskRequest(nil)", "urlSession.background()", "urlSession.background('s', {}):download(5)",
        "urlSession.background('s', {}):upload('https://a.test/')", "urlSession.background('s', {}):download('not a url')",
        "BGTaskScheduler.submit({ type = 'BGAppRefreshTaskRequest', identifier = 'a', earliestBeginDate = 'soon' })",
        "dispatch.queue({})", "sharedContainer.lock()", "defaults.set()",
    ]

    @Test(arguments: appCalls)
    func inAppCode(call: String) {
        let s = simulate("scenario { os = 'ios26' }\napp { scenes = true, permittedIdentifiers = { 'a' }, didFinishLaunching = function()\n\(call)\nend }\nat(0, user.launch)")
        #expect(s.codes == ["app-crash"], "\(call): \(s.codes)")
        #expect(s.world.violations.first?.location?.line == 3, "\(call)")
        #expect(s.world.violations.first?.message.isEmpty == false)
    }

    static let worldCalls = [
        "system.remoteNotification()", "system.remoteNotification({}, 5)", "system.launchTask(5)", "system.expireTask()",
        "system.setCharging('yes')", "system.setDeviceIdle(3)", "system.setNetwork()", "user.cancelTask({})",
        "BGTaskScheduler.submit(BGAppRefreshTaskRequest('a'))", "urlSession.background('s', {})",
    ]

    @Test(arguments: worldCalls)
    func inWorldCode(call: String) {
        let s = simulate("at(1, function()\n\(call)\nend)")
        #expect(s.exitCode == 2, "\(call)")
        #expect(s.error?.message.hasPrefix("test.lua:2: ") == true, "\(call): \(s.error?.message ?? "")")
    }
}

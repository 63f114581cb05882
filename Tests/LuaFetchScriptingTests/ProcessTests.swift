// SPEC 12.1: memory belongs to a process. The `delegate` form of app{} runs at every launch, so a
// relaunch starts from nothing; `defaults` is the disk that survives; shared-container locks
// held at suspension end the process (0xdead10cc).
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct ProcessMemoryTests {
    @Test func delegateRunsAtTheStartOfEveryProcessWithFreshLocals() {
        let s = simulate("""
        local shared = 0
        app { delegate = function(app)
          local mine = 0
          print("delegate", app.state)
          return { didFinishLaunching = function(app, launch)
            mine = mine + 1; shared = shared + 1
            print(launch.reason, mine, shared)
          end }
        end }
        at(0, user.launch)
        at(1, user.forceQuit)
        at(2, user.launch)
        """)
        #expect(s.printed == ["delegate\tinactive", "user\t1\t1", "delegate\tinactive", "user\t1\t2"])
    }

    @Test func coldLaunchBugShowsOnlyInTheDelegateForm() {
        func run(_ form: String) -> [String] {
            simulate("""
            scenario { fetchPolicy = "manual" }
            \(form)
            at(0, user.launch)
            at(5, user.home)
            at(10, system.memoryPressure)
            at(20, system.backgroundFetch)
            """).codes
        }
        let body = """
        didFinishLaunching = function(app, launch)
          app:setMinimumBackgroundFetchInterval(0)
          if launch.reason == "user" then store = { n = 0 } end
        end,
        performFetch = function(app, done) store.n = store.n + 1; done("newData") end,
        """
        #expect(run("local store\napp { backgroundModes = { \"fetch\" }, \(body) }") == [])
        #expect(run("app { backgroundModes = { \"fetch\" }, delegate = function(app) local store return { \(body) } end }") == ["app-crash"])
    }

    @Test func delegateErrorsAreTheAppsAtThatLaunch() {
        let s = simulate("""
        app { delegate = function(app) return { didFinishLaunching = 3 } end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["app-crash"])
        #expect(s.world.violations[0].message.contains("didFinishLaunching must be a function, got number"))
        let t = simulate("app { delegate = function(app) return { didBecomeActiv = function() end } end }\nat(0, user.launch)")
        #expect(t.codes == ["app-crash"])
        #expect(t.world.violations[0].message.contains("did you mean didBecomeActive?"), "\(t.world.violations[0].message)")
        let u = simulate("app { delegate = function(app) return nil end }\nat(0, user.launch)")
        #expect(u.world.violations.first?.message.contains("must return a table of delegate methods") == true)
        let v = simulate("app { delegate = function(app) error('boom') end }\nat(0, user.launch)\nat(1, function() print(app.state) end)")
        #expect(v.codes == ["app-crash"])
        #expect(v.world.violations[0].location?.line == 1)
    }

    @Test func delegateAndDelegateFieldsAreExclusive() {
        let s = simulate("app { delegate = function(app) return {} end, didBecomeActive = function() end }")
        #expect(s.exitCode == 2)
        #expect(s.error?.message.hasPrefix("test.lua:1: app{}: give either delegate") == true, "\(s.error?.message ?? "")")
        let t = simulate("app { backgroundModes = { \"fetch\" }, delegate = 5 }")
        #expect(t.error?.message.contains("delegate must be a function(app)") == true)
    }

    @Test func delegateRunsInsideTheLaunchLimit() {
        let s = simulate("""
        app { delegate = function(app) work(15) return { didFinishLaunching = function() work(6) end } end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["callback-overrun"])
        #expect(s.world.violations[0].time == 20_000)
    }

    @Test func defaultsSurviveTerminationAndAreCopied() {
        let s = simulate("""
        scenario { defaults = { runs = 0, profile = { name = "ann", tags = { "a" } } } }
        app { delegate = function(app)
          return { didFinishLaunching = function()
            defaults.set("runs", defaults.get("runs") + 1)
            local p = defaults.get("profile"); p.name = "changed"
          end }
        end }
        at(0, user.launch)
        at(1, user.forceQuit)
        at(2, user.launch)
        at(3, function()
          print(defaults.get("runs"), math.type(defaults.get("runs")), defaults.get("profile").name, defaults.get("nope"))
          local t = { 1, 2 }; defaults.set("list", t); t[1] = 9; print(defaults.get("list")[1])
          defaults.set("runs", nil); print(defaults.get("runs"))
        end)
        """)
        #expect(s.printed == ["2\tinteger\tann\tnil", "1", "nil"])
    }

    @Test func defaultsRefuseWhatIsNotAPropertyList() {
        for (value, why) in [("function() end", "value is a function"), ("{ f = print }", "value.f is a function"),
                             ("{ [1.5] = 1 }", "non-integer number key"), ("setmetatable({}, {})", nil)] {
            let s = simulate("at(0, function() defaults.set('k', \(value)) end)")
            if let why {
                #expect(s.exitCode == 2, "\(value)")
                #expect(s.error?.message.hasPrefix("test.lua:1: bad argument #2 to 'defaults.set' (") == true, "\(s.error?.message ?? "")")
                #expect(s.error?.message.contains(why) == true, "\(s.error?.message ?? "")")
            } else {
                #expect(s.exitCode == 0)
            }
        }
        let cyclic = simulate("local t = {}; t.me = t\nat(0, function() defaults.set('k', t) end)")
        #expect(cyclic.error?.message.contains("value.me contains itself") == true, "\(cyclic.error?.message ?? "")")
        let key = simulate("at(0, function() defaults.get(1) end)")
        #expect(key.error?.message == "test.lua:1: bad argument #1 to 'defaults.get' (a string key expected, got number)")
        let inApp = simulate("app { didFinishLaunching = function() defaults.set('k', coroutine.create(print)) end }\nat(0, user.launch)")
        #expect(inApp.codes == ["app-crash"])
        let scen = simulate("scenario { defaults = { [1] = true } }")
        #expect(scen.error?.message == "test.lua:1: scenario{}: defaults must have string keys (UserDefaults keys are strings)")
        let scenBad = simulate("scenario { defaults = { a = { print } } }")
        #expect(scenBad.error?.message.contains("defaults.a[1] is a function") == true, "\(scenBad.error?.message ?? "")")
    }

    @Test func aLockHeldAtSuspensionTerminatesTheProcess() {
        let s = simulate("""
        app { didEnterBackground = function(app)
          local a = sharedContainer.lock("a.sqlite")
          local b = sharedContainer.lock("b.sqlite")
          a:unlock(); a:unlock()
        end }
        at(0, user.launch)
        at(1, user.home)
        """)
        #expect(s.codes == ["lock-held-at-suspension"])
        #expect(s.world.violations[0].location?.line == 3)
        #expect(s.world.violations[0].exceptionCode == "0xdead10cc")
        #expect(s.world.state == .notRunning)
    }

    @Test func locksReleasedInTimeOrAtTerminationAreFine() {
        let s = simulate("""
        local l
        app {
          didEnterBackground = function(app)
            l = sharedContainer.lock("db")
            local id; id = app:beginBackgroundTask(function() end)
            after(2, function() l:unlock(); app:endBackgroundTask(id) end)
          end,
          willEnterForeground = function() l = sharedContainer.lock("db") end,
        }
        at(0, user.launch)
        at(1, user.home)
        at(10, user.launch)
        at(11, user.forceQuit)
        at(12, user.launch)
        at(13, user.home)
        """)
        #expect(s.codes == [])
        #expect(s.world.stats.suspensions == 2)
    }

    @Test func lockIsAppCode() {
        let s = simulate("at(0, function() sharedContainer.lock('db') end)")
        #expect(s.error?.message.hasPrefix("test.lua:1: sharedContainer.lock is app code") == true, "\(s.error?.message ?? "")")
        let t = simulate("app { didFinishLaunching = function() sharedContainer.lock(3) end }\nat(0, user.launch)")
        #expect(t.codes == ["app-crash"])
    }
}

// Messages of issue 29: argument numbers follow Lua's luaL_argerror (in a method call the first
// argument after self is #1, and a bad self is "calling 'x' on bad self") for every method-style
// API (app:, task:, q:, m:, lock:, session:, srv:, t:); "did you mean" ranks by edit distance,
// prefers the same table's names and never offers a name much shorter than the word. Each rule is
// a Lua snippet run through the harness (Harness.swift).
@testable import LuaFetchCore
@testable import LuaFetchScripting
import Testing

@Suite struct ArgumentNumberTests {
    /// Inside app code, a bad argument to a method is an app-crash whose message numbers the
    /// arguments as the call was written.
    @Test(arguments: [
        ("app:beginBackgroundTask('ok', 42)", "bad argument #2 to 'app:beginBackgroundTask' (function expected, got number)"),
        ("app:endBackgroundTask('x')", "bad argument #1 to 'app:endBackgroundTask' (integer expected, got string)"),
        ("app:setMinimumBackgroundFetchInterval(-1)", "bad argument #1 to 'app:setMinimumBackgroundFetchInterval' (an interval ≥ 0 expected, got -1)"),
        ("dispatch.queue('q'):async(5)", "bad argument #1 to 'queue:async' (function expected, got number)"),
        ("dispatch.queue('q'):sync(5)", "bad argument #1 to 'q:sync' (function expected, got number)"),
        ("urlSession.background('s', {}):download(5)", "bad argument #1 to 'session:download' (table expected, got number)"),
        ("local o = { f = app.endBackgroundTask }; o:f(1)", "calling 'endBackgroundTask' on bad self (the app expected, got table)"),
        ("local m = dispatch.lock(); local o = { lock = m.lock }; o:lock()", "calling 'lock' on bad self (a lock expected, got table)"),
        ("local q = dispatch.queue('q'); local o = { sync = q.sync }; o:sync(print)", "calling 'sync' on bad self (a queue expected, got table)"),
        ("local q = dispatch.queue('q'); local o = { async = q.async }; o:async(print)", "calling 'async' on bad self (a queue expected, got table)"),
        ("local t = timer.after(1, print); local o = { invalidate = t.invalidate }; o:invalidate()", "calling 'invalidate' on bad self (a timer expected, got table)"),
        ("local l = sharedContainer.lock('db'); local o = { unlock = l.unlock }; o:unlock()", "calling 'unlock' on bad self (a lock expected, got table)"),
        ("local s = urlSession.background('s', {}); local o = { download = s.download }; o:download('https://a.test/')",
         "calling 'download' on bad self (a background session expected, got table)"),
        // Called with a dot, the message says how to call it (self is then argument #1).
        ("app.endBackgroundTask(1)", "app:endBackgroundTask is a method: call it with a colon, app:endBackgroundTask(...)"),
        ("dispatch.queue('q').async(print)", "q:async is a method of a queue from dispatch.queue(label): call it with a colon"),
    ])
    func methodCallsNumberArgumentsAfterSelf(call: String, message: String) {
        let s = simulate("app { didFinishLaunching = function(app, launch)\n  \(call)\nend }\nat(0, user.launch)")
        #expect(s.codes == ["app-crash"], "\(call)")
        #expect(s.world.violations.first?.message.contains(message) == true, "\(call): \(s.world.violations.first?.message ?? "")")
        #expect(s.world.violations.first?.location?.line == 2)
    }

    /// A BGTask's methods (the task handed to the launch handler) and a server's (top level).
    @Test func taskAndServerMethodsNumberArgumentsAfterSelf() {
        let t = simulate("scenario { fetchPolicy = \"manual\" }\n" + bgApp(handler: "task:setTaskCompleted('yes')", submit: BGTaskTests.refresh) + """
            at(0, user.launch)
            at(1, user.home)
            at(100, function() system.launchTask("refresh") end)
            """)
        #expect(t.world.violations.first?.message.contains("bad argument #1 to 'task:setTaskCompleted' (boolean expected, got string)") == true,
                "\(t.world.violations.map(\.message))")
        let s = simulate("local s = server 'a.test'\ns:route(5)")
        #expect(s.error?.message == "test.lua:2: bad argument #1 to 'server \"a.test\":route' (string expected, got number)", "\(s.error?.message ?? "")")
        let d = simulate("local s = server 'a.test'\ns:down(1, 'x')")
        #expect(d.error?.message.hasPrefix("test.lua:2: bad argument #2 to 'server \"a.test\":down' (number expected, got string)") == true,
                "\(d.error?.message ?? "")")
        let selfless = simulate("local s = server 'a.test'\nlocal o = { route = s.route }\no:route('GET /')")
        #expect(selfless.error?.message == "test.lua:3: calling 'route' on bad self (a server expected, got table)", "\(selfless.error?.message ?? "")")
    }

    /// Functions that are not methods keep counting from their first argument.
    @Test func plainFunctionsCountEveryArgument() {
        let s = simulate("at(1, 2)")
        #expect(s.error?.message.hasPrefix("test.lua:1: bad argument #2 to 'at' (function expected, got number)") == true)
        let t = simulate("app { didFinishLaunching = function() timer.after(1) end }\nat(0, user.launch)")
        #expect(t.world.violations.first?.message.contains("bad argument #2 to 'timer.after' (function expected, got nil)") == true)
    }
}

@Suite struct DidYouMeanTests {
    /// The issue's case: `expect.noViolation()` suggests noViolations, not `at` (which it contains).
    @Test func aMissingLetterBeatsAShortNameTheWordContains() {
        let s = simulate("expect.noViolation()")
        #expect(s.error?.message == "test.lua:1: unknown field 'noViolation' of expect; did you mean noViolations?", "\(s.error?.message ?? "")")
        #expect(closest("noViolation", among: ["at", "that", "noViolations", "violation"]) == "noViolations")
    }

    /// Edit distance ranks first; a candidate that merely contains the word comes after any close
    /// name; a name less than half the word's length is never offered; ties go to the closer
    /// length, then the alphabet.
    @Test func candidatesRankByEditDistanceFirst() {
        #expect(closest("violatoin", among: ["at", "violation", "violations"]) == "violation")
        #expect(closest("multitask", among: ["isMultitaskingSupported", "multitasks"]) == "multitasks")
        #expect(closest("multitasking", among: ["isMultitaskingSupported"]) == "isMultitaskingSupported")
        #expect(closest("backgroundTask", among: ["task", "at", "back"]) == nil)
        #expect(closest("abcd", among: ["abce", "abcf"]) == "abce")
        #expect(closest("abcd", among: ["abcdef", "abc"]) == "abc")
    }

    /// A table's own names come before other tables' (offered qualified, when none of its own is
    /// close): `system.launch` is user.launch's, `user.hom` is user.home.
    @Test func theSameTablesNamesComeFirst() {
        #expect(closest("launch", among: ["setLowPowerMode"], elsewhere: ["user.launch", "user.home"]) == "user.launch")
        #expect(closest("hom", among: ["home"], elsewhere: ["system.homer"]) == "home")
        #expect(closest("lanch", among: ["launch"], elsewhere: ["other.launch"]) == "launch")
        #expect(closest("launch", among: ["lunch"], elsewhere: ["user.launch"]) == "user.launch")
        let s = simulate("system.launch()")
        #expect(s.error?.message == "test.lua:1: unknown field 'launch' of system; did you mean user.launch?", "\(s.error?.message ?? "")")
        let u = simulate("user.hom()")
        #expect(u.error?.message == "test.lua:1: unknown field 'hom' of user; did you mean home?")
    }
}

// Words of issue 31: the most common violations say what happened, where, and what to do, in the
// user's terms. task-expired ends with its fix (ViolationCode.fix, the text the page shows under
// the rule); a missed completion names the line where the code holding the completion handler
// returned without calling it, or the line it was running when the time ran out. Each rule is a
// Lua snippet run through the harness (Harness.swift).
@testable import LuaFetchCore
@testable import LuaFetchScripting
import Testing

@Suite struct WordsTests {
    /// task-expired says what happened and how to fix it, with the fix the page shows (one text);
    /// the page's copy of the message leaves the fix to its "how to fix it".
    @Test func taskExpiredSaysHowToFixIt() {
        let s = simulate("""
            app { didEnterBackground = function(app) app:beginBackgroundTask("upload") end }
            at(0, user.launch)
            at(1, user.home)
            """)
        #expect(s.codes == ["task-expired"])
        let v = s.world.violations[0]
        #expect(v.message == "background task #1 \"upload\" was still open when the 30s of background time ran out; the watchdog terminated the app. "
                + ViolationCode.taskExpired.fix, "\(v.message)")
        #expect(ViolationCode.taskExpired.fix.contains("endBackgroundTask"))
        #expect(v.messageWithoutFix == "background task #1 \"upload\" was still open when the 30s of background time ran out; the watchdog terminated the app.")
    }
}

/// A missed completion names where the code holding the completion handler stopped (SPEC 5:
/// the path that returned without calling it), not the first line of performFetch.
@Suite struct MissedCompletionLineTests {
    /// An app with `performFetch = <fetch>` (and `extra` app fields), sent Home, then fetched.
    static func fetching(_ fetch: String, _ before: String = "", _ extra: String = "") -> Sim {
        simulate("""
            scenario { fetchPolicy = "manual" }
            local api = server "api.test" { latency = 0.5 }
            api:route("GET /feed", { status = 200 })
            \(before)
            app {
              backgroundModes = { "fetch" },\(extra)
              performFetch = \(fetch),
            }
            at(0, user.launch)
            at(1, user.home)
            at(10, system.backgroundFetch)
            """)
    }

    func missed(_ s: Sim, _ code: String = "fetch-no-completion") -> Violation? { s.world.violations.first { $0.code.rawValue == code } }

    /// The path that returned: a callback's early `return` (examples/forgot_completion.lua).
    @Test func aCallbackThatReturnsEarly() throws {
        let s = Self.fetching("""
            function(app, completionHandler)
                http.get("https://api.test/feed", function(response, err)
                  if response then
                    return
                  end
                  completionHandler("newData")
                end)
              end
            """)
        let v = try #require(missed(s), "\(s.codes)")
        #expect(v.location?.line == 10, "\(String(describing: v.location))")
        #expect(v.message == "performFetch did not call its completionHandler within 30s (fetch #1): the code holding it returned at this line without calling it; the watchdog terminated the app")
    }

    /// performFetch's own early return; and when it just ends, its `end`.
    @Test func performFetchReturnsEarlyOrEnds() throws {
        let early = Self.fetching("""
            function(app, completionHandler)
                local signedIn = false
                if not signedIn then
                  print("not signed in")
                  return
                end
                completionHandler("newData")
              end
            """)
        #expect(try #require(missed(early)).location?.line == 11)
        let ends = Self.fetching("""
            function(app, completionHandler)
                print("fetching")
              end
            """)
        #expect(try #require(missed(ends)).location?.line == 9)
    }

    /// A callee holding the handler returns early; its caller then ends: the callee's line. A
    /// helper that never sees the handler does not count, however it returns.
    @Test func theCalleesReturnAndNotAHelpers() throws {
        let s = Self.fetching("fetch", """
            local function signedIn() if os.time() > 0 then return false end return true end
            local function refresh(done)
              if not signedIn() then
                return
              end
              done("newData")
            end
            local function fetch(app, completionHandler)
              refresh(completionHandler)
            end
            """)
        #expect(try #require(missed(s)).location?.line == 7, "\(s.world.violations.map(\.message))")
    }

    /// A helper's registers may still hold the handler from an earlier expression of its caller
    /// (here `tostring(completionHandler)`'s argument): a stale register is not a local, so the
    /// helper's `return` does not count and the report names performFetch's end.
    @Test func aStaleRegisterIsNotHolding() throws {
        let s = Self.fetching("""
            function(app, completionHandler)
                local function check()
                  do return end
                end
                tostring(completionHandler)
                check()
              end
            """)
        #expect(try #require(missed(s)).location?.line == 13, "\(s.world.violations.map(\.message))")
    }

    /// The handler kept in a table (as Swift's `self.completion = completionHandler`) and a timer
    /// that reaches it there but ends without calling it: the timer's end. A timer that cannot
    /// reach it changes nothing.
    @Test func aHandlerKeptInATable() throws {
        let s = Self.fetching("""
            function(app, completionHandler)
                state.completion = completionHandler
                after(2, function()
                  if state.ready then state.completion("newData") end
                end)
                timer.every(1, function() print("tick") end)
              end
            """, "local state = {}")
        #expect(try #require(missed(s)).location?.line == 11, "\(s.world.violations.map(\.message))")
    }

    /// Still computing on the main thread when the 30 s ran out: the line it was running.
    @Test func stillRunningAtTheDeadline() throws {
        let s = Self.fetching("""
            function(app, completionHandler)
                work(40)
                completionHandler("newData")
              end
            """)
        let v = try #require(missed(s))
        #expect(v.location?.line == 8)
        #expect(v.message.contains("(fetch #1): the code holding it was still running at this line; the watchdog terminated the app"), "\(v.message)")
    }

    /// A background thread holding it waits in work(): the line it waits at.
    @Test func aBackgroundThreadStillWaiting() throws {
        let s = Self.fetching("""
            function(app, completionHandler)
                dispatch.global(function()
                  work(60)
                  completionHandler("newData")
                end)
              end
            """)
        let v = try #require(missed(s))
        #expect(v.location?.line == 9, "\(v.message)")
        #expect(v.message.contains("the code holding it was still waiting at this line"), "\(v.message)")
    }

    /// A push's completion likewise (the same rule for every completion handler).
    @Test func aPushThatReturnsEarly() throws {
        let s = simulate("""
            app {
              backgroundModes = { "remote-notification" },
              didReceiveRemoteNotification = function(app, userInfo, completionHandler)
                if userInfo.kind ~= "mail" then
                  return
                end
                completionHandler("newData")
              end,
            }
            at(0, user.launch)
            at(1, user.home)
            at(10, function() system.remoteNotification({ kind = "news" }, { contentAvailable = true }) end)
            """)
        let v = try #require(missed(s, "push-no-completion"), "\(s.codes)")
        #expect(v.location?.line == 5, "\(v.message)")
    }
}

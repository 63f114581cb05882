// "Never completed / never ended / held too long" reported where the responsible code stopped
// (issue 39.2), as missed fetch completions already are (WordsTests): a BGTask's missed
// setTaskCompleted names the `return` (or the end) of the code holding the task, with its launch
// handler as context; a background task whose expiration handler returned with it still open
// names the line where that handler returned, with the line that began the task as context.
import LuaFetchCore
import Testing
@testable import LuaFetchScripting

@Suite struct PathLocationTests {
    static func bgTask(_ handler: String, _ before: String = "") -> Sim {
        simulate("""
            \(before)scenario { duration = minutes(10) }
            app {
              backgroundModes = { "fetch" },
              permittedIdentifiers = { "refresh" },
              didFinishLaunching = function(app)
                BGTaskScheduler.register("refresh", \(handler))
                BGTaskScheduler.submit(BGAppRefreshTaskRequest("refresh"))
              end,
            }
            at(0, user.launch)
            at(1, user.home)
            at(5, function() system.launchTask("refresh") end)
            """)
    }

    func violation(_ s: Sim, _ code: String) -> Violation? { s.world.violations.first { $0.code.rawValue == code } }

    /// The error path's `return` in the launch handler (the issue's `return` on line 63).
    @Test func aBGTaskLeftByAnEarlyReturn() throws {
        let s = Self.bgTask("""
            function(task)
                  task.expirationHandler = function() end
                  local ok = false
                  if not ok then
                    return
                  end
                  task:setTaskCompleted(true)
                end
            """)
        let v = try #require(violation(s, "bgtask-no-completion"), "\(s.codes)")
        #expect(v.location?.line == 10, "\(String(describing: v.location)): \(v.message)")
        #expect(v.message.contains("the code holding the task returned at this line without completing it (its launch handler: test.lua:6)"), "\(v.message)")
    }

    /// A callback that holds the task and ends without completing it: its end.
    @Test func aBGTaskHeldByACallback() throws {
        let s = Self.bgTask("""
            function(task)
                  task.expirationHandler = function() print("expired") end
                  after(2, function()
                    print("done", task.identifier)
                  end)
                end
            """)
        let v = try #require(violation(s, "bgtask-no-completion"), "\(s.codes)")
        #expect(v.location?.line == 10, "\(String(describing: v.location)): \(v.message)")
    }

    /// The walkthrough's app (issue 39.2): the launch handler passes a closure holding the task to
    /// a client whose callback calls it with the failure and then returns. The closure's `return`
    /// on the error path is where the code holding the task stopped, not the client's later
    /// `return`, which reaches the task only through that closure. A client that returns without
    /// calling it is still the line named.
    @Test func aBGTaskLeftByTheClosureAHelperCalls() throws {
        let client = """
            local function fetchLatest(completion, answers)
              after(1, function()
                if not answers then
                  return
                end
                completion(false)
                return
              end)
            end

            """
        func refresh(answers: Bool) -> Sim {
            Self.bgTask("""
                function(task)
                      task.expirationHandler = function() end
                      fetchLatest(function(ok)
                        if not ok then
                          return
                        end
                        task:setTaskCompleted(true)
                      end, \(answers))
                    end
                """, client)
        }
        let s = refresh(answers: true)
        let v = try #require(violation(s, "bgtask-no-completion"), "\(s.codes)")
        #expect(v.location?.line == 19, "\(String(describing: v.location)): \(v.message)")
        #expect(v.message.contains("the code holding the task returned at this line without completing it (its launch handler: test.lua:15)"), "\(v.message)")
        let silent = refresh(answers: false)
        let w = try #require(violation(silent, "bgtask-no-completion"), "\(silent.codes)")
        #expect(w.location?.line == 4, "\(String(describing: w.location)): \(w.message)")
    }

    /// Completed on every path: nothing to report, and nothing moves.
    @Test func aCompletedBGTaskIsNotReported() {
        let s = Self.bgTask("function(task) task:setTaskCompleted(true) end")
        #expect(violation(s, "bgtask-no-completion") == nil, "\(s.codes)")
    }

    static func leaking(_ handler: String) -> Sim {
        simulate("""
            scenario { duration = minutes(5) }
            local other = UIBackgroundTaskInvalid
            app {
              didEnterBackground = function(app)
                local id
                id = app:beginBackgroundTask("upload", \(handler))
              end,
            }
            at(0, user.launch)
            at(1, user.home)
            """)
    }

    /// The expiration handler ends the wrong id and returns: it is where the task was left.
    @Test func aTaskLeftByItsExpirationHandler() throws {
        let s = Self.leaking("""
            function()
                  app:endBackgroundTask(other)
                end
            """)
        let expired = try #require(violation(s, "task-expired"), "\(s.codes)")
        #expect(expired.location?.line == 8, "\(String(describing: expired.location)): \(expired.message)")
        #expect(expired.message.contains("(its expiration handler returned at this line without ending it; the task began at test.lua:6)"), "\(expired.message)")
        let handler = try #require(violation(s, "task-not-ended-in-handler"))
        #expect(handler.location?.line == 8)
        #expect(handler.message.contains("returned without ending it at this line (the task began at test.lua:6)"), "\(handler.message)")
        if let held = violation(s, "task-held-too-long") { #expect(held.location?.line == 8) }
    }

    /// A `return` statement in the handler is the line named.
    @Test func aTaskLeftByAReturnInItsHandler() throws {
        let s = Self.leaking("""
            function()
                  if other == UIBackgroundTaskInvalid then return end
                  app:endBackgroundTask(other)
                end
            """)
        #expect(try #require(violation(s, "task-expired")).location?.line == 7)
    }

    /// Without an expiration handler the line that began the task is all there is.
    @Test func aTaskWithoutHandlerNamesItsBegin() throws {
        let s = Self.leaking("nil")
        let expired = try #require(violation(s, "task-expired"), "\(s.codes)")
        #expect(expired.location?.line == 6)
        #expect(!expired.message.contains("expiration handler returned"))
    }
}

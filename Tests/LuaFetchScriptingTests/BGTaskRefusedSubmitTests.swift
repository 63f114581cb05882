// SPEC 13.1: a submit BGTaskScheduler refuses (tooManyPendingTaskRequests, notPermitted,
// unavailable) is the warning bgtask-submit-refused at the submit's line, naming the code, the
// identifier and the pending requests; every refused submit is on the timeline. Uses the
// scripting harness (simulate).
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct BGTaskRefusedSubmitTests {
    @Test func sixRefreshSubmitsAtOnceAreFiveRefusals() {
        let s = simulate("""
        scenario { fetchPolicy = "manual" }
        local feeds = { "news", "sport", "weather", "music", "video", "books" }
        local ids = {}
        for _, f in ipairs(feeds) do ids[#ids + 1] = "feed." .. f end
        app { backgroundModes = { "fetch" }, permittedIdentifiers = ids,
          didFinishLaunching = function()
            for _, id in ipairs(ids) do BGTaskScheduler.register(id, function(task) task:setTaskCompleted(true) end) end
            for _, id in ipairs(ids) do
              local ok, err = BGTaskScheduler.submit(BGAppRefreshTaskRequest(id))
              if not ok then print("refused", id, err) end
            end
          end }
        at(0, user.launch)
        """)
        #expect(s.codes == Array(repeating: "bgtask-submit-refused", count: 5))
        #expect(s.world.violations.allSatisfy { $0.severity == .warning && $0.location?.line == 9 })
        let first = s.world.violations[0].message
        #expect(first.contains("tooManyPendingTaskRequests"))
        #expect(first.contains("feed.sport"))
        #expect(first.contains("pending: feed.news"))
        #expect(s.printed.count == 5)
        // Every refusal is a line of the timeline; the app keeps running.
        #expect(s.world.timeline.filter { $0.kind == .violation && $0.message.contains("refused") }.count == 5)
        #expect(s.world.pendingBGRequests.map(\.identifier) == ["feed.news"])
    }

    @Test func notPermittedAndUnavailableAreRefusalsToo() {
        let s = simulate("""
        scenario { fetchPolicy = "manual" }
        app { backgroundModes = { "fetch" }, permittedIdentifiers = { "a" },
          didFinishLaunching = function()
            BGTaskScheduler.register("a", function(task) task:setTaskCompleted(true) end)
            BGTaskScheduler.submit(BGAppRefreshTaskRequest("zzz"))
            BGTaskScheduler.submit(BGProcessingTaskRequest("a"))
          end }
        at(0, user.launch)
        """)
        #expect(s.codes == ["bgtask-submit-refused", "bgtask-submit-refused"])
        #expect(s.world.violations[0].message.contains("notPermitted") && s.world.violations[0].message.contains("zzz is not in permittedIdentifiers"))
        #expect(s.world.violations[1].message.contains("\"processing\""))
        let off = simulate("""
        scenario { device = { backgroundRefresh = false } }
        app { backgroundModes = { "fetch" }, permittedIdentifiers = { "a" },
          didFinishLaunching = function()
            BGTaskScheduler.register("a", function(task) task:setTaskCompleted(true) end)
            BGTaskScheduler.submit(BGAppRefreshTaskRequest("a"))
          end }
        at(0, user.launch)
        """)
        #expect(off.codes == ["bgtask-submit-refused"])
        #expect(off.world.violations[0].message.contains("unavailable"))
        #expect(off.world.violations[0].location?.line == 5)
    }

    @Test func oneSubmitAndItsResubmitAreClean() {
        let s = simulate("""
        scenario { fetchPolicy = "manual" }
        app { backgroundModes = { "fetch" }, permittedIdentifiers = { "a" },
          didFinishLaunching = function()
            BGTaskScheduler.register("a", function(task) task:setTaskCompleted(true) end)
            BGTaskScheduler.submit(BGAppRefreshTaskRequest("a"))
            BGTaskScheduler.submit(BGAppRefreshTaskRequest("a"))
          end }
        at(0, user.launch)
        """)
        #expect(s.codes.isEmpty)
    }
}

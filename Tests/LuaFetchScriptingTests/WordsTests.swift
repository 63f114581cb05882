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

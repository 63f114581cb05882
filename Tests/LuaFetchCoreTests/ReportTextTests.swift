// What reports do with text they did not write (issue 29): a page's embedded data never holds a
// `<` (so no scenario string ends its <script> or opens a comment in it), and XML and HTML
// escaping replaces every character XML 1.0 cannot carry. Uses HTMLReport only.
import Testing
@testable import LuaFetchCore

@Suite struct ReportTextTests {
    @Test func thePagesDataHasNoLessThanSign() {
        let json = JSON.object([("name", .string("</script><!--<script>")), ("x", .string("a\\<b"))]).text
        let safe = HTMLReport.scriptSafe(json)
        #expect(!safe.contains("<"))
        #expect(safe.contains("\\u003c/script>\\u003c!--\\u003cscript>"))
        #expect(JSON.parse(safe)?["name"]?.stringValue == "</script><!--<script>")
        #expect(JSON.parse(safe)?["x"]?.stringValue == "a\\<b")
    }

    @Test func escapingKeepsOnlyCharactersXMLAllows() {
        #expect(HTMLReport.escape("a\u{FFFE}b\u{FFFF}c") == "a\u{FFFD}b\u{FFFD}c")
        #expect(HTMLReport.escape("\u{1}\u{1B}\u{7}") == "\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(HTMLReport.escape("tab\tnl\ncr\r") == "tab&#9;nl&#10;cr&#13;")
        #expect(HTMLReport.escape("<&>\"'") == "&lt;&amp;&gt;&quot;&apos;")
        #expect(HTMLReport.escape("é \u{10000} \u{FFFD}") == "é \u{10000} \u{FFFD}")
    }
}

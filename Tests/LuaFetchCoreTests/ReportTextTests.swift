// What reports do with text they did not write (issue 29): a page's embedded data never holds a
// `<` (so no scenario string ends its <script> or opens a comment in it), XML and HTML escaping
// replaces every character XML 1.0 cannot carry, and every scenario of `test --html` gets its own
// page file, whatever its path. Uses HTMLReport only.
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

    @Test func everyPathGetsItsOwnPageFile() {
        let paths = ["d/a b.lua", "d/a-b.lua", "d/a/b.lua", "d/a_b.lua", "d/a_b-2.lua", "./d/A_B.lua"]
        let names = HTMLReport.fileNames(for: paths)
        #expect(names == ["d_a_b.html", "d_a-b.html", "d_a_b-3.html", "d_a_b-4.html", "d_a_b-2.html", "d_A_B-5.html"])
        #expect(Set(names.map { $0.lowercased() }).count == names.count)
        #expect(HTMLReport.fileNames(for: ["examples/news.lua"]) == ["examples_news.html"])
        // The same paths give the same names on every run.
        #expect(HTMLReport.fileNames(for: paths) == names)
        // A very long path still makes a valid file name, and two that share their beginning differ.
        let long = String(repeating: "deep/", count: 100)
        let two = HTMLReport.fileNames(for: [long + "a.lua", long + "b.lua"])
        #expect(two.allSatisfy { $0.utf8.count < 200 })
        #expect(two[0] != two[1])
    }
}

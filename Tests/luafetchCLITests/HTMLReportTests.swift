// The HTML pages on the built binary: `run --format html` (one self-contained, deterministic,
// small page; every violation listed and drawn, expected ones marked; the legend; the details a
// click shows, with the scenario line, the Swift line of an imported scenario, the rule and the
// fix; the event list linked both ways with the chart; lanes that fill the window; a tooltip that
// never covers the time axis) and the index pages of `test --html` and `explore --html` (failures
// first, the status and text filters). What a person does is driven in headless Chromium
// (`chromium`, installed by scripts/setup --test when it can be; the browser tests are skipped,
// saying so, without it): a script appended to a copy of the page clicks, types and measures, and
// hands back what it saw. The page's scripts are also checked by `node --check` when node is there.
import Foundation
import Testing

/// The chromium binary, when there is one (scripts/setup --test installs Debian's `chromium`).
func chromiumPath() -> String? {
    for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"] where FileManager.default.isExecutableFile(atPath: p) {
        return p
    }
    return nil
}

/// The DOM headless Chromium (`chromium`) makes of the page at `page` (with `hash` added to its
/// address) once its scripts ran, its exit status and its log (`profile`: a fresh user-data
/// folder; `window`: the window's size).
func chromiumDOM(_ chromium: String, page: URL, profile: URL, hash: String = "", window: String = "1400,900") throws -> (status: Int32, dom: String, log: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    p.arguments = ["120", chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   "--user-data-dir=" + profile.path, "--virtual-time-budget=5000",
                   "--window-size=" + window, "--dump-dom", hash.isEmpty ? page.path : page.absoluteString + hash]
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return (p.terminationStatus, dom, log)
}

/// Opens a copy of `html` in headless Chromium with `script` run after the page's own scripts,
/// and returns what the script put in `result` (a JavaScript object; `result.error` when it threw),
/// and `rendered`/`errors` (the page's own marks). The script can use `click(element)`,
/// `key(name)` (a keydown on the page), `type(input, text)` and `box(element)` (its client rectangle).
func chromiumDrive(_ chromium: String, html: String, script: String, hash: String = "", window: String = "1600,1000") throws -> [String: Any] {
    let dir = try tempDir("drive")
    let page = dir.appendingPathComponent("page.html")
    let prelude = """
        var result = {};
        function click(el) { el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true })); }
        function key(k) { document.body.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true })); }
        function type(input, text) { input.value = text; input.dispatchEvent(new Event("input", { bubbles: true })); }
        function box(el) { var r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, width: r.width }; }
        """
    let driver = """
        <script>(function () {
        \(prelude)
        try {
        \(script)
        } catch (e) { result.error = String(e && e.stack || e); }
        result.rendered = document.body.getAttribute("data-rendered");
        result.errors = document.body.getAttribute("data-errors");
        var p = document.createElement("pre");
        p.id = "luafetch-test";
        p.textContent = btoa(unescape(encodeURIComponent(JSON.stringify(result))));
        document.body.appendChild(p);
        })();</script>
        """
    let body = try #require(html.range(of: "</body>", options: .backwards))
    try html.replacingCharacters(in: body, with: driver + "\n</body>").write(to: page, atomically: true, encoding: .utf8)
    let (status, dom, log) = try chromiumDOM(chromium, page: page, profile: dir.appendingPathComponent("profile"), hash: hash, window: window)
    #expect(status == 0, "\(log.suffix(500))")
    let open = "<pre id=\"luafetch-test\">"
    let encoded = try #require(dom.range(of: open).flatMap { start in dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex).map { dom[start.upperBound..<$0.lowerBound] } },
                               "no result: \(dom.prefix(300)) \(log.suffix(300))")
    let data = try #require(Data(base64Encoded: String(encoded)))
    let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(result["error"] == nil, "\(result["error"] ?? "")")
    #expect(result["rendered"] as? String == "ok")
    #expect(result["errors"] is NSNull, "\(result["errors"] ?? "")")
    return result
}

/// The line `location` (`file:line`, relative to the package root) names.
func sourceLine(_ location: String) throws -> String {
    let colon = try #require(location.lastIndex(of: ":"))
    let n = try #require(Int(location[location.index(after: colon)...]))
    let text = try String(contentsOf: CLI.root.appendingPathComponent(String(location[..<colon])), encoding: .utf8)
    return String(text.split(separator: "\n", omittingEmptySubsequences: false)[n - 1])
}

/// The rule docs/RULES.md gives `code` (its table's last column): what the details show.
func ruleInDocs(_ code: String) throws -> String {
    let docs = try String(contentsOf: CLI.root.appendingPathComponent("docs/RULES.md"), encoding: .utf8)
    let row = try #require(docs.split(separator: "\n").first { $0.hasPrefix("| `\(code)` |") })
    return String(row.split(separator: "|").last!.trimmingCharacters(in: .whitespaces))
}

/// A scenario with an expected violation (task-unknown, named by expect.violation) and an
/// unexpected one (task-expired): the page must tell them apart.
let mixedScenario = """
    scenario { name = "Mixed" }
    app {
      didEnterBackground = function(app)
        app:endBackgroundTask(42)                 -- task-unknown: expected below
        app:beginBackgroundTask("upload", nil)    -- never ended: task-expired
      end,
    }
    at(0, user.launch)
    at(5, user.home)
    expect.violation("task-unknown")

    """

@Suite(.serialized) struct HTMLReportTests {
    @Test func thePageIsDeterministicSelfContainedAndSmall() throws {
        let a = try CLI.run(["run", "examples/twitter.lua", "--format", "html"])
        let b = try CLI.run(["run", "examples/twitter.lua", "--format", "html"])
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.utf8.count < 1_000_000, "\(a.stdout.utf8.count) bytes")
        #expect(a.stdout.hasPrefix("<!DOCTYPE html>"))
        for external in ["<script src", "<link", "url(", "@import", "<img", "<iframe"] {
            #expect(!a.stdout.contains(external), "\(external)")
        }
        // Outside the run's data (whose texts name the scenario's servers), the only URL is the SVG
        // namespace the script creates elements in.
        let open = try #require(a.stdout.range(of: "<script type=\"application/json\" id=\"data\">"))
        let close = try #require(a.stdout.range(of: "</script>", range: open.upperBound..<a.stdout.endIndex))
        let page = String(a.stdout[..<open.upperBound] + a.stdout[close.lowerBound...])
        #expect(page.ranges(of: "http").count == page.ranges(of: "http://www.w3.org/2000/svg").count)
    }

    /// Same input, same bytes: a run's page, every page and the index of `test --html`, and
    /// `explore --html`'s pages and index.
    @Test func everyPageIsByteIdenticalFromRunToRun() throws {
        let dir = try tempDir("same")
        for n in 1...2 {
            let t = try CLI.run(["test", "examples/hello.lua", "examples/leaky_task.lua", "examples/background_mistakes.lua", "--html", dir.path + "/test\(n)"])
            #expect(t.status == 0, "\(t.stdout)")
            let e = try CLI.run(["explore", "examples/explore_me.lua", "--runs", "200", "--html", dir.path + "/explore\(n)"])
            #expect(e.status == 1)
        }
        for kind in ["test", "explore"] {
            let one = dir.appendingPathComponent(kind + "1"), two = dir.appendingPathComponent(kind + "2")
            let files = try FileManager.default.contentsOfDirectory(atPath: one.path).sorted()
            #expect(files == (try FileManager.default.contentsOfDirectory(atPath: two.path).sorted()))
            #expect(files.contains("index.html") && files.count > 2, "\(files)")
            for f in files {
                let a = try Data(contentsOf: one.appendingPathComponent(f)), b = try Data(contentsOf: two.appendingPathComponent(f))
                #expect(a == b, "\(kind)/\(f) differs between two runs")
            }
        }
        let a = try CLI.run(["run", "examples/background_mistakes.lua", "--format", "html"])
        let b = try CLI.run(["run", "examples/background_mistakes.lua", "--format", "html"])
        #expect(a.stdout == b.stdout)
    }

    @Test func everyViolationIsListedWithItsCodeAndLine() throws {
        let r = try CLI.run(["run", "examples/background_mistakes.lua", "--format", "html"])
        let jsonl = try CLI.run(["run", "examples/background_mistakes.lua", "--format", "jsonl"])
        let summary = try #require(try jsonLines(jsonl.stdout).last)
        let violations = try #require(summary["violations"] as? [[String: Any]])
        #expect(!violations.isEmpty)
        for v in violations {
            let code = try #require(v["code"] as? String), line = v["location"] as? String ?? "-"
            #expect(r.stdout.contains("data-violation=\"\(code)\" data-line=\"\(line)\""), "\(code) \(line)")
        }
    }

    /// The legend names every state, budget, lane and mark, and the header says how many
    /// violations were expected; both read without the script.
    @Test func theLegendAndTheHeaderReadWithoutTheScript() throws {
        let r = try CLI.run(["run", "examples/background_mistakes.lua", "--format", "html"])
        let legend = try #require(r.stdout.range(of: "<section id=\"legend\"").flatMap { s in
            r.stdout.range(of: "</section>", range: s.upperBound..<r.stdout.endIndex).map { String(r.stdout[s.lowerBound..<$0.upperBound]) } })
        for words in ["active", "inactive", "background", "suspended", "not running", "background time", "expiration handlers",
                      "deadline", "task, fetch, BGTask, push", "past its deadline", "request", "main thread blocked", "launch",
                      "termination", "user or system action", "expectation held", "expectation failed", "error", "warning", "expected"] {
            #expect(legend.contains(">\(words)"), "the legend lacks \(words)")
        }
        #expect(r.stdout.contains("<span class=\"verdict pass\">PASS (exit 0)</span> <span class=\"counts\">6 violations, all expected</span>"))
        #expect(r.stdout.components(separatedBy: "<span class=\"badge expected\"").count - 1 == 6)
        let mixed = try CLI.run(["run", try CLI.scenario(mixedScenario), "--format", "html"])
        #expect(mixed.status == 1)
        #expect(mixed.stdout.contains("2 violations: 1 unexpected, 1 expected"))
    }

    @Test func testAndExploreWritePages() throws {
        let dir = try tempDir("pages")
        let t = try CLI.run(["test", "examples/hello.lua", "examples/leaky_task.lua", "--html", dir.path + "/test"])
        #expect(t.status == 0)
        let index = try String(contentsOf: dir.appendingPathComponent("test/index.html"), encoding: .utf8)
        #expect(index.contains("href=\"examples_hello.html\"") && index.contains("href=\"examples_leaky_task.html\""))
        #expect(index.contains("3 violations, 3 expected"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("test/examples_leaky_task.html").path))
        let e = try CLI.run(["explore", "examples/explore_me.lua", "--runs", "200", "--html", dir.path + "/explore"])
        #expect(e.status == 1)
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("explore").path)
        #expect(pages.contains("index.html") && pages.contains { $0.hasPrefix("finding-1-") })
        let explored = try String(contentsOf: dir.appendingPathComponent("explore/index.html"), encoding: .utf8)
        #expect(explored.contains("<th>finding</th>") && explored.contains("seen in "))
    }

    /// The index lists failures first (a scenario error, then failed, then passed), each with the
    /// virtual time it covered.
    @Test func theIndexListsFailuresFirstWithTheirVirtualTime() throws {
        let dir = try tempDir("index-order")
        try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("examples/hello.lua"), to: dir.appendingPathComponent("a_hello.lua"))
        try mixedScenario.write(to: dir.appendingPathComponent("b_mixed.lua"), atomically: true, encoding: .utf8)
        try "scenario { name = \"Broken\" }\nlocal x = nil\nx.y = 1\n".write(to: dir.appendingPathComponent("c_broken.lua"), atomically: true, encoding: .utf8)
        let r = try runIn(dir, ["test", ".", "--html", "out"])
        #expect(r.status == 2, "\(r.stdout)")
        let index = try String(contentsOf: dir.appendingPathComponent("out/index.html"), encoding: .utf8)
        let order = ["c_broken.lua", "b_mixed.lua", "a_hello.lua"].map { index.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order[0]! < order[1]! && order[1]! < order[2]!, "failures first")
        #expect(index.contains("data-status=\"scenario-error\"") && index.contains("data-status=\"failed\"") && index.contains("data-status=\"passed\""))
        #expect(index.contains("<td class=\"num\">2m</td>"), "hello covers 2 minutes of virtual time")
        #expect(index.contains("c_broken.lua:3: "))
    }

    /// Headless Chromium renders a violating scenario's page: every violation is a marker, and no
    /// script error happened (the page marks its body `data-rendered="ok"`, `data-errors` if not).
    @Test func chromiumRendersEveryMarkerWithoutErrors() throws {
        guard let chromium = chromiumPath() else {
            print("skipped: no chromium (scripts/setup --test installs Debian's chromium; it could not be installed here)")
            return
        }
        let dir = try tempDir("chromium")
        let page = dir.appendingPathComponent("page.html")
        let r = try CLI.run(["run", "examples/background_mistakes.lua", "--format", "html"])
        try r.stdout.write(to: page, atomically: true, encoding: .utf8)
        let (status, dom, log) = try chromiumDOM(chromium, page: page, profile: dir.appendingPathComponent("profile"))
        #expect(status == 0, "\(log.suffix(500))")
        #expect(dom.contains("data-rendered=\"ok\""), "\(dom.prefix(300))")
        #expect(!dom.contains("data-errors="))
        #expect(!log.contains("Uncaught"))
        let markers = dom.ranges(of: "class=\"marker ").count
        let jsonl = try CLI.run(["run", "examples/background_mistakes.lua", "--format", "jsonl"])
        let violations = (try jsonLines(jsonl.stdout).last?["violations"] as? [[String: Any]])?.count ?? -1
        #expect(markers == violations, "\(markers) markers for \(violations) violations")
    }

    /// Every example's page, and the index pages, render in Chromium without a script error.
    @Test func everyExamplesPageRendersWithoutErrors() throws {
        guard let chromium = chromiumPath() else {
            print("skipped: no chromium (scripts/setup --test installs Debian's chromium; it could not be installed here)")
            return
        }
        let dir = try tempDir("examples-pages")
        var pages: [URL] = []
        for example in CLI.examples.map({ "examples/" + $0 }) {
            let r = try CLI.run(["run", example, "--format", "html"])
            #expect(r.stdout.hasPrefix("<!DOCTYPE html>"), "\(example): \(r.stderr)")
            let page = dir.appendingPathComponent(URL(fileURLWithPath: example).deletingPathExtension().lastPathComponent + ".html")
            try r.stdout.write(to: page, atomically: true, encoding: .utf8)
            pages.append(page)
        }
        _ = try CLI.run(["test", "examples/hello.lua", "examples/leaky_task.lua", "--html", dir.path + "/test"])
        _ = try CLI.run(["explore", "examples/explore_me.lua", "--runs", "100", "--html", dir.path + "/explore"])
        pages += [dir.appendingPathComponent("test/index.html"), dir.appendingPathComponent("explore/index.html")]
        #expect(pages.count >= 12)
        for page in pages {
            let (status, dom, log) = try chromiumDOM(chromium, page: page, profile: dir.appendingPathComponent("profile"))
            #expect(status == 0, "\(page.lastPathComponent): \(log.suffix(300))")
            #expect(dom.contains("data-rendered=\"ok\""), "\(page.lastPathComponent) did not finish rendering")
            #expect(!dom.contains("data-errors="), "\(page.lastPathComponent): \(dom.firstRange(of: "data-errors=").map { String(dom[$0.lowerBound...].prefix(300)) } ?? "")")
            #expect(!log.contains("Uncaught"), "\(page.lastPathComponent): \(log)")
        }
    }

    /// The scripts are real files that parse (node --check, when node is installed) and are the
    /// very scripts the pages carry. The run page's script is three files joined in order
    /// (page.js, page-details.js, page-list.js: HTMLReportAssets), so it is checked as the page
    /// carries it.
    @Test func thePagesScriptsParse() throws {
        let page = try CLI.run(["run", "examples/hello.lua", "--format", "html"]).stdout
        let parts = ["page.js", "page-details.js", "page-list.js"]
        var texts: [String: String] = [:]
        for name in parts + ["index.js", "page.css"] {
            let file = CLI.root.appendingPathComponent("Sources/LuaFetchCore/Reports/Page/" + name)
            texts[name] = try String(contentsOf: file, encoding: .utf8)
            if name != "index.js" { #expect(page.contains(texts[name]!), "the page carries \(name) as it is") }
        }
        let script = parts.map { texts[$0]! }.joined()
        #expect(page.contains("<script>" + script + "</script>"), "the page carries the three parts of its script in order")
        guard let node = ["/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("skipped: no node to check the scripts' syntax (the Chromium tests still run them)")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luafetch-page-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let joined = dir.appendingPathComponent("page.js")
        try script.write(to: joined, atomically: true, encoding: .utf8)
        for (name, file) in [("page.js + page-details.js + page-list.js", joined),
                             ("index.js", CLI.root.appendingPathComponent("Sources/LuaFetchCore/Reports/Page/index.js"))] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: node)
            p.arguments = ["--check", file.path]
            let r = try CLI.collect(p)
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
    }

    /// The legend is shown; expected violations are grey markers and list entries marked
    /// "expected", the others are not.
    @Test func theLegendIsShownAndExpectedViolationsAreMarked() throws {
        guard let chromium = chromiumPath() else {
            print("skipped: no chromium (scripts/setup --test installs Debian's chromium; it could not be installed here)")
            return
        }
        let page = try CLI.run(["run", try CLI.scenario(mixedScenario), "--format", "html"]).stdout
        let r = try chromiumDrive(chromium, html: page, script: """
            var legend = document.getElementById("legend");
            result.legend = box(legend).height;
            result.legendItems = legend.querySelectorAll(".lg").length;
            result.markers = Array.prototype.map.call(document.querySelectorAll("#svg .marker"), function (m) {
              return m.getAttribute("data-violation") + ":" + m.getAttribute("class");
            });
            result.expectedColour = getComputedStyle(document.querySelector("#svg .marker.expected polygon")).fill;
            result.errorColour = getComputedStyle(document.querySelector("#svg .marker.error:not(.expected) polygon")).fill;
            click(document.querySelector("#svg .marker.expected"));
            result.badge = document.querySelector("#detail .badge.expected") ? document.querySelector("#detail .badge.expected").textContent : null;
            result.note = document.querySelector("#detail .note") ? document.querySelector("#detail .note").textContent : null;
            """)
        #expect((r["legend"] as? Double ?? 0) > 10)
        #expect((r["legendItems"] as? Int ?? 0) >= 20)
        let markers = r["markers"] as? [String] ?? []
        #expect(markers.contains("task-unknown:marker warning expected"), "\(markers)")
        #expect(markers.contains("task-expired:marker error"), "\(markers)")
        #expect(r["expectedColour"] as? String != r["errorColour"] as? String)
        #expect(r["badge"] as? String == "expected")
        #expect((r["note"] as? String ?? "").contains("expect.violation"))
    }

    /// A click on a violation's marker shows its details: the code, the scenario line with the
    /// lines around it (the line itself highlighted, as in the file), the rule as docs/RULES.md
    /// states it, and how to fix it.
    @Test func clickingAMarkerShowsTheScenarioLineTheRuleAndTheFix() throws {
        guard let chromium = chromiumPath() else {
            print("skipped: no chromium (scripts/setup --test installs Debian's chromium; it could not be installed here)")
            return
        }
        let jsonl = try jsonLines(try CLI.run(["run", "examples/background_mistakes.lua", "--format", "jsonl"]).stdout)
        let violations = try #require(jsonl.last?["violations"] as? [[String: Any]])
        let page = try CLI.run(["run", "examples/background_mistakes.lua", "--format", "html"]).stdout
        for (i, v) in violations.enumerated() {
            let code = try #require(v["code"] as? String), location = try #require(v["location"] as? String)
            let r = try chromiumDrive(chromium, html: page, script: """
                result.before = document.getElementById("detail").hidden;
                click(document.querySelector('#svg .marker[data-index="\(i)"]'));
                var d = document.getElementById("detail");
                result.hidden = d.hidden;
                result.code = d.querySelector("h3").textContent;
                result.hit = d.querySelector("pre.src span.hit").textContent;
                result.lines = d.querySelectorAll("pre.src span").length;
                result.name = d.querySelector(".srcname").textContent;
                result.rule = d.querySelector(".rule p").textContent;
                result.fix = d.querySelectorAll(".rule p")[1].textContent;
                result.selected = document.querySelectorAll("#svg .marker.selected").length;
                """)
            #expect(r["before"] as? Bool == true)
            #expect(r["hidden"] as? Bool == false)
            #expect(r["code"] as? String == code)
            #expect(r["name"] as? String == location)
            let n = try #require(Int(location.split(separator: ":").last!))
            #expect(r["hit"] as? String == "\(n)" + (try sourceLine(location)), "\(code)")
            #expect((r["lines"] as? Int ?? 0) >= 4, "the line and some around it")
            #expect(r["rule"] as? String == (try ruleInDocs(code)).replacingOccurrences(of: "`", with: ""))
            #expect((r["fix"] as? String ?? "").count > 20)
            #expect(r["selected"] as? Int == 1)
        }
    }

    /// An imported scenario's details name the Swift line a finding came from.
    @Test func theDetailsOfAnImportedScenarioNameTheSwiftLine() throws {
        guard let chromium = chromiumPath() else {
            print("skipped: no chromium (scripts/setup --test installs Debian's chromium; it could not be installed here)")
            return
        }
        let (path, scenario, _) = try ImportCLITests.imported("task_id_property", "buggy")
        try (scenario + "at(61, user.open)\nat(61.5, user.home)\n").write(toFile: path, atomically: true, encoding: .utf8)
        let page = try CLI.run(["run", path, "--format", "html"]).stdout
        let r = try chromiumDrive(chromium, html: page, script: """
            click(document.querySelector('#svg .marker[data-violation="task-expired"]'));
            result.swift = document.querySelector("#detail .swift").textContent;
            result.hit = document.querySelector("#detail pre.src span.hit").textContent;
            """)
        // The expiration handler's end, where the code that left the task open stopped (issue 39.2),
        // shown as the Swift source around it: the Swift files are where --@root says.
        #expect(r["swift"] as? String == "AppDelegate.swift:28")
        #expect((r["hit"] as? String ?? "").hasPrefix("28") && (r["hit"] as? String ?? "").hasSuffix("}"), "\(r["hit"] ?? "")")
        // Without the Swift files (another --@root), the scenario's Lua line as before.
        let moved = scenario.replacingOccurrences(of: "--@root ", with: "--@root /nonexistent/")
        #expect(moved != scenario)
        try (moved + "at(61, user.open)\nat(61.5, user.home)\n").write(toFile: path, atomically: true, encoding: .utf8)
        let lua = try chromiumDrive(chromium, html: try CLI.run(["run", path, "--format", "html"]).stdout, script: """
            click(document.querySelector('#svg .marker[data-violation="task-expired"]'));
            result.hit = document.querySelector("#detail pre.src span.hit").textContent;
            """)
        #expect((lua["hit"] as? String ?? "").contains("--@ AppDelegate.swift:28"), "\(lua["hit"] ?? "")")
    }

    /// The event list and the chart are linked both ways: a row selects its marker or bar and
    /// shows its details; a click in the chart selects the row and scrolls it into view; the arrow
    /// keys step through the events; the list filters by text.
    @Test func theEventListIsLinkedBothWaysWithTheChart() throws {
        guard let chromium = chromiumPath() else {
            print("skipped: no chromium (scripts/setup --test installs Debian's chromium; it could not be installed here)")
            return
        }
        let page = try CLI.run(["run", "examples/twitter.lua", "--format", "html"]).stdout
        let r = try chromiumDrive(chromium, html: page, script: """
            var list = document.getElementById("events");
            function rowVisible(ev) {
              var row = document.getElementById("ev-" + ev);
              if (!row) return false;
              var l = box(list), b = box(row);
              return row.classList.contains("selected") && b.top >= l.top - 1 && b.bottom <= l.bottom + 1;
            }
            result.rows = document.querySelectorAll("#evrows .row").length;
            result.count = document.getElementById("evcount").textContent;
            // A row of the list: its bar is selected in the chart, its details shown.
            var row = Array.prototype.filter.call(document.querySelectorAll("#evrows .row"), function (r) {
              return r.querySelector(".lane").textContent === "api.twitter.test" && r.querySelector(".loc").textContent !== "";
            })[0];
            var ev = Number(row.getAttribute("data-event"));
            click(row);
            result.rowSelects = document.querySelectorAll("#svg .selected-item").length;
            result.rowSelectedLane = document.querySelector("#svg .selected-item").parentNode.getAttribute("data-lane");
            result.rowDetail = !document.getElementById("detail").hidden && document.querySelector("#detail .srcname") !== null;
            result.rowHash = location.hash === "#event=" + ev;
            // The last bar of the fetches lane: its row is far down the list and comes into view.
            var bars = document.querySelectorAll('#svg g[data-lane="fetches"] [data-item]');
            var last = bars[bars.length - 1];
            click(last);
            var selected = document.querySelector("#evrows .row.selected");
            result.barRow = selected ? Number(selected.getAttribute("data-event")) : -1;
            result.barRowVisible = result.barRow >= 0 && rowVisible(result.barRow);
            result.barRowFarDown = list.scrollTop > 1000;
            // The arrow keys move to the next and previous event.
            key("ArrowDown");
            result.down = Number(document.querySelector("#evrows .row.selected").getAttribute("data-event")) - result.barRow;
            key("ArrowUp"); key("ArrowUp");
            result.up = Number(document.querySelector("#evrows .row.selected").getAttribute("data-event")) - result.barRow;
            result.upVisible = rowVisible(result.barRow - 1);
            // The filter keeps matching rows only.
            type(document.getElementById("evfilter"), "noData");
            result.filtered = Array.prototype.every.call(document.querySelectorAll("#evrows .row"), function (r) { return r.textContent.indexOf("noData") >= 0; });
            result.filteredCount = document.getElementById("evcount").textContent;
            """)
        #expect((r["rows"] as? Int ?? 0) > 10)
        #expect(r["count"] as? String == "(765)" || (r["count"] as? String ?? "").hasPrefix("("))
        #expect(r["rowSelects"] as? Int ?? 0 >= 1)
        #expect(r["rowSelectedLane"] as? String == "api.twitter.test")
        #expect(r["rowDetail"] as? Bool == true)
        #expect(r["rowHash"] as? Bool == true)
        #expect((r["barRow"] as? Int ?? -1) > 0)
        #expect(r["barRowVisible"] as? Bool == true)
        #expect(r["barRowFarDown"] as? Bool == true)
        #expect(r["down"] as? Int == 1)
        #expect(r["up"] as? Int == -1)
        #expect(r["upVisible"] as? Bool == true)
        #expect(r["filtered"] as? Bool == true)
        #expect((r["filteredCount"] as? String ?? "").contains(" of "))
    }

    /// In a 1600×1000 window the lanes and the event list fill the height (no empty half window,
    /// no page scroll); lanes grow past their 22-pixel minimum; a marker's tooltip stays below the
    /// time axis; `#event=N` selects entry N.
    @Test func theLanesFillTheWindowAndTheTooltipNeverCoversTheAxis() throws {
        guard let chromium = chromiumPath() else {
            print("skipped: no chromium (scripts/setup --test installs Debian's chromium; it could not be installed here)")
            return
        }
        for example in ["examples/twitter.lua", "examples/background_mistakes.lua"] {
            let page = try CLI.run(["run", example, "--format", "html"]).stdout
            let r = try chromiumDrive(chromium, html: page, script: """
                result.window = window.innerHeight;
                result.bottom = box(document.getElementById("eventlist")).bottom;
                result.scroll = document.documentElement.scrollHeight;
                var lanes = document.querySelectorAll("#svg .lane-bg");
                result.lane = lanes.length ? box(lanes[0]).height : 0;
                result.svg = box(document.getElementById("svg")).height;
                result.main = box(document.getElementById("main")).height;
                var target = document.querySelector("#svg .marker polygon") || document.querySelector("#svg [data-item]");
                var b = box(target);
                target.dispatchEvent(new PointerEvent("pointermove", { bubbles: true, clientX: b.left + b.width / 2, clientY: b.top + b.height / 2 }));
                var tip = document.getElementById("tip");
                result.tipShown = !tip.hidden;
                result.tipTop = box(tip).top;
                result.axisBottom = box(document.getElementById("axis")).bottom;
                result.selected = document.querySelector("#evrows .row.selected") ? document.querySelector("#evrows .row.selected").getAttribute("data-event") : null;
                """, hash: "#event=3")
            let window = r["window"] as? Double ?? 0
            #expect(window >= 800, "\(example)")  // 1000 less the headless window's own bars
            #expect(abs((r["bottom"] as? Double ?? 0) - window) <= 8, "\(example): the event list ends at the window's bottom: \(r)")
            #expect((r["scroll"] as? Double ?? .infinity) <= window + 1, "\(example): the page does not scroll: \(r)")
            #expect((r["lane"] as? Double ?? 0) > 40, "\(example): lanes taller than 40 px: \(r)")
            #expect((r["svg"] as? Double ?? 0) >= 0.6 * (r["main"] as? Double ?? 1) - 40, "\(example): the lanes fill the chart: \(r)")
            #expect(r["tipShown"] as? Bool == true, "\(example)")
            #expect((r["tipTop"] as? Double ?? 0) >= (r["axisBottom"] as? Double ?? .infinity), "\(example): the tooltip covers the axis: \(r)")
            #expect(r["selected"] as? String == "3", "\(example): #event=3 selects entry 3")
        }
    }

    /// The index's filters: typing text hides the entries that do not match; a status button
    /// hides the other statuses; together they can hide everything (and say so).
    @Test func theIndexFiltersByTextAndStatus() throws {
        guard let chromium = chromiumPath() else {
            print("skipped: no chromium (scripts/setup --test installs Debian's chromium; it could not be installed here)")
            return
        }
        let dir = try tempDir("index-filter")
        for name in ["hello", "leaky_task", "background_mistakes"] {
            try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("examples/\(name).lua"), to: dir.appendingPathComponent("\(name).lua"))
        }
        try mixedScenario.write(to: dir.appendingPathComponent("mixed.lua"), atomically: true, encoding: .utf8)
        let t = try runIn(dir, ["test", ".", "--html", "out"])
        #expect(t.status == 1)
        let index = try String(contentsOf: dir.appendingPathComponent("out/index.html"), encoding: .utf8)
        let r = try chromiumDrive(chromium, html: index, script: """
            function visible() {
              return Array.prototype.filter.call(document.querySelectorAll("#entries tbody tr"), function (r) { return !r.hidden && r.offsetHeight > 0; })
                .map(function (r) { return r.querySelector("td.name").textContent; });
            }
            result.all = visible();
            type(document.getElementById("q"), "LEAKY");
            result.text = visible();
            type(document.getElementById("q"), "");
            click(document.querySelector('#status button[data-status="failed"]'));
            result.failed = visible();
            result.pressed = document.querySelector('#status button[data-status="failed"]').getAttribute("aria-pressed");
            type(document.getElementById("q"), "hello");
            result.none = visible();
            result.noneShown = !document.getElementById("none").hidden;
            click(document.querySelector('#status button[data-status="all"]'));
            result.back = visible();
            result.shown = document.getElementById("shown").textContent;
            """, window: "1400,900")
        #expect(r["all"] as? [String] == ["mixed.lua", "background_mistakes.lua", "hello.lua", "leaky_task.lua"], "\(r["all"] ?? "")")
        #expect(r["text"] as? [String] == ["leaky_task.lua"])
        #expect(r["failed"] as? [String] == ["mixed.lua"])
        #expect(r["pressed"] as? String == "true")
        #expect(r["none"] as? [String] == [])
        #expect(r["noneShown"] as? Bool == true)
        #expect(r["back"] as? [String] == ["hello.lua"])
        #expect(r["shown"] as? String == "showing 1 of 4")
    }
}

// The `--format html` report: one self-contained page (no network, no external scripts or fonts)
// that draws a run as swimlanes over virtual time, Instruments-style: the app's states, launches
// and terminations, the background time with its expiration warning and deadline, background tasks,
// fetches, BGTasks, pushes, URL-session events and scenes as bars (red past a deadline), requests
// per server, the person's and the system's actions, expectations, and every violation as a marker
// (`data-violation`, `data-line`; expected ones marked `expected`). Beside the chart a details
// panel, below it the whole timeline as a list, linked both ways; a legend on top. The data is
// compact JSON in the page: lanes, every kept timeline entry with its scenario line
// (`TimelineEntry.location`), the violations with the rule and the fix (`ViolationCode.info` and
// `.fix`, the text report's table), and only the scenario lines a click can show, with a few
// lines around each (read through `ScriptHost.sourceText`). The style and the script are files
// of this target (HTMLReportAssets). Same run, same bytes. Built from TraceReport's shape of the
// timeline. Also the index pages of `test --html` and `explore --html`, and the escaping every
// report shares: `escape` (HTML and XML) and `String.replacingScalars`.

public enum HTMLReport {
    /// The most timeline entries the page keeps (`TimelineKeeping.picture`).
    public static let maxEntries = 200_000
    /// Lines shown before and after a scenario line in the details.
    static let contextLines = 3
    /// A longer source line is cut (with "…") in the page.
    static let maxLineCharacters = 240

    /// The page for a finished run, its summary and verdict as `luafetch run` prints them.
    public static func build(_ world: World, reproduce: String?, coverage: CoverageReport? = nil) -> String {
        let code = world.exitCode
        return build(world, summary: TextReport(world: world, version: "", color: false).summary(world),
                     result: "\(code == 0 ? "PASS" : "FAIL") (exit \(code))", reproduce: reproduce, coverage: coverage)
    }

    // The index pages (`test --html`, `explore --html`) are HTMLReport+Index.swift's.

    // MARK: - The page of a run

    /// One drawn thing of a lane: `[start, end, label, class, deadline, warning, from, to, row]`
    /// (deadline and warning -1 when none; from and to the timeline entries it links, -1 when none;
    /// row the sub-row of a lane whose items overlap).
    struct Item {
        var start: Millis, end: Millis, label: String, cls: String
        var deadline: Millis = -1, warning: Millis = -1, from = -1, to = -1, row = 0
        var json: JSON {
            .array([.int(start), .int(end), .string(label), .string(cls), .int(deadline), .int(warning), .int(from), .int(to), .int(row)])
        }
    }

    /// The lanes and which lane item each timeline entry belongs to: the first item it opened,
    /// else the first it closed (an entry "● background" opens a band and closes the one before).
    struct Lanes {
        var list: [JSON] = []
        var link: [Int: (lane: Int, item: Int, opened: Bool)] = [:]
        /// A lane: `kind` is how it is drawn (state, point, budget, bar), `help` what it shows.
        mutating func add(_ name: String, _ kind: String, _ help: String, _ items: [Item]) {
            guard !items.isEmpty else { return }
            let lane = list.count
            for (i, it) in items.enumerated() {
                if it.from >= 0, link[it.from].map({ !$0.opened }) ?? true { link[it.from] = (lane, i, true) }
                if it.to >= 0, link[it.to] == nil { link[it.to] = (lane, i, false) }
            }
            let rows = (items.map(\.row).max() ?? 0) + 1
            list.append(.object([("name", .string(name)), ("kind", .string(kind)), ("help", .string(help)), ("rows", .int(rows)),
                                 ("items", .array(items.map(\.json)))]))
        }
    }

    /// Bars from slices split into rows that do not overlap.
    static func rows(_ slices: [TraceReport.Slice], _ make: (TraceReport.Slice) -> Item) -> [Item] {
        var out: [Item] = []
        for (r, row) in TraceReport.lanes(slices).enumerated() {
            for s in row {
                var it = make(s)
                it.row = r
                out.append(it)
            }
        }
        return out
    }

    /// The page for a finished run; `summary` are the text report's summary lines.
    public static func build(_ world: World, summary: [String], result: String, reproduce: String?,
                             coverage: CoverageReport? = nil) -> String {
        let shape = TraceReport.shape(world)
        let end = max(world.now, 1)
        var lanes = Lanes()
        // App state bands, and launches and terminations as points with their reasons.
        lanes.add("app", "state", "The app's state: active, inactive, background, suspended; a gap where it was not running.",
                  shape.states.map { Item(start: $0.start, end: $0.end, label: $0.name, cls: "s-" + $0.name, from: $0.from, to: $0.to) })
        var points: [Item] = []
        for (i, e) in world.timeline.enumerated() {
            if case .state(let st)? = e.detail, !e.message.isEmpty, e.message.contains("launched") || st == .notRunning {
                points.append(Item(start: e.time, end: e.time, label: stripDot(e.message), cls: st == .notRunning ? "pt-end" : "pt-launch",
                                   from: i, to: i))
            }
        }
        lanes.add("launches", "point", "Launches (green) and terminations (red), with their reasons.", points)
        lanes.add("scene", "state", "The scene's state (apps with scenes = true).",
                  shape.sceneSlices.map { Item(start: $0.start, end: $0.end, label: $0.name, cls: "s-" + $0.name, from: $0.from, to: $0.to) })
        let warning = world.budgets.expirationWarning
        lanes.add("background time", "budget",
                  "The background time iOS grants: expiration handlers run at the dashed line, the app is terminated at the red deadline if a task is still open.",
                  shape.budgets.map { b in
                      let deadline = intArg(b.args, "deadline_ms") ?? b.end
                      return Item(start: b.start, end: b.end, label: b.name, cls: "budget", deadline: deadline, warning: deadline - warning,
                                  from: b.from, to: b.to)
                  })
        lanes.add("background tasks", "bar", "Each beginBackgroundTask until its endBackgroundTask (red past the deadline of the background time).",
                  rows(shape.tasks) { t in
                      let deadline = shape.budgets.first { b in b.start <= t.end && t.start <= b.end }.flatMap { intArg($0.args, "deadline_ms") }
                      return Item(start: t.start, end: t.end, label: t.name, cls: "bar", deadline: deadline ?? -1, from: t.from, to: t.to)
                  })
        let fetchLimit = world.budgets.fetch ?? 30_000
        lanes.add("fetches", "bar", "Each background fetch until its completion handler was called, against its \(Time.human(fetchLimit)).",
                  rows(shape.fetches) { f in
                      Item(start: f.start, end: f.end, label: f.name + (stringArg(f.args, "result").map { " → \($0)" } ?? ""), cls: "bar",
                           deadline: f.start + fetchLimit, from: f.from, to: f.to)
                  })
        for kind in shape.grantSlices.keys.sorted() {
            lanes.add(TraceReport.laneName(grantKind: kind), "bar", "Each \(kind == "bgtask" ? "BGTask" : kind == "session" ? "delivery of a background URL session's events" : kind) until its completion.",
                      rows(shape.grantSlices[kind]!) { g in
                          Item(start: g.start, end: g.end, label: g.name + (stringArg(g.args, "outcome").map { " → \($0)" } ?? ""), cls: "bar",
                               from: g.from, to: g.to)
                      })
        }
        for host in shape.requests.keys.sorted() {
            lanes.add(host, "bar", "Requests to \(host), from sending to the response (or the error).",
                      rows(shape.requests[host]!) { r in
                          let result = r.args.first { $0.0 == "result" }.map { arg -> String in
                              if case .int(let n) = arg.1 { return String(n) }
                              if case .string(let s) = arg.1 { return s }
                              return "in flight"
                          } ?? "in flight"
                          return Item(start: r.start, end: r.end, label: "\(r.name) → \(result)", cls: "req", from: r.from, to: r.to)
                      })
        }
        lanes.add("main thread blocked", "bar", "When the main thread was blocked (work, a lock, q:sync), and on what.",
                  world.mainBlockSpans.map { Item(start: $0.start, end: $0.end, label: $0.what, cls: "blocked") })
        var actions: [Item] = [], checks: [Item] = []
        for (i, e) in world.timeline.enumerated() {
            if e.kind == .action {
                actions.append(Item(start: e.time, end: e.time, label: "\(e.actor): \(e.message)", cls: "act", from: i, to: i))
            } else if e.kind == .expect {
                checks.append(Item(start: e.time, end: e.time, label: e.message, cls: e.message.hasPrefix("✓") ? "exp-pass" : "exp-fail", from: i, to: i))
            }
        }
        lanes.add("user and system", "point", "What the person and the system did (at, user.*, system.*).", actions)
        lanes.add("expectations", "point", "Expectations, where they were checked: passed (green) or failed (red).", checks)

        // Locations: each distinct scenario line once.
        var locs: [JSON] = [], locIndex: [SourceLocation: Int] = [:]
        func loc(_ l: SourceLocation?) -> Int {
            guard let l else { return -1 }
            if let i = locIndex[l] { return i }
            locIndex[l] = locs.count
            // An imported scenario's line also names its Swift file (as `src` keys it) and line.
            locs.append(.array([.string(l.file), .int(l.line), .opt(l.swift?.description)]
                               + (l.swift.map { [.string(Self.swiftKey($0)), .int($0.line)] } ?? [])))
            return locs.count - 1
        }
        // The violations, with the entry that reported each.
        var entryOf = [Int](repeating: -1, count: world.violations.count)
        for (i, e) in world.timeline.enumerated() { if let v = e.violation, v < entryOf.count, entryOf[v] < 0 { entryOf[v] = i } }
        let expected = world.expectedCodes
        var rules: [(String, JSON)] = [], ruled = Set<ViolationCode>()
        let violations: [JSON] = world.violations.enumerated().map { i, v in
            if ruled.insert(v.code).inserted { rules.append((v.code.rawValue, .array([.string(v.code.info.summary), .string(v.code.fix)]))) }
            let frames = v.traceback.flatMap(TextReport.scenarioFrames).map { JSON.array($0.dropFirst().map { .string(String($0.drop { $0 == " " })) }) }
            return .array([.int(v.time), .string(v.code.rawValue), .string(v.severity.rawValue), .int(loc(v.location)), .string(Violation.joined(v.messageWithoutFix, v.needs)),
                           .opt(v.exceptionCode), .int(expected.contains(v.code) ? 1 : 0), .int(entryOf[i]), frames ?? .null])
        }
        // Every kept timeline entry: [time, kind, actor, text, lane, item, location, violation].
        let events: [JSON] = world.timeline.enumerated().map { i, e in
            let link = lanes.link[i]
            let location = e.violation.flatMap { $0 < world.violations.count ? world.violations[$0].location : nil } ?? e.location
            return .array([.int(e.time), .string(e.kind.rawValue), .string(e.actor), .string(e.violation.map { world.violations[$0].messageWithoutFix } ?? e.message),
                           .int(link?.lane ?? -1), .int(link?.item ?? -1), .int(loc(location)), .int(e.violation ?? -1)])
        }
        let data = JSON.object([
            ("name", .string(world.config.name)), ("os", .string(world.os.rawValue)), ("seed", .int(world.seed)),
            ("end", .int(end)), ("lanes", .array(lanes.list)), ("violations", .array(violations)), ("events", .array(events)),
            ("locs", .array(locs)), ("src", sources(Array(locIndex.keys), world)), ("rules", .object(rules)),
            ("truncated", .int(world.timelineDropped)), ("cov", coverage.map { coverageData($0, world) } ?? .null),
        ]).text
        return page(world: world, data: data, summary: summary, result: result, reproduce: reproduce,
                    coverage: coverage.map(coverageSummary) ?? "")
    }

    // MARK: - Coverage

    /// The page's coverage data, by file: `{lines: [[line, hits], ...], text: [lines] or null,
    /// never: [[line, name], ...]}` (`text` when the file can be read: the scenario and its modules,
    /// and an imported scenario's Swift files where the import ran).
    static func coverageData(_ report: CoverageReport, _ world: World) -> JSON {
        .object(report.files.map { f in
            var text: JSON = .null
            if let bytes = world.host?.sourceText(of: f.path) {
                let source = SourceLines(bytes)
                text = .array(source.lines.indices.map { i in
                    var line = String(source.line(i + 1))
                    if line.count > maxLineCharacters { line = String(line.prefix(maxLineCharacters)) + "…" }
                    return .string(line)
                })
            }
            let never = f.functions.filter { !$0.ran && $0.role.isApp }.map { JSON.array([.int($0.line), .string($0.name)]) }
            return (f.path, .object([("lines", .array(f.lines.map { .array([.int($0.line), .int(Int64(clamping: $0.hits))]) })),
                                     ("text", text), ("never", .array(never))]))
        })
    }

    /// The coverage part of the panel's overview (static: it reads without the script): how many
    /// of the lines that hold code ran, per file, each with a button that shows its source.
    static func coverageSummary(_ report: CoverageReport) -> String {
        func percent(_ a: Int, _ b: Int) -> String { b == 0 ? "–" : "\((a * 100 + b / 2) / b)%" }
        var out = "<div id=\"coverage\"><h2>coverage</h2>"
        out += "<p class=\"meta\">\(report.linesCovered) of \(report.linesValid) lines of code ran (\(percent(report.linesCovered, report.linesValid)))</p><ul id=\"covfiles\">"
        for f in report.files {
            out += "<li data-coverage-file=\"\(escape(f.path))\" data-covered=\"\(f.covered)\" data-lines=\"\(f.lines.count)\">"
            out += "<button type=\"button\" class=\"covfile\" data-file=\"\(escape(f.path))\">\(escape(f.path))</button> "
            out += "<span class=\"meta\">\(f.covered)/\(f.lines.count) · \(percent(f.covered, f.lines.count))</span>"
            let missed = f.lines.filter { $0.hits == 0 }.map(\.line)
            if !missed.isEmpty { out += "<div class=\"never\">never ran: \(escape(ranges(missed)))</div>" }
            out += "</li>"
        }
        return out + "</ul></div>"
    }

    /// `3–5, 9, 12–13`.
    static func ranges(_ lines: [Int]) -> String {
        var parts: [String] = []
        var i = 0
        while i < lines.count {
            var j = i
            while j + 1 < lines.count, lines[j + 1] == lines[j] + 1 { j += 1 }
            parts.append(j == i ? "\(lines[i])" : "\(lines[i])–\(lines[j])")
            i = j + 1
        }
        return parts.joined(separator: ", ")
    }

    /// The scenario lines the page can show, each with `contextLines` around it, as
    /// `{file: [[first line number, [lines]], ...]}` (files and blocks in order; a block per run of
    /// needed lines). Only those lines: a page stays small whatever the scenario's size.
    /// For an imported scenario, the Swift lines too (keyed `swift:` and the path from where the
    /// import ran, `--@root`), when those files are there to read; the page shows them instead.
    static func sources(_ locations: [SourceLocation], _ world: World) -> JSON {
        var wanted: [String: Set<Int>] = [:], paths: [String: String] = [:]
        func want(_ key: String, _ path: String, _ line: Int) {
            paths[key] = path
            for n in max(1, line - contextLines)...(line + contextLines) { wanted[key, default: []].insert(n) }
        }
        for l in locations where l.line > 0 {
            want(l.file, l.file, l.line)
            if let swift = l.swift, swift.line > 0 { want(swiftKey(swift), swift.rootedPath, swift.line) }
        }
        var files: [(String, JSON)] = []
        for file in wanted.keys.sorted() {
            guard let bytes = world.host?.sourceText(of: paths[file] ?? file) else { continue }
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            var blocks: [JSON] = [], first = -1, current: [JSON] = []
            for n in wanted[file]!.sorted() where n <= lines.count {
                if first >= 0 && n != first + current.count { blocks.append(.array([.int(first), .array(current)])); current = [] }
                if current.isEmpty { first = n }
                var text = String(lines[n - 1])
                if text.hasSuffix("\r") { text.removeLast() }
                if text.count > maxLineCharacters { text = String(text.prefix(maxLineCharacters)) + "…" }
                current.append(.string(text))
            }
            if !current.isEmpty { blocks.append(.array([.int(first), .array(current)])) }
            files.append((file, .array(blocks)))
        }
        return .object(files)
    }

    /// The page's key of a Swift file's lines (`src`).
    static func swiftKey(_ swift: SwiftLine) -> String { "swift:" + swift.rootedPath }

    static func intArg(_ args: [(String, JSON)], _ name: String) -> Millis? {
        if case .int(let v)? = args.first(where: { $0.0 == name })?.1 { return Millis(v) }
        return nil
    }

    static func stringArg(_ args: [(String, JSON)], _ name: String) -> String? {
        if case .string(let v)? = args.first(where: { $0.0 == name })?.1 { return v }
        return nil
    }

    /// "● background (launched into the background: backgroundFetch)" → "background (...)".
    static func stripDot(_ s: String) -> String { s.hasPrefix("● ") ? String(s.dropFirst(2)) : s }

    /// HTML and XML text and attribute escaping (the page, and `luafetch test`'s JUnit report):
    /// markup characters and quotes as entities, newline, carriage return and tab as character
    /// references (so attributes keep them), and every character XML 1.0 cannot carry (the other
    /// C0 controls, U+FFFE, U+FFFF) as U+FFFD, the replacement character.
    /// A page's start, up to and with its `<body>`: the document's head (title, the embedded styles).
    static func pageHead(title: String, bodyClass: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>\(escape(title))</title>
        <style>\(HTMLReportAssets.css)</style>
        </head>
        <body class="\(bodyClass)">
        """
    }

    public static func escape(_ s: String) -> String {
        s.replacingScalars { u in
            switch u {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "'": return "&apos;"
            case "\n": return "&#10;"
            case "\r": return "&#13;"
            case "\t": return "&#9;"
            case let c where c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF: return "\u{FFFD}"
            default: return nil
            }
        }
    }

    /// The data as the content of a `<script type="application/json">`: every `<` as the JSON
    /// escape `\u003c`, so no string of the scenario's can end the element (`</script>`) or open a
    /// comment (`<!--` followed by `<script>`, which would make the parser read past the element's
    /// end). Outside strings JSON has no `<`; JSON.parse gives the same data back.
    static func scriptSafe(_ json: String) -> String { json.replacing("<", with: "\\u003c") }

    /// "6 violations, all expected", "2 violations: 1 unexpected, 1 expected", "no violations".
    static func violationCounts(_ world: World) -> String {
        let n = world.violations.count
        guard n > 0 else { return "no violations" }
        let expected = world.expectedCodes
        let e = world.violations.filter { expected.contains($0.code) }.count
        let noun = "\(n) violation\(n == 1 ? "" : "s")"
        if e == 0 { return noun }
        if e == n { return n == 1 ? "\(noun), expected" : "\(noun), all expected" }
        return "\(noun): \(n - e) unexpected, \(e) expected"
    }

    static func page(world: World, data: String, summary: [String], result: String, reproduce: String?, coverage: String = "") -> String {
        let expected = world.expectedCodes
        var list = ""
        for (i, v) in world.violations.enumerated() {
            let line = v.location?.description ?? "-"
            let isExpected = expected.contains(v.code)
            list += "<li class=\"\(v.severity.rawValue)\(isExpected ? " expected" : "")\" data-violation=\"\(escape(v.code.rawValue))\" data-line=\"\(escape(line))\" data-index=\"\(i)\" data-expected=\"\(isExpected)\" tabindex=\"0\">"
            list += "<span class=\"t\">\(escape(Time.stamp(v.time)))</span> <b>\(escape(v.code.rawValue))</b>"
            list += isExpected ? " <span class=\"badge expected\" title=\"an expect.violation in the scenario names this code: it does not fail the run\">expected</span>" : ""
            list += " <span class=\"loc\">\(escape(line))</span>"
            list += "<div class=\"msg\">\(escape(v.message))</div>"
            if let needs = v.needs { list += "<div class=\"msg needs\">\(escape(needs))</div>" }
            list += "</li>\n"
        }
        if world.violations.isEmpty { list = "<li class=\"none\">no violations</li>\n" }
        let passed = result.hasPrefix("PASS")
        let title = "luafetch · \(world.config.name)"
        return """
        \(pageHead(title: title, bodyClass: "run"))
        <header>
        <div class="headline"><h1>\(escape(world.config.name))</h1> <span class="verdict \(passed ? "pass" : "fail")">\(escape(result))</span> <span class="counts">\(escape(violationCounts(world)))</span></div>
        <div class="meta">luafetch · os \(escape(world.os.rawValue)) · seed \(world.seed) · \(escape(Time.human(world.now))) of virtual time</div>
        \(reproduce.map { "<div class=\"reproduce\">reproduce <code>\(escape($0))</code></div>" } ?? "")
        \(world.timelineDropped > 0 ? "<div class=\"meta\">the page keeps the first \(maxEntries) timeline entries: \(world.timelineDropped) later ones are not drawn or listed (the summary counts everything)</div>" : "")
        <details><summary>summary</summary><pre>\(escape(summary.joined(separator: "\n")))</pre></details>
        </header>
        \(legend)
        <div id="work">
        <main id="main">
        <section id="chart" aria-label="timeline">
        <div class="hint">wheel or +/− zoom · drag or ←/→ pan · 0 whole run · ↑/↓ previous/next event · click anything for its details</div>
        <div id="plot"><svg id="axis" aria-hidden="true"></svg><div id="lanesbox"><svg id="svg" role="img" aria-label="the run's lanes over virtual time"></svg></div></div>
        </section>
        </main>
        <section id="eventlist" aria-label="events">
        <div class="listbar"><h2>events <span id="evcount" class="meta"></span></h2>
        <input id="evfilter" type="search" placeholder="filter events ( / )" aria-label="filter events by text" autocomplete="off">
        <select id="evkind" aria-label="filter events by kind"><option value="">every kind</option></select></div>
        <div class="evhead" aria-hidden="true"><span>time</span><span>lane</span><span>event</span><span>scenario line</span></div>
        <div id="events" role="listbox" tabindex="0" aria-label="events in time order"><div id="evrows"></div></div>
        </section>
        <aside id="panel" aria-label="details">
        <div id="overview"><h2>violations</h2><ol id="violations">
        \(list)</ol><p class="hint">Click a marker, a bar or an event for its details, its scenario line and, for a violation, the rule and how to fix it.</p>
        \(coverage)</div>
        <div id="detail" hidden></div>
        </aside>
        </div>
        <div id="tip" role="tooltip" hidden></div>
        <script type="application/json" id="data">\(scriptSafe(data))</script>
        <script>\(HTMLReportAssets.script)</script>
        </body>
        </html>

        """
    }

    /// What every colour and shape means (static: it reads without the script).
    static let legend = """
    <section id="legend" aria-label="legend">
    <span class="lg-group"><span class="lg-title">app states</span><span class="lg"><i class="sw lg-active"></i>active</span><span class="lg"><i class="sw lg-inactive"></i>inactive</span><span class="lg"><i class="sw lg-background"></i>background</span><span class="lg"><i class="sw lg-suspended"></i>suspended</span><span class="lg"><i class="sw lg-gap"></i>not running</span></span>
    <span class="lg-group"><span class="lg-title">budgets</span><span class="lg"><i class="sw lg-budget"></i>background time</span><span class="lg"><i class="ln lg-warn"></i>expiration handlers</span><span class="lg"><i class="ln lg-deadline"></i>deadline</span></span>
    <span class="lg-group"><span class="lg-title">lanes</span><span class="lg"><i class="sw lg-bar"></i>task, fetch, BGTask, push</span><span class="lg"><i class="sw lg-late"></i>past its deadline</span><span class="lg"><i class="sw lg-req"></i>request</span><span class="lg"><i class="sw lg-blocked"></i>main thread blocked</span></span>
    <span class="lg-group"><span class="lg-title">marks</span><span class="lg"><i class="dot lg-launch"></i>launch</span><span class="lg"><i class="dot lg-end"></i>termination</span><span class="lg"><i class="dot lg-act"></i>user or system action</span><span class="lg"><i class="dot lg-exp-pass"></i>expectation held</span><span class="lg"><i class="dot lg-exp-fail"></i>expectation failed</span></span>
    <span class="lg-group"><span class="lg-title">violations</span><span class="lg"><i class="tri lg-error"></i>error</span><span class="lg"><i class="tri lg-warning"></i>warning</span><span class="lg"><i class="tri lg-expected"></i>expected (named by expect.violation: does not fail the run)</span></span>
    </section>
    """
}

extension String {
    /// The string with each scalar for which `replacement` gives a text replaced by that text, the
    /// others kept (scalar by scalar: a `\r\n`, one Character, is two scalars here). The escaping
    /// of reports, annotations and the test runner's lines.
    public func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for u in unicodeScalars {
            if let r = replacement(u) { out += r } else { out.unicodeScalars.append(u) }
        }
        return out
    }
}

// The `--format html` report: one self-contained page (no network, no external scripts or fonts)
// that draws the run as swimlanes over virtual time: the app's states as coloured bands with
// launches and terminations, the background time with its expiration warning and deadline, each
// background task as a bar (red past its deadline), fetches against their 30 s, BGTasks, pushes,
// URL-session events and scenes, requests per server, the person's and the system's actions, and
// every violation as a marker (`data-violation`, `data-line`) listed beside the chart. The data
// is compact JSON in the page; a small script (HTMLReportAssets) draws SVG, with zoom and pan.
// Same run, same bytes. Built from TraceReport's shape of the timeline. Also the escaping every
// report shares: `escape` (HTML and XML) and `String.replacingScalars`.

public enum HTMLReport {
    /// The most timeline entries the page keeps (`TimelineKeeping.picture`).
    public static let maxEntries = 200_000

    /// The page for a finished run, its summary and verdict as `luafetch run` prints them.
    public static func build(_ world: World, reproduce: String?) -> String {
        let code = world.exitCode
        return build(world, summary: TextReport(world: world, version: "", color: false).summary(world),
                     result: "\(code == 0 ? "PASS" : "FAIL") (exit \(code))", reproduce: reproduce)
    }

    /// An index page linking pages: (title, file, passed, note).
    public static func index(title: String, _ pages: [(title: String, file: String, passed: Bool, note: String)]) -> String {
        var rows = ""
        for p in pages {
            rows += "<li class=\"\(p.passed ? "pass" : "fail")\"><a href=\"\(escape(p.file))\">\(escape(p.title))</a> <span class=\"msg\">\(escape(p.note))</span></li>\n"
        }
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><meta name="color-scheme" content="light dark"><title>\(escape(title))</title>
        <style>\(HTMLReportAssets.css) ul.index{list-style:none;padding:0 16px} ul.index li{padding:6px;margin:4px 0;border-left:3px solid var(--active);background:var(--panel)}
        ul.index li.fail{border-color:var(--error)} a{color:inherit;font-weight:600}</style></head>
        <body><header><h1>\(escape(title))</h1><div class="meta">\(pages.filter(\.passed).count) passed, \(pages.filter { !$0.passed }.count) failed</div></header>
        <ul class="index">
        \(rows)</ul>
        </body>
        </html>

        """
    }

    /// A file name for a page from a path, without `.html`: `examples/news.lua` → `examples_news`
    /// (letters, digits, `-` and `_` kept, anything else `_`; a name past 160 bytes is cut and ends
    /// with a hash of the whole path, so it stays a valid file name). Different paths can give the
    /// same base (`a_b.lua`, `a/b.lua`, `a b.lua`): `fileNames` tells them apart.
    static func baseName(for path: String) -> String {
        var name = path.hasSuffix(".lua") ? String(path.dropLast(4)) : path
        while name.hasPrefix("./") { name.removeFirst(2) }
        let base = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        guard base.utf8.count > 160 else { return base }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a of the whole path
        for b in path.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(base.prefix(160)) + "-" + String(hash, radix: 16)
    }

    /// The page file of each path (`luafetch test --html`), all different, even on a file system
    /// that ignores case: `examples/news.lua` → `examples_news.html`; paths that give the same name
    /// get `-2`, `-3`, ... in the order given (sorted paths: a stable order), never a name that
    /// another path gives by itself.
    public static func fileNames(for paths: [String]) -> [String] {
        let bases = paths.map(baseName(for:))
        let natural = Set(bases.map { $0.lowercased() })
        var used = Set<String>()
        return bases.map { base in
            var name = base
            var n = 1
            while used.contains(name.lowercased()) || (n > 1 && natural.contains(name.lowercased())) {
                n += 1
                name = "\(base)-\(n)"
            }
            used.insert(name.lowercased())
            return name + ".html"
        }
    }

    /// The page for a finished run; `summary` are the text report's summary lines.
    public static func build(_ world: World, summary: [String], result: String, reproduce: String?) -> String {
        let shape = TraceReport.shape(world)
        let end = max(world.now, 1)
        var lanes: [JSON] = []
        func lane(_ name: String, _ kind: String, _ items: [JSON]) {
            guard !items.isEmpty else { return }
            lanes.append(.object([("name", .string(name)), ("kind", .string(kind)), ("items", .array(items))]))
        }
        // App state bands, and launches and terminations as points with their reasons.
        lane("app", "state", shape.states.map { s in .array([.int(s.start), .int(s.end), .string(s.name)]) })
        var points: [JSON] = []
        for e in world.timeline {
            if case .state(let st)? = e.detail, !e.message.isEmpty {
                if e.message.contains("launched") || st == .notRunning {
                    points.append(.array([.int(e.time), .string(st == .notRunning ? "end" : "launch"), .string(stripDot(e.message))]))
                }
            }
        }
        lane("launches", "point", points)
        if !shape.sceneSlices.isEmpty { lane("scene", "state", shape.sceneSlices.map { .array([.int($0.start), .int($0.end), .string($0.name)]) }) }
        // Background time: [start, deadline, warning at, label].
        let warning = world.budgets.expirationWarning
        lane("background time", "budget", shape.budgets.map { b in
            let deadline = intArg(b.args, "deadline_ms") ?? b.end
            return .array([.int(b.start), .int(b.end), .int(deadline), .int(deadline - warning), .string(b.name)])
        })
        // Tasks: [start, end, label, deadline or -1]: the deadline of the background time they overlap.
        for (i, l) in TraceReport.lanes(shape.tasks).enumerated() {
            lane(i == 0 ? "tasks" : "tasks \(i + 1)", "bar", l.map { t in
                let deadline = shape.budgets.first { b in b.start <= t.end && t.start <= b.end }.flatMap { intArg($0.args, "deadline_ms") }
                return .array([.int(t.start), .int(t.end), .string(t.name), .int(deadline ?? -1)])
            })
        }
        let fetchLimit = world.budgets.fetch ?? 30_000
        for (i, l) in TraceReport.lanes(shape.fetches).enumerated() {
            lane(i == 0 ? "fetches" : "fetches \(i + 1)", "bar", l.map { f in
                .array([.int(f.start), .int(f.end), .string(f.name + (stringArg(f.args, "result").map { " → \($0)" } ?? "")), .int(f.start + fetchLimit)])
            })
        }
        for kind in shape.grantSlices.keys.sorted() {
            for (i, l) in TraceReport.lanes(shape.grantSlices[kind]!).enumerated() {
                let plural = kind == "push" ? "pushes" : kind == "bgtask" ? "BGTasks" : kind == "session" ? "URL-session events" : "\(kind)s"
                lane(i == 0 ? plural : "\(plural) \(i + 1)", "bar", l.map { g in
                    .array([.int(g.start), .int(g.end), .string(g.name + (stringArg(g.args, "outcome").map { " → \($0)" } ?? "")), .int(-1)])
                })
            }
        }
        for host in shape.requests.keys.sorted() {
            for (i, l) in TraceReport.lanes(shape.requests[host]!).enumerated() {
                lane(i == 0 ? host : "\(host) \(i + 1)", "request", l.map { r in
                    let result = r.args.first { $0.0 == "result" }.map { arg -> String in
                        if case .int(let n) = arg.1 { return String(n) }
                        if case .string(let s) = arg.1 { return s }
                        return "in flight"
                    } ?? "in flight"
                    return .array([.int(r.start), .int(r.end), .string("\(r.name) → \(result)"), .int(-1)])
                })
            }
        }
        lane("main thread blocked", "bar", world.mainBlockSpans.map { b in .array([.int(b.start), .int(b.end), .string(b.what), .int(-1)]) })
        let actions = world.timeline.filter { $0.kind == .action }.map { e -> JSON in
            .array([.int(e.time), .string(e.actor), .string(e.message)])
        }
        lane("user and system", "action", actions)
        let violations: [JSON] = world.violations.map { v in
            .array([.int(v.time), .string(v.code.rawValue), .string(v.severity.rawValue), .opt(v.location?.description),
                    .string(v.message), .opt(v.exceptionCode)])
        }
        let data = JSON.object([
            ("name", .string(world.config.name)), ("os", .string(world.os.rawValue)), ("seed", .int(world.seed)),
            ("end", .int(end)), ("lanes", .array(lanes)), ("violations", .array(violations)),
            ("truncated", .int(world.timelineDropped)),
        ]).text
        return page(world: world, data: data, summary: summary, result: result, reproduce: reproduce)
    }

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

    static func page(world: World, data: String, summary: [String], result: String, reproduce: String?) -> String {
        var list = ""
        for (i, v) in world.violations.enumerated() {
            let line = v.location?.description ?? "-"
            list += "<li class=\"\(v.severity.rawValue)\" data-violation=\"\(escape(v.code.rawValue))\" data-line=\"\(escape(line))\" data-index=\"\(i)\" tabindex=\"0\">"
            list += "<span class=\"t\">\(escape(Time.stamp(v.time)))</span> <b>\(escape(v.code.rawValue))</b> <span class=\"loc\">\(escape(line))</span>"
            list += "<div class=\"msg\">\(escape(v.message))</div></li>\n"
        }
        if world.violations.isEmpty { list = "<li class=\"none\">no violations</li>\n" }
        let title = "luafetch · \(world.config.name)"
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>\(escape(title))</title>
        <style>\(HTMLReportAssets.css)</style>
        </head>
        <body>
        <header>
        <h1>\(escape(world.config.name))</h1>
        <div class="meta">luafetch · os \(escape(world.os.rawValue)) · seed \(world.seed) · \(escape(Time.human(world.now))) of virtual time</div>
        <div class="result \(result.hasPrefix("PASS") ? "pass" : "fail")">\(escape(result))</div>
        \(reproduce.map { "<div class=\"reproduce\">reproduce <code>\(escape($0))</code></div>" } ?? "")
        <details><summary>summary</summary><pre>\(escape(summary.joined(separator: "\n")))</pre></details>
        </header>
        <main>
        <section id="chart" aria-label="timeline"><div class="hint">wheel or +/− to zoom · drag or ←/→ to pan · 0 to show everything · click a marker</div><svg id="svg" role="img"></svg><div id="detail" hidden></div></section>
        <aside><h2>violations</h2><ol id="violations">
        \(list)</ol></aside>
        </main>
        <script type="application/json" id="data">\(scriptSafe(data))</script>
        <script>\(HTMLReportAssets.script)</script>
        </body>
        </html>

        """
    }
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

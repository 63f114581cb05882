// The index pages of the HTML report (`test --html`, `explore --html`): one entry per scenario
// or finding with its result and a link to its own page, and the pages' file names (unique,
// readable, from the scenarios' paths). Uses HTMLReport's head, escaping and Page/'s style and
// index.js; reads nothing of the World.

extension HTMLReport {
    // MARK: - Index pages

    /// One entry of an index page (`test --html`, `explore --html`).
    public struct IndexEntry: Sendable {
        /// In the order the index shows them: what failed first.
        public enum Status: String, Sendable, CaseIterable {
            /// `test`: the scenario could not run (exit 2).
            case scenarioError = "scenario-error"
            /// `test`: an unexpected error-level violation or a failed expectation.
            case failed
            /// `explore`: a finding of error level, and of warning level.
            case error, warning
            case passed
            var label: String { self == .scenarioError ? "scenario error" : rawValue }
        }
        public var title: String
        /// The page, relative to the index (nil: none was written).
        public var file: String?
        public var status: Status
        /// What failed, or why it passed.
        public var note: String
        /// The virtual time the run covered.
        public var virtualTime: Millis?
        /// Counts and the like: "3 violations, 3 expected", "seen in 12 runs".
        public var details: String
        public init(title: String, file: String?, status: Status, note: String, virtualTime: Millis?, details: String = "") {
            self.title = title; self.file = file; self.status = status; self.note = note
            self.virtualTime = virtualTime; self.details = details
        }
    }

    /// An index page linking pages: failures first (in `Status` order; the given order within
    /// each), with a filter by status and by text. `entryName` heads the entries' column.
    public static func index(title: String, entryName: String = "scenario", _ entries: [IndexEntry]) -> String {
        let order = IndexEntry.Status.allCases
        let sorted = entries.enumerated().sorted { a, b in
            let sa = order.firstIndex(of: a.element.status)!, sb = order.firstIndex(of: b.element.status)!
            return (sa, a.offset) < (sb, b.offset)
        }.map(\.element)
        var rows = ""
        for e in sorted {
            let name = e.file.map { "<a href=\"\(escape($0))\">\(escape(e.title))</a>" } ?? escape(e.title)
            let search = [e.title, e.status.label, e.note, e.details].joined(separator: " ").lowercased()
            rows += "<tr class=\"\(e.status.rawValue)\" data-status=\"\(e.status.rawValue)\" data-text=\"\(escape(search))\">"
            rows += "<td><span class=\"badge \(e.status.rawValue)\">\(escape(e.status.label))</span></td>"
            rows += "<td class=\"name\">\(name)</td>"
            rows += "<td class=\"num\">\(e.virtualTime.map { escape(Time.human($0)) } ?? "–")</td>"
            rows += "<td>\(escape(e.details))</td><td class=\"msg\">\(escape(e.note))</td></tr>\n"
        }
        var buttons = "<button type=\"button\" data-status=\"all\" aria-pressed=\"true\">all <span class=\"n\">\(entries.count)</span></button>"
        var counts: [String] = []
        for s in order {
            let n = entries.filter { $0.status == s }.count
            guard n > 0 else { continue }
            buttons += "<button type=\"button\" data-status=\"\(s.rawValue)\" aria-pressed=\"false\"><span class=\"badge \(s.rawValue)\">\(escape(s.label))</span> <span class=\"n\">\(n)</span></button>"
            counts.append("\(n) \(s.label)")
        }
        return """
        \(pageHead(title: title, bodyClass: "index"))
        <header><h1>\(escape(title))</h1><div class="meta">\(escape(counts.isEmpty ? "nothing to show" : counts.joined(separator: " · ")))</div></header>
        <div class="filters" role="search">
        <input id="q" type="search" placeholder="filter by name, code or message" aria-label="filter by text" autocomplete="off">
        <div id="status" role="group" aria-label="filter by status">\(buttons)</div>
        <span id="shown" class="meta" aria-live="polite"></span>
        </div>
        <table id="entries">
        <thead><tr><th>status</th><th>\(escape(entryName))</th><th class="num">virtual time</th><th>details</th><th>what happened</th></tr></thead>
        <tbody>
        \(rows)</tbody>
        </table>
        <p id="none" class="meta" hidden>No entry matches the filter.</p>
        <script>\(HTMLReportAssets.indexScript)</script>
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

}

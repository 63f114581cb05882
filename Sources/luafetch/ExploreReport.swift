// Explore's report: the text and JSON Lines (schema luafetch.explore/3) forms of the findings and,
// when the runs recorded coverage, of the app's functions that never ran (with `coverage` records
// of every file), and `--merge`, which reads the JSON Lines of shards back into one report. A
// single unguided run and the merge of its shards print the same bytes: both print an
// ExploreReport built from the same records. Uses LuaFetchCore's JSON and CoverageReport and
// LuaFetchScripting's ExploreFindings.
import LuaFetchCore
import LuaFetchScripting

struct ExploreReport {
    static let schema = "luafetch.explore/3"

    var file: String
    var name: String
    /// The profile the runs used, and the `--os` given (the replay command repeats it).
    var os: OSProfile
    var osOption: OSProfile?
    var seedFrom: Int64
    /// All the runs of the exploration (a shard runs every M-th of them).
    var runs: Int
    var shard: Shard?
    /// `--time` as given (the header says which seeds it ran).
    var timeBudget: String?
    var findings: ExploreFindings
    /// The scenario's stubs draw (an imported scenario): replays add `--stub-draws explore`.
    var stubDraws = false
    /// `--stub-failures` (replays repeat it when it is not the default).
    var stubFailures = StubFailures.one
    /// Whether the runs were guided by coverage (ExploreGuide).
    var guided = false
    /// What the runs covered, when they recorded it (guided, or --coverage).
    var coverage: CoverageReport?

    // MARK: - Text

    func print(format: OutputFormat) {
        switch format {
        case .text, .html: for line in text { Output.line(line) }
        case .jsonl: for line in jsonl { Output.line(line) }
        }
    }

    var seedsText: String {
        let last = seedFrom + Int64(runs - 1)
        var t = "seeds \(seedFrom)–\(last) · \(runs) run\(runs == 1 ? "" : "s")"
        if let shard { t += " (shard \(shard.index)/\(shard.count): every \(shard.count == 1 ? "" : "\(shard.count)th ")seed from \(seedFrom + Int64(shard.index - 1)))" }
        if let timeBudget { t += " in the time budget of \(timeBudget) (--runs \(runs) reproduces them)" }
        return t
    }

    var text: [String] {
        var out = ["luafetch \(luafetchVersion) · explore \"\(name)\" · os \(os.rawValue) · \(seedsText)"]
        let ranked = findings.ranking
        let roots = ranked.roots
        let errors = roots.filter { ranked.severity($0) == .error }.count
        if roots.isEmpty {
            out.append("nothing found")
        } else {
            var counts: [String] = []
            if errors > 0 { counts.append("\(errors) error\(errors == 1 ? "" : "s")") }
            if roots.count > errors { counts.append("\(roots.count - errors) warning\(roots.count - errors == 1 ? "" : "s")") }
            // An error that came after a warning in the same runs is listed under it: the count
            // says so, so a header of warnings never hides one (README's upload.lua: its
            // task-expired followed each task-unknown).
            let warnedBefore = roots.filter { r in
                ranked.severity(r) != .error
                    && (ranked.caused[r] ?? []).contains { c in (ranked.members[c.id] ?? []).contains { $0.first.severity == .error } }
            }.count
            if warnedBefore > 0 { counts.append("an error after \(warnedBefore) of them") }
            out.append("\(roots.count) finding\(roots.count == 1 ? "" : "s") (\(counts.joined(separator: ", ")))")
        }
        for line in roots {
            guard let group = findings.lines[line], let head = ranked.headline(line) else { continue }
            // What the replay shows (its message's times and numbers, and the stub failure its run
            // took, as `luafetch run` prints them), else what the run showed.
            let o = head.replayed ?? head.first
            out.append("")
            out.append("\(mark(o.severity)) \(o.code) [\([o.severity.rawValue, o.exception].compactMap { $0 }.joined(separator: ", "))] \(o.location ?? "-")")
            out.append("  \(o.messageAndNeeds)")
            out.append("  in \(group.runs) of \(runs) runs (\(share(group.runs))), first at seed \(group.seed)")
            let others = (ranked.members[line] ?? []).dropFirst()
            if !others.isEmpty {
                out.append("  with it at this line: " + others.map { "\(mark($0.first.severity)) \($0.first.code) (\(count($0.runs)))" }.joined(separator: ", "))
            }
            let caused = ranked.caused[line] ?? []
            if !caused.isEmpty {
                out.append("  and after it, in the same runs:")
                for c in caused {
                    let codes = (ranked.members[c.id] ?? []).map { "\(mark($0.first.severity)) \($0.first.code)" }.joined(separator: ", ")
                    out.append("    \(codes) \(c.id) (\(count(c.runs)))")
                }
            }
            if let m = head.minimal {
                if m.actions.isEmpty {
                    out.append(m.order == 0 ? "  the scenario alone produces it (no action needed)"
                                            : "  the scenario alone produces it in the other order (--order \(m.order))")
                } else {
                    let n = head.schedule.actions.count
                    out.append("  minimal schedule (\(m.actions.count) of \(n) action\(n == 1 ? "" : "s")\(m.order == 0 ? "" : ", --order \(m.order)")), as a scenario fragment:")
                    for a in m.actions { out.append("    \(a.luaLine)") }
                }
                out.append("  replay   \(replay(head) ?? "")")
            } else {
                out.append("  its run's schedule did not replay outside explore (an action fell in the same millisecond as the app's own work): explore --seed-from \(head.seed) --runs 1 shows it again")
            }
        }
        if let coverage {
            let never = coverage.neverRunText(runs: runs)
            if !never.isEmpty { out.append(""); out += never }
        }
        out.append("")
        out.append("result     \(roots.isEmpty ? "NOTHING FOUND (exit 0)" : "FOUND (exit 1)")")
        return out
    }

    func mark(_ s: Severity) -> String { s == .error ? "✗" : "⚠" }
    func count(_ n: Int) -> String { "\(n) run\(n == 1 ? "" : "s")" }

    /// `12.5%` of the runs, with one decimal (integers only).
    func share(_ n: Int) -> String {
        let tenths = (n * 1000 + runs / 2) / max(1, runs)
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// The replay command of a finding's headline (nil when it has no minimal schedule). A
    /// warning's replay carries `--strict`: run passes warnings, and the replay must end as explore
    /// did, FAIL (exit 1), with the finding's message at its line (docs/EXPLORE.md, "The replay").
    func replay(_ head: FindingRecord) -> String? {
        head.minimal.map { replay(head.seed, $0, strict: head.first.severity == .warning) }
    }

    func replay(_ seed: Int64, _ s: Schedule, strict: Bool = false) -> String {
        var parts = ["luafetch", "run", shellQuote(file), "--seed", String(seed)]
        if let osOption { parts += ["--os", osOption.rawValue] }
        if let until = s.until { parts += ["--until", Time.secondsText(until)] }
        parts.append("--settle")
        if !s.actions.isEmpty { parts += ["--inject", shellQuote(s.injectText)] }
        if s.order != 0 { parts += ["--order", String(s.order)] }
        if stubDraws { parts += ["--stub-draws", "explore"] }
        if stubDraws, stubFailures != .one { parts += ["--stub-failures", stubFailures.rawValue] }
        if strict { parts.append("--strict") }
        return parts.joined(separator: " ")
    }

    // MARK: - JSON Lines

    var jsonl: [String] {
        var out: [String] = []
        out.append(JSON.object([
            ("type", .string("header")), ("schema", .string(Self.schema)), ("version", .string(luafetchVersion)),
            ("scenario", .string(name)), ("file", .string(file)), ("os", .string(os.rawValue)), ("osOption", .opt(osOption?.rawValue)),
            ("seedFrom", .int(seedFrom)), ("runs", .int(runs)),
            ("shard", .opt(shard.map { "\($0.index)/\($0.count)" })), ("timeBudget", .opt(timeBudget)),
            ("guide", .bool(guided)), ("coverage", .bool(coverage != nil)),
        ] + (stubDraws ? [("stubDraws", JSON.bool(true))] : [])
          + (stubFailures != .one ? [("stubFailures", JSON.string(stubFailures.rawValue))] : [])).text)
        let ranked = findings.ranking
        let causes = ranked.causedBy
        let roots = Set(ranked.roots)
        for group in ranked.allLines {
            let root = roots.contains(group.id)
            let head = ranked.headline(group.id)
            let members: [JSON] = (ranked.members[group.id] ?? []).map { m in
                // What a single run reports is shrunk; a shard keeps every observation's shrinking.
                // Its `needs` is its first's (the shown run's: FindingRecord).
                let shown = shard != nil || (root && m.id == head?.id)
                return .object(Self.observation(m.first) + [
                    ("runs", .int(m.runs)), ("seed", .int(m.seed)), ("schedule", Self.json(m.schedule)),
                    ("preceded", .array(m.preceded.sorted().map(JSON.string))),
                    ("shrunk", .bool(shown && m.shrunk)), ("minimal", shown ? m.minimal.map(Self.json) ?? .null : .null),
                ] + (shown ? m.replayed.map { [("replayed", JSON.object(Self.observation($0) + [("t", .int($0.time))]))] } ?? [] : []))
            }
            out.append(JSON.object([
                ("type", .string("finding")), ("line", .string(group.id)), ("severity", .string(ranked.severity(group.id).rawValue)),
                ("root", .bool(root)), ("causedBy", .opt(causes[group.id])),
                ("runs", .int(group.runs)), ("share", .string(share(group.runs))), ("seed", .int(group.seed)),
                ("schedule", Self.json(group.schedule)), ("preceded", .array(group.preceded.sorted().map(JSON.string))),
                ("first", .object(Self.observation(group.first))),
                ("headline", .opt(head?.id)),
                ("replay", root ? .opt(head.flatMap(replay)) : .null),
                ("members", .array(members)),
            ] + (group.needs.map { [("needs", JSON.string($0))] } ?? [])).text)
        }
        if let coverage {
            for r in coverage.records { out.append(r.text) }
            for f in coverage.neverRun {
                out.append(JSON.object([("type", .string("neverRun")), ("location", .string(f.location)), ("scenarioLine", .opt(f.scenarioLine)),
                                        ("name", .string(f.name)), ("role", .string(f.role.key)), ("inside", .int(f.inside)),
                                        ("reachedBy", .string(f.hint))]).text)
            }
        }
        let errors = ranked.roots.filter { ranked.severity($0) == .error }.count
        out.append(JSON.object([("type", .string("summary")), ("runs", .int(runs)), ("findings", .int(roots.count)),
                                ("errors", .int(errors)), ("warnings", .int(roots.count - errors)),
                                ("exit", .int(roots.isEmpty ? 0 : 1))]).text)
        return out
    }

    /// An observation as run's JSON Lines give a violation: the message, and `needs` when its run
    /// took a stub failure before it.
    static func observation(_ o: Observation) -> [(String, JSON)] {
        [("key", .string(o.key)), ("code", .string(o.code)), ("severity", .string(o.severity.rawValue)),
         ("location", .opt(o.location)), ("exception", .opt(o.exception)), ("message", .string(o.message))]
            + (o.needs.map { [("needs", JSON.string($0))] } ?? [])
    }

    static func observation(_ j: JSON?) -> Observation? {
        guard let j, let key = j["key"]?.stringValue, let code = j["code"]?.stringValue,
              let severity = j["severity"]?.stringValue.flatMap(Severity.init(rawValue:)), let message = j["message"]?.stringValue else { return nil }
        return Observation(key: key, code: code, severity: severity, location: j["location"]?.stringValue,
                           message: message, exception: j["exception"]?.stringValue, time: j["t"]?.intValue ?? 0,
                           needs: j["needs"]?.stringValue)
    }

    /// A record of either level from its JSON (`id`: the key or the line).
    static func record(_ j: JSON, id: String?, first: Observation?) -> FindingRecord? {
        guard let id, let first, let runs = j["runs"]?.intValue, let seed = j["seed"]?.intValue, let sched = schedule(j["schedule"]),
              let preceded = j["preceded"]?.arrayValue?.compactMap(\.stringValue) else { return nil }
        var shrunk = false
        if case .bool(true)? = j["shrunk"] { shrunk = true }
        var r = FindingRecord(id: id, first: first, runs: Int(runs), seed: seed, schedule: sched, preceded: Set(preceded),
                              minimal: schedule(j["minimal"]), shrunk: shrunk)
        r.replayed = observation(j["replayed"])
        r.needs = j["needs"]?.stringValue
        r.first.needs = r.needs  // the shown run's (FindingRecord)
        return r
    }

    static func json(_ s: Schedule) -> JSON {
        .object([("inject", .string(s.injectText)), ("order", .string(String(s.order))), ("until", s.until.map { .int($0) } ?? .null)])
    }

    static func schedule(_ j: JSON?) -> Schedule? {
        guard let j, let inject = j["inject"]?.stringValue, let order = j["order"]?.stringValue.flatMap({ UInt64($0) }),
              case .success(let actions) = InjectedAction.parse(inject) else { return nil }
        return Schedule(actions: actions, order: order, until: j["until"]?.intValue)
    }

    // MARK: - Merge

    struct Problem: Error { var message: String }

    /// `--merge`: folds the shards' JSON Lines (each `explore --shard K/M --format jsonl`), one file
    /// at a time, into one report. The files are untrusted input: every number is checked before it
    /// is used (runs and seeds within what explore makes, a finding's runs within its shard's seeds,
    /// each line and observation once per shard), and a problem is `FILE:LINE: message`.
    struct Merge {
        private(set) var report: ExploreReport?
        /// The file of each shard seen, by index.
        private var seen: [Int: String] = [:]
        private var count = 0
        /// The shards' coverage added up, and the files of shards that recorded none.
        private var coverage = CoverageReport()
        private var withoutCoverage: [String] = []

        /// The current header's shard and what it ran, and the ids its findings gave so far.
        private struct Current {
            var shard: Shard
            var seeds: Int
            var lines = Set<String>()
            var keys = Set<String>()
        }

        /// Folds in one file's lines; a problem names the file and the line.
        mutating func add(path: String, bytes: [UInt8]) -> Problem? {
            var current: Current?
            var n = 0
            for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                n += 1
                let line = raw.last == 0x0D ? raw.dropLast() : raw
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                let at = "\(path):\(n)"
                guard let j = JSON.parse(String(decoding: line, as: UTF8.self)), let type = j["type"]?.stringValue else {
                    return Problem(message: "\(at): not a line of explore's JSON Lines (merge the files that explore --shard K/M --format jsonl wrote)")
                }
                switch type {
                case "header":
                    switch header(j, at: at, path: path) {
                    case .success(let c): current = c
                    case .failure(let p): return p
                    }
                case "finding":
                    guard var c = current else { return Problem(message: "\(at): a finding before the header") }
                    if let p = finding(j, at: at, in: &c) { return p }
                    current = c
                case "coverage":
                    guard current != nil else { return Problem(message: "\(at): a coverage record before the header") }
                    switch CoverageReport.file(from: j) {
                    case .success(let f): coverage.add(CoverageReport(files: [f]))
                    case .failure(let e): return Problem(message: "\(at): \(e.message)")
                    }
                case "summary", "neverRun": break  // the merge counts again
                default: return Problem(message: "\(at): unknown line type \(type)")
                }
            }
            if current == nil { return Problem(message: "\(path): no header (an empty file, or not explore's JSON Lines)") }
            return nil
        }

        private mutating func header(_ j: JSON, at: String, path: String) -> Result<Current, Problem> {
            // A shard of schema /2 (before coverage) reads as one that recorded no coverage: /3 only
            // added the header's `guide` and `coverage` flags and the coverage records.
            guard let given = j["schema"]?.stringValue, given == schema || given == "luafetch.explore/2" else {
                return .failure(Problem(message: "\(at): schema \(j["schema"]?.stringValue ?? "?"), expected \(schema) (write the shards with this luafetch)"))
            }
            guard let file = j["file"]?.stringValue, let name = j["scenario"]?.stringValue,
                  let os = j["os"]?.stringValue.flatMap(OSProfile.init(rawValue:)), let seedFrom = j["seedFrom"]?.intValue,
                  let runs = j["runs"]?.intValue, let shard = j["shard"]?.stringValue.flatMap(Shard.parse) else {
                return .failure(Problem(message: "\(at): its header is not a shard's (write it with explore --shard K/M --format jsonl)"))
            }
            let most = Explore.maxRuns * Explore.maxShards
            guard runs >= 1, runs <= most else {
                return .failure(Problem(message: "\(at): the header says \(runs) runs; explore makes 1 to \(most) (write the shards again with explore --shard K/M --format jsonl)"))
            }
            guard seedFrom <= Int64.max - (runs - 1) else {
                return .failure(Problem(message: "\(at): the header's \(runs) runs from seed \(seedFrom) pass the largest seed (\(Int64.max)); explore never writes that"))
            }
            guard shard.count <= Explore.maxShards else {
                return .failure(Problem(message: "\(at): the header's shard \(shard.index)/\(shard.count) is more shards than explore splits into (at most \(Explore.maxShards))"))
            }
            var h = ExploreReport(file: file, name: name, os: os, osOption: j["osOption"]?.stringValue.flatMap(OSProfile.init(rawValue:)),
                                  seedFrom: seedFrom, runs: Int(runs), shard: shard, timeBudget: nil, findings: ExploreFindings())
            if case .bool(true)? = j["stubDraws"] { h.stubDraws = true }
            if let f = j["stubFailures"]?.stringValue.flatMap(StubFailures.init(rawValue:)) { h.stubFailures = f }
            if case .bool(true)? = j["guide"] {
                return .failure(Problem(message: "\(at): a guided exploration, not a shard's (shards sample at random: write them with explore --shard K/M --format jsonl)"))
            }
            if case .bool(true)? = j["coverage"] {} else { withoutCoverage.append(path) }
            if let r = report {
                guard r.file == h.file, r.name == h.name, r.os == h.os, r.osOption == h.osOption, r.seedFrom == h.seedFrom,
                      r.runs == h.runs, r.stubFailures == h.stubFailures, count == shard.count else {
                    return .failure(Problem(message: "\(at): \(path) explored something else than \(seen.values.min() ?? "the first file") (file, os, seeds, --stub-failures and shard count must agree)"))
                }
            } else {
                report = h
                count = shard.count
            }
            if let other = seen[shard.index] {
                return .failure(Problem(message: "\(at): \(path) and \(other) are both shard \(shard.index)/\(shard.count)"))
            }
            seen[shard.index] = path
            return .success(Current(shard: shard, seeds: Explore.seeds(of: shard, total: Int(runs))))
        }

        private mutating func finding(_ j: JSON, at: String, in c: inout Current) -> Problem? {
            guard let group = record(j, id: j["line"]?.stringValue, first: observation(j["first"])),
                  let members = j["members"]?.arrayValue else {
                return Problem(message: "\(at): a finding without its fields")
            }
            if let p = check(group, at: at, in: c) { return p }
            guard c.lines.insert(group.id).inserted else { return Problem(message: "\(at): a second finding for \(group.id) in the same shard") }
            var records: [FindingRecord] = []
            for m in members {
                let o = observation(m)
                guard let r = record(m, id: o?.key, first: o) else {
                    return Problem(message: "\(at): a finding's observation without its fields")
                }
                if let p = check(r, at: at, in: c) { return p }
                guard c.keys.insert(r.id).inserted else { return Problem(message: "\(at): a second record of \(r.id) in the same shard") }
                records.append(r)
            }
            report!.findings.merge(line: group)
            for r in records { report!.findings.merge(observation: r) }
            return nil
        }

        /// A record's numbers: seen in 1 to (the shard's seeds) runs, first at one of the shard's seeds.
        private func check(_ r: FindingRecord, at: String, in c: Current) -> Problem? {
            guard let h = report else { return nil }
            guard r.runs >= 1, r.runs <= c.seeds else {
                return Problem(message: "\(at): \(r.id) was seen in \(r.runs) runs, but shard \(c.shard.index)/\(c.shard.count) made \(c.seeds) (was the file changed after explore wrote it?)")
            }
            let offset = r.seed.subtractingReportingOverflow(h.seedFrom)
            guard !offset.overflow, offset.partialValue >= 0, offset.partialValue < Int64(h.runs),
                  Int(offset.partialValue) % c.shard.count == c.shard.index - 1 else {
                return Problem(message: "\(at): \(r.id) names seed \(r.seed), which is not one of shard \(c.shard.index)/\(c.shard.count)'s seeds (every \(c.shard.count == 1 ? "" : "\(c.shard.count)th ")seed from \(h.seedFrom + Int64(c.shard.index - 1)) to \(h.seedFrom + Int64(h.runs - 1)))")
            }
            if let until = r.schedule.until, until < 0 { return Problem(message: "\(at): \(r.id)'s schedule ends before it starts (until \(until))") }
            if let until = r.minimal?.until, until < 0 { return Problem(message: "\(at): \(r.id)'s minimal schedule ends before it starts (until \(until))") }
            return nil
        }

        /// The report, once every shard was given.
        func finish() -> Result<ExploreReport, Problem> {
            guard var r = report else { return .failure(Problem(message: "no shards given")) }
            guard seen.count == count else {
                let missing = (1...count).lazy.filter { seen[$0] == nil }
                let shown = missing.prefix(10).map(String.init).joined(separator: ", ")
                let more = count - seen.count - min(10, count - seen.count)
                return .failure(Problem(message: "shard\(count - seen.count == 1 ? "" : "s") \(shown)\(more > 0 ? " and \(more) more" : "") of \(count) missing"))
            }
            r.shard = nil
            if withoutCoverage.isEmpty {
                var c = coverage
                c.runs = r.runs
                r.coverage = c
            }
            return .success(r)
        }

        /// Shards that recorded no coverage (`--merge --coverage` needs every one's).
        var shardsWithoutCoverage: [String] { withoutCoverage }
    }
}

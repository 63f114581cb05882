// Explore's report: the text and JSON Lines (schema luafetch.explore/2) forms of the findings, and
// `--merge`, which reads the JSON Lines of shards back into one report. A single run and the merge
// of its shards print the same bytes: both print an ExploreReport built from the same records.
// Uses LuaFetchCore's JSON and LuaFetchScripting's ExploreFindings.
import LuaFetchCore
import LuaFetchScripting

struct ExploreReport {
    static let schema = "luafetch.explore/2"

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
        let roots = findings.roots
        let errors = roots.filter { findings.severity($0) == .error }.count
        if roots.isEmpty {
            out.append("nothing found")
        } else {
            var counts: [String] = []
            if errors > 0 { counts.append("\(errors) error\(errors == 1 ? "" : "s")") }
            if roots.count > errors { counts.append("\(roots.count - errors) warning\(roots.count - errors == 1 ? "" : "s")") }
            out.append("\(roots.count) finding\(roots.count == 1 ? "" : "s") (\(counts.joined(separator: ", ")))")
        }
        let causes = findings.causedBy
        for line in roots {
            guard let group = findings.lines[line], let head = findings.headline(line) else { continue }
            let o = head.first
            out.append("")
            out.append("\(mark(o.severity)) \(o.code) [\([o.severity.rawValue, o.exception].compactMap { $0 }.joined(separator: ", "))] \(o.location ?? "-")")
            out.append("  \(o.message)")
            out.append("  in \(group.runs) of \(runs) runs (\(share(group.runs))), first at seed \(group.seed)")
            let others = findings.members(line).dropFirst()
            if !others.isEmpty {
                out.append("  with it at this line: " + others.map { "\(mark($0.first.severity)) \($0.first.code) (\(count($0.runs)))" }.joined(separator: ", "))
            }
            let caused = findings.allLines.filter { causes[$0.id] == line }
            if !caused.isEmpty {
                out.append("  and after it, in the same runs:")
                for c in caused {
                    let codes = findings.members(c.id).map { "\(mark($0.first.severity)) \($0.first.code)" }.joined(separator: ", ")
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
                out.append("  replay   \(replay(head.seed, m))")
            } else {
                out.append("  its run's schedule did not replay outside explore (an action fell in the same millisecond as the app's own work): explore --seed-from \(head.seed) --runs 1 shows it again")
            }
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

    func replay(_ seed: Int64, _ s: Schedule) -> String {
        var parts = ["luafetch", "run", shellQuote(file), "--seed", String(seed)]
        if let osOption { parts += ["--os", osOption.rawValue] }
        if let until = s.until { parts += ["--until", Time.secondsText(until)] }
        parts.append("--settle")
        if !s.actions.isEmpty { parts += ["--inject", shellQuote(s.injectText)] }
        if s.order != 0 { parts += ["--order", String(s.order)] }
        if stubDraws { parts += ["--stub-draws", "explore"] }
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
        ]).text)
        let causes = findings.causedBy
        let roots = Set(findings.roots)
        for group in findings.allLines {
            let root = roots.contains(group.id)
            let head = findings.headline(group.id)
            let members: [JSON] = findings.members(group.id).map { m in
                // What a single run reports is shrunk; a shard keeps every observation's shrinking.
                let shown = shard != nil || (root && m.id == head?.id)
                return .object(Self.observation(m.first) + [
                    ("runs", .int(m.runs)), ("seed", .int(m.seed)), ("schedule", Self.json(m.schedule)),
                    ("preceded", .array(m.preceded.sorted().map(JSON.string))),
                    ("shrunk", .bool(shown && m.shrunk)), ("minimal", shown ? m.minimal.map(Self.json) ?? .null : .null),
                ])
            }
            out.append(JSON.object([
                ("type", .string("finding")), ("line", .string(group.id)), ("severity", .string(findings.severity(group.id).rawValue)),
                ("root", .bool(root)), ("causedBy", .opt(causes[group.id])),
                ("runs", .int(group.runs)), ("share", .string(share(group.runs))), ("seed", .int(group.seed)),
                ("schedule", Self.json(group.schedule)), ("preceded", .array(group.preceded.sorted().map(JSON.string))),
                ("first", .object(Self.observation(group.first))),
                ("headline", .opt(head?.id)),
                ("replay", root ? .opt(head.flatMap { h in h.minimal.map { replay(h.seed, $0) } }) : .null),
                ("members", .array(members)),
            ]).text)
        }
        let errors = findings.roots.filter { findings.severity($0) == .error }.count
        out.append(JSON.object([("type", .string("summary")), ("runs", .int(runs)), ("findings", .int(roots.count)),
                                ("errors", .int(errors)), ("warnings", .int(roots.count - errors)),
                                ("exit", .int(roots.isEmpty ? 0 : 1))]).text)
        return out
    }

    static func observation(_ o: Observation) -> [(String, JSON)] {
        [("key", .string(o.key)), ("code", .string(o.code)), ("severity", .string(o.severity.rawValue)),
         ("location", .opt(o.location)), ("exception", .opt(o.exception)), ("message", .string(o.message))]
    }

    static func observation(_ j: JSON?) -> Observation? {
        guard let j, let key = j["key"]?.stringValue, let code = j["code"]?.stringValue,
              let severity = j["severity"]?.stringValue.flatMap(Severity.init(rawValue:)), let message = j["message"]?.stringValue else { return nil }
        return Observation(key: key, code: code, severity: severity, location: j["location"]?.stringValue,
                           message: message, exception: j["exception"]?.stringValue)
    }

    /// A record of either level from its JSON (`id`: the key or the line).
    static func record(_ j: JSON, id: String?, first: Observation?) -> FindingRecord? {
        guard let id, let first, let runs = j["runs"]?.intValue, let seed = j["seed"]?.intValue, let sched = schedule(j["schedule"]),
              let preceded = j["preceded"]?.arrayValue?.compactMap(\.stringValue) else { return nil }
        var shrunk = false
        if case .bool(true)? = j["shrunk"] { shrunk = true }
        return FindingRecord(id: id, first: first, runs: Int(runs), seed: seed, schedule: sched, preceded: Set(preceded),
                             minimal: schedule(j["minimal"]), shrunk: shrunk)
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

    /// Reads the shards' JSON Lines (each `explore --shard K/M --format jsonl`) into one report.
    static func merge(_ inputs: [(path: String, text: String)]) -> Result<ExploreReport, Problem> {
        var report: ExploreReport?
        var seen: [Int: String] = [:]
        var count = 0
        for (path, text) in inputs {
            var header: ExploreReport?
            for (n, line) in text.split(separator: "\n").enumerated() {
                guard let j = JSON.parse(String(line)), let type = j["type"]?.stringValue else {
                    return .failure(Problem(message: "\(path):\(n + 1): not a line of explore's JSON Lines"))
                }
                switch type {
                case "header":
                    guard j["schema"]?.stringValue == schema else {
                        return .failure(Problem(message: "\(path): schema \(j["schema"]?.stringValue ?? "?"), expected \(schema) (write the shards with this luafetch)"))
                    }
                    guard let file = j["file"]?.stringValue, let name = j["scenario"]?.stringValue,
                          let os = j["os"]?.stringValue.flatMap(OSProfile.init(rawValue:)), let seedFrom = j["seedFrom"]?.intValue,
                          let runs = j["runs"]?.intValue, let shard = j["shard"]?.stringValue.flatMap(Shard.parse) else {
                        return .failure(Problem(message: "\(path): its header is not a shard's (write it with explore --shard K/M --format jsonl)"))
                    }
                    let h = ExploreReport(file: file, name: name, os: os, osOption: j["osOption"]?.stringValue.flatMap(OSProfile.init(rawValue:)),
                                          seedFrom: seedFrom, runs: Int(runs), shard: shard, timeBudget: nil, findings: ExploreFindings())
                    if let r = report {
                        guard r.file == h.file, r.name == h.name, r.os == h.os, r.osOption == h.osOption, r.seedFrom == h.seedFrom,
                              r.runs == h.runs, count == shard.count else {
                            return .failure(Problem(message: "\(path) explored something else than \(seen.values.sorted().first ?? "the first file") (file, os, seeds and shard count must agree)"))
                        }
                    } else {
                        report = h
                        count = shard.count
                    }
                    if let other = seen[shard.index] {
                        return .failure(Problem(message: "\(path) and \(other) are both shard \(shard.index)/\(shard.count)"))
                    }
                    seen[shard.index] = path
                    header = h
                case "finding":
                    guard header != nil else { return .failure(Problem(message: "\(path):\(n + 1): a finding before the header")) }
                    guard let group = record(j, id: j["line"]?.stringValue, first: observation(j["first"])),
                          let members = j["members"]?.arrayValue else {
                        return .failure(Problem(message: "\(path):\(n + 1): a finding without its fields"))
                    }
                    report!.findings.merge(line: group)
                    for m in members {
                        let o = observation(m)
                        guard let r = record(m, id: o?.key, first: o) else {
                            return .failure(Problem(message: "\(path):\(n + 1): a finding's observation without its fields"))
                        }
                        report!.findings.merge(observation: r)
                    }
                case "summary": break
                default: return .failure(Problem(message: "\(path):\(n + 1): unknown line type \(type)"))
                }
            }
            if header == nil { return .failure(Problem(message: "\(path): no header (an empty file, or not explore's JSON Lines)")) }
        }
        guard var r = report else { return .failure(Problem(message: "no shards given")) }
        let missing = (1...count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            return .failure(Problem(message: "shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(count) missing"))
        }
        r.shard = nil
        return .success(r)
    }
}

// A finding's replay shows what explore said (issue 39.1): for every finding of explore's report
// (JSON Lines), its replay command, run as printed, ends FAIL (exit 1) as explore's FOUND does, and
// shows the finding's observation at its line with the same message (its times and numbers) and
// the same stub failure before it (`needs`) at the same virtual time; in text, the finding's
// message line is what the replay prints after the violation's heading (`textReplayMismatches`). `replayMismatches` is shared by this suite (every example) and by the
// importer's suites (ImportCLITests, RealShapesTests: every fixture's buggy variant, whose explore
// they already run; their fixed and clean variants have no findings). Runs per example: 100, about
// 30 s for the examples on the debug build; a replay is one run.
import Foundation
import Testing

/// Where the replays of explore's findings (its JSON Lines) differ from what explore reported:
/// one line per difference, empty when every replay agrees. `dir`: where explore ran.
func replayMismatches(_ exploreJSONL: String, in dir: URL = CLI.root) throws -> [String] {
    var problems: [String] = []
    for finding in try jsonLines(exploreJSONL) where finding["type"] as? String == "finding" && finding["root"] as? Bool == true {
        let line = finding["line"] as? String ?? "?"
        guard let replay = finding["replay"] as? String else { continue }  // not shrunk: nothing printed to run
        let head = ((finding["members"] as? [[String: Any]]) ?? []).first { $0["key"] as? String == finding["headline"] as? String }
        guard let shown = head?["replayed"] as? [String: Any] else {
            problems.append("\(line): the headline has no replayed observation (\(replay))")
            continue
        }
        let command = CLI.binary + replay.dropFirst("luafetch".count) + " --format jsonl"
        let r = try shell(command, in: dir)
        guard r.status == 1 else {
            problems.append("\(line): `\(replay)` exits \(r.status), explore said FOUND (exit 1)\n\(r.output.suffix(600))")
            continue
        }
        let lines = r.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        guard let summary = lines.first(where: { $0["type"] as? String == "summary" }) else {
            problems.append("\(line): `\(replay)` printed no summary")
            continue
        }
        let code = shown["code"] as? String, location = shown["location"] as? String, message = shown["message"] as? String
        let needs = shown["needs"] as? String
        // An imported scenario's location reads `File.swift:LINE (scenario.lua:LINE)` in explore's
        // report and as the scenario line in run's JSON Lines: the same line.
        func same(_ runs: Any?) -> Bool {
            guard let l = runs as? String, let location else { return runs == nil && location == nil }
            return l == location || location.hasSuffix("(\(l))")
        }
        let t = (shown["t"] as? NSNumber)?.int64Value
        if code == "expectation" {
            let failed = ((summary["expectations"] as? [[String: Any]]) ?? []).filter { $0["passed"] as? Bool == false }
            let same = failed.contains { e in
                same(e["location"]) && message?.hasPrefix("expected \(e["description"] as? String ?? "\u{0}")") == true
            }
            if !same { problems.append("\(line): the replay's failed expectations \(failed) are not explore's \(shown)") }
        } else {
            let violations = (summary["violations"] as? [[String: Any]]) ?? []
            let same = violations.contains { v in
                v["code"] as? String == code && same(v["location"]) && v["message"] as? String == message
                    && v["needs"] as? String == needs && (v["t"] as? NSNumber)?.int64Value == t
            }
            if !same {
                let near = violations.filter { $0["code"] as? String == code }
                    .map { "\($0["location"] ?? "-") +\($0["t"] ?? "-"): \($0["message"] ?? "") [\($0["needs"] ?? "needs nothing")]" }
                problems.append("\(line): explore said \(code ?? "") at \(location ?? "-") +\(t ?? -1): \(message ?? "") [\(needs ?? "needs nothing")]\n  the replay `\(replay)` shows \(near)")
            }
        }
    }
    return problems
}

/// Where explore's text report (`--no-color`) says what its replays do not print: each finding's
/// heading and message line, joined as `luafetch run` prints a violation (`HEADING: MESSAGE`, its
/// `; needs ...` included), must be a line of its replay's output (text, `--no-color`).
func textReplayMismatches(_ exploreText: String) throws -> [String] {
    var problems: [String] = []
    let lines = exploreText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for (i, heading) in lines.enumerated() where (heading.hasPrefix("✗ ") || heading.hasPrefix("⚠ ")) && i + 1 < lines.count {
        let message = String(lines[i + 1].dropFirst(2))
        guard let replay = lines[(i + 1)...].prefix(while: { !$0.isEmpty }).first(where: { $0.hasPrefix("  replay   ") }) else { continue }
        let r = try CLI.run(replayArguments(replay) + ["--no-color"])
        let want = "\(heading): \(message)"
        if !r.stdout.split(separator: "\n").contains(where: { $0.hasSuffix(want) }) {
            let near = r.stdout.split(separator: "\n").filter { $0.contains(heading) }.map { "    \($0)" }.joined(separator: "\n")
            problems.append("explore printed\n    \(want)\n  its replay `\(replay.dropFirst(11))` prints\n\(near)")
        }
    }
    return problems
}

@Suite struct ReplayTests {
    static let examples: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("examples").path)) ?? [])
        .filter { $0.hasSuffix(".lua") }.sorted()

    /// Every finding of every example replays as explore reported it (100 runs each).
    @Test(arguments: ReplayTests.examples)
    func everyFindingReplaysAsExploreSaidIt(example: String) throws {
        // 100 runs (20 under a sanitizer, whose suite checks memory safety on the same paths).
        let r = try CLI.run(["explore", "examples/\(example)", "--runs", CLI.memoryLimitsWork ? "100" : "20", "--format", "jsonl"])
        #expect(r.status == 0 || r.status == 1, "\(example): \(r.stderr)")
        let problems = try replayMismatches(r.stdout)
        #expect(problems.isEmpty, "\(example):\n\(problems.joined(separator: "\n"))")
    }

    /// A warning-only finding: explore says FOUND (exit 1); its replay carries --strict, so that
    /// `run` ends FAIL (exit 1) too instead of passing the warning.
    @Test func aWarningsReplayIsStrict() throws {
        let dir = try tempDir("replay-warning")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "app { didFinishLaunching = function(app) app:endBackgroundTask(42) return true end }\nat(0, user.launch)\n"
            .write(to: dir.appendingPathComponent("warn.lua"), atomically: true, encoding: .utf8)
        let r = try runIn(dir, ["explore", "warn.lua", "--runs", "3", "--format", "jsonl"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        let findings = try jsonLines(r.stdout).filter { $0["type"] as? String == "finding" && $0["root"] as? Bool == true }
        #expect(findings.count == 1 && findings.first?["severity"] as? String == "warning", "\(findings)")
        #expect((findings.first?["replay"] as? String)?.hasSuffix(" --strict") == true, "\(findings)")
        let problems = try replayMismatches(r.stdout, in: dir)
        #expect(problems.isEmpty, "\(problems)")
    }
}

// A finding's replay shows what explore said (issue 39.1): for every finding of explore's report
// (JSON Lines), its replay command, run as printed, ends FAIL (exit 1) as explore's FOUND does, and
// shows the finding's observation at its line with the same message (its times and numbers) at
// the same virtual time. `replayMismatches` is shared by this suite (every example) and by the
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
                    && (v["t"] as? NSNumber)?.int64Value == t
            }
            if !same {
                let near = violations.filter { $0["code"] as? String == code }.map { "\($0["location"] ?? "-") +\($0["t"] ?? "-"): \($0["message"] ?? "")" }
                problems.append("\(line): explore said \(code ?? "") at \(location ?? "-") +\(t ?? -1): \(message ?? "")\n  the replay `\(replay)` shows \(near)")
            }
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

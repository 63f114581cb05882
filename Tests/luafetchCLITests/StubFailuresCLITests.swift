// SPEC 18.9.3 and 18.9.4 from the command line: `--stub-failures none|one|every` on run and
// explore (a bad value is exit 2 with "did you mean"), explore's findings that need no stub
// failure listed before those that do, which end their message with `; needs ...` as their replay
// does, a finding that needs no failure shown by a run that took none, and replays that take the
// same failure. Uses the fixture apps (ImportCLITests.imported) and ReplayTests' checkers.
import Foundation
import Testing

@Suite(.serialized) struct StubFailuresCLITests {
    @Test func aBadStubFailuresValueIsExit2WithDidYouMean() throws {
        for command in ["run", "explore"] {
            let r = try CLI.run([command, "examples/hello.lua", "--stub-failures", "evry"])
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("unknown --stub-failures 'evry'; did you mean 'every'?"), "\(command): \(r.stderr)")
            let far = try CLI.run([command, "examples/hello.lua", "--stub-failures", "sometimes"])
            #expect(far.status == 2 && far.stderr.contains("use none, one or every"), "\(command): \(far.stderr)")
        }
    }

    /// The six `try`s at launch of launch_store_tries end in the app's fatalError: reported, but
    /// only as "needs X to fail", after the finding that needs no failure (a leaked task), in
    /// the words its replay prints (issue 39.1).
    @Test func exploreListsFindingsThatNeedNoFailureFirst() throws {
        let (buggy, _, _) = try ImportCLITests.imported("launch_store_tries", "buggy")
        let r = try CLI.run(["explore", buggy, "--runs", "200", "--no-color"])
        #expect(r.status == 1, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let heads = lines.enumerated().filter { $0.element.hasPrefix("✗ ") || $0.element.hasPrefix("⚠ ") }
        let expired = try #require(heads.first { $0.element.contains("task-expired") }, "\(r.stdout)")
        let crash = try #require(heads.first { $0.element.contains("app-crash") }, "\(r.stdout)")
        #expect(expired.offset < crash.offset, "\(r.stdout)")
        let needs = try #require(lines[crash.offset + 1].firstRange(of: "; needs ").map { lines[crash.offset + 1][$0.upperBound...] })
        #expect(needs.hasPrefix("JournalFiles.") || needs.hasPrefix("JournalDatabase.") || needs.hasPrefix("opaque"), "\(needs)")
        #expect(needs.contains(" to fail (AppDelegate.swift:"), "\(lines[crash.offset + 1])")
        #expect(!lines[expired.offset + 1].contains("needs") && !lines[expired.offset + 2].contains("needs"), "\(r.stdout)")
        #expect(try textReplayMismatches(r.stdout).isEmpty)
        // JSON Lines say it too, and every replay shows its finding with the same failure.
        let jsonl = try CLI.run(["explore", buggy, "--runs", "200", "--format", "jsonl"])
        let findings = try jsonLines(jsonl.stdout).filter { $0["type"] as? String == "finding" && $0["root"] as? Bool == true }
        #expect(findings.contains { ($0["needs"] as? String)?.contains("to fail (AppDelegate.swift:") == true }, "\(jsonl.stdout)")
        #expect(try replayMismatches(jsonl.stdout).isEmpty)
    }

    /// The photos app of the tutorial (task_id_property) leaks a task whether or not its upload
    /// fails: the finding needs no failure, so a run that took none shows it and its replay, and
    /// the message names no failure (issue 39.1: the first seed's run had failed the upload, and
    /// its replay printed `...; needs PhotoSyncClient.uploadPhotos to fail` where explore did not).
    @Test func aFindingThatNeedsNoFailureIsShownByARunThatTookNone() throws {
        let (buggy, _, _) = try ImportCLITests.imported("task_id_property", "buggy")
        let r = try CLI.run(["explore", buggy, "--runs", "300", "--no-color"])
        #expect(r.status == 1, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let expired = try #require(lines.firstIndex { $0.hasPrefix("✗ task-expired") }, "\(r.stdout)")
        #expect(!lines[expired + 1].contains("needs") && !lines[expired + 2].contains("needs"), "\(r.stdout)")
        let problems = try textReplayMismatches(r.stdout)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The one failure is drawn from the seed and the run's own order: the same report on any --jobs.
    @Test func theSameReportOnAnyNumberOfJobs() throws {
        let (buggy, _, _) = try ImportCLITests.imported("launch_store_tries", "buggy")
        let one = try CLI.run(["explore", buggy, "--runs", "120", "--jobs", "1", "--no-color"])
        let two = try CLI.run(["explore", buggy, "--runs", "120", "--jobs", "2", "--no-color"])
        #expect(one.status == 1 && one.stdout == two.stdout, "\(one.stdout)\n---\n\(two.stdout)")
    }

    @Test func underNoneTheLaunchNeverFails() throws {
        let (buggy, _, _) = try ImportCLITests.imported("launch_store_tries", "buggy")
        let r = try CLI.run(["explore", buggy, "--runs", "100", "--no-color", "--stub-failures", "none"])
        #expect(!r.stdout.contains("app-crash"), "\(r.stdout)")
        #expect(r.stdout.contains("task-expired"), "\(r.stdout)")
        let every = try CLI.run(["explore", buggy, "--runs", "100", "--no-color", "--stub-failures", "every"])
        #expect(every.stdout.contains("app-crash"), "\(every.stdout)")
        let replay = try #require(every.stdout.split(separator: "\n").first { $0.contains("replay") && $0.contains("--stub-failures every") },
                                  "\(every.stdout)")
        #expect(replay.contains("--stub-draws explore"))
    }
}

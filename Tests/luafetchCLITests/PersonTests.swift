// Explore's person behaves like one (issue 39.3): an injected open is followed by a Home within
// a session (10 s to an hour, docs/EXPLORE.md), so a correct app is not reported for what an app
// left in the foreground for a day could not do. The tutorial's scenarios (docs/TUTORIAL.md's
// ```lua blocks, but those that fail on purpose), the examples meant to be correct (their
// expectations say no violations, and hold whatever a person does: they count what the person and
// the system did, how many times the person left, the pushes that reached the app, instead of the
// numbers of the scenario's own timeline) and `luafetch new`'s starter of every profile are clean
// under `explore --runs 2000`: about two minutes on the debug build for all of them.
import Foundation
import Testing

/// Not under a sanitizer (scripts/sanitize): 46,000 runs of the same code paths the plain suite of
/// the same CI job explores; the sanitizer's suite checks memory safety, not the person.
@Suite(.enabled(if: CLI.memoryLimitsWork, "explore's person is checked by the plain suite; under a sanitizer its 46,000 runs take too long"))
struct PersonTests {
    /// The examples whose apps are correct (`expect.noViolations()`, no violation expected): their
    /// expectations hold for any person and any injected system action, so explore finds nothing.
    static let correctExamples = [
        "background_download", "bgtask_processing", "bgtask_refresh", "explore_me_fixed", "hello", "long_task",
        "multitasking", "multitasking_off", "news", "retry", "scenes", "silent_push", "twitter",
    ]

    /// The profiles `luafetch new --os` writes a starter for.
    static let profiles = ["ios6", "ios7", "ios13", "ios26"]

    /// The tutorial's scenarios that are meant to pass, by their step's block number.
    static func tutorialScenarios() throws -> [(name: String, source: String)] {
        let text = try String(contentsOf: CLI.root.appendingPathComponent("docs/TUTORIAL.md"), encoding: .utf8)
        let parts = text.components(separatedBy: "```")
        var out: [(String, String)] = []
        for i in stride(from: 1, to: parts.count, by: 2) where parts[i].hasPrefix("lua\n") {
            if parts[i - 1].contains("*Fails on purpose:*") { continue }
            out.append(("tutorial block \(out.count + 1)", String(parts[i].dropFirst(4))))
        }
        return out
    }

    /// The list is every example that expects no violations (the selection is explicit).
    @Test func theCorrectExamplesAreTheOnesThatExpectNoViolations() throws {
        var expecting: [String] = []
        for file in ReplayTests.examples {
            let text = try String(contentsOf: CLI.root.appendingPathComponent("examples/\(file)"), encoding: .utf8)
            if text.contains("expect.noViolations()") && !text.contains("expect.violation(") && file != "explore_me.lua" {
                expecting.append(String(file.dropLast(4)))
            }
        }
        #expect(expecting.sorted() == Self.correctExamples.sorted())
    }

    @Test(arguments: PersonTests.correctExamples)
    func aCorrectExampleIsClean(name: String) throws {
        let r = try CLI.run(["explore", "examples/\(name).lua", "--runs", "2000", "--no-color"])
        #expect(r.status == 0 && r.stdout.contains("\nnothing found\n"), "\(name):\n\(r.stdout)\(r.stderr)")
    }

    /// The starter README and `new --help` call correct: explore's person breaks none of its
    /// expectations either (they count the times the person left and the app became active).
    @Test(arguments: PersonTests.profiles)
    func theStarterOfEveryProfileIsClean(os: String) throws {
        let path = try tempDir("person-new").appendingPathComponent("\(os).lua").path
        let made = try CLI.run(["new", path, "--os", os])
        #expect(made.status == 0, "\(made.stderr)")
        let r = try CLI.run(["explore", path, "--runs", "2000", "--no-color"])
        #expect(r.status == 0 && r.stdout.contains("\nnothing found\n"), "new --os \(os):\n\(r.stdout)\(r.stderr)")
    }

    @Test func theTutorialsScenariosAreClean() throws {
        let scenarios = try Self.tutorialScenarios()
        #expect(scenarios.count >= 6)
        for (n, (name, source)) in scenarios.enumerated() {
            let path = try CLI.scenario(source, name: "tutorial\(n + 1).lua")
            let r = try CLI.run(["explore", path, "--runs", "2000", "--no-color"])
            #expect(r.status == 0 && r.stdout.contains("\nnothing found\n"), "\(name):\n\(r.stdout)\(r.stderr)")
        }
    }
}

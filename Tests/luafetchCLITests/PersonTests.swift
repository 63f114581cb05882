// Explore's person behaves like one (issue 39.3): an injected open is followed by a Home within
// a session (10 s to an hour, docs/EXPLORE.md), so a correct app is not reported for what an app
// left in the foreground for a day could not do. The tutorial's scenarios (docs/TUTORIAL.md's
// ```lua blocks, but those that fail on purpose) and the examples meant to be correct (their
// expectations say no violations, and nothing they expect fails on its own) are clean under
// `explore --runs 2000`: about 3 minutes on the debug build for all of them.
import Foundation
import Testing

@Suite struct PersonTests {
    /// The examples whose apps are correct: `expect.noViolations()` and no violation expected.
    /// (explore_me.lua plants bugs on purpose; the others expect their violations.)
    static let correctExamples = ["background_download", "bgtask_processing", "bgtask_refresh", "explore_me_fixed", "hello",
                                  "long_task", "multitasking", "multitasking_off", "news", "retry", "scenes", "silent_push",
                                  "twitter"]

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

    @Test func theCorrectExamplesAreTheOnesThatExpectNoViolations() throws {
        for name in Self.correctExamples {
            let text = try String(contentsOf: CLI.root.appendingPathComponent("examples/\(name).lua"), encoding: .utf8)
            #expect(text.contains("expect.noViolations()") && !text.contains("expect.violation("), "\(name)")
        }
    }

    @Test(arguments: PersonTests.correctExamples)
    func aCorrectExampleIsClean(name: String) throws {
        let r = try CLI.run(["explore", "examples/\(name).lua", "--runs", "2000", "--no-color"])
        #expect(r.status == 0 && r.stdout.contains("\nnothing found\n"), "\(name):\n\(r.stdout)\(r.stderr)")
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

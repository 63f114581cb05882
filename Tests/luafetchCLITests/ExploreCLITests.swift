// `luafetch explore` on the built binary: it finds a bug that needs a user action, shrinks the
// injected actions to that one, prints a replay command that reproduces it, gives the same output
// whatever --jobs is, and exits 0 on a sound scenario, 2 on a bad one.
import Foundation
import Testing

let fragileScenario = """
    scenario { name = "Fragile upload", duration = hours(1) }
    local task
    app {
      didEnterBackground = function(app)
        task = app:beginBackgroundTask("upload", nil)
        after(40, function() app:endBackgroundTask(task) end)
      end,
    }
    at(0, user.launch)

    """

@Suite(.serialized) struct ExploreCLITests {
    @Test func findsShrinksAndReplays() throws {
        let path = try CLI.scenario(fragileScenario)
        let r = try CLI.run(["explore", path, "--runs", "20"])
        #expect(r.status == 1)
        // task-expired, and task-held-too-long (logged in the foreground too since SPEC 12.3).
        #expect(r.stdout.contains("2 distinct violations found"))
        #expect(r.stdout.contains("✗ task-expired [error, 0x8badf00d] \(path):5"))
        #expect(r.stdout.contains("minimal injected actions (1 of "))
        let replay = try #require(r.stdout.split(separator: "\n").first { $0.contains("replay   ") })
        let args = replay.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).map(String.init)  // "replay luafetch"
        #expect(args.first == "run")
        #expect(args.contains("--inject"))
        let again = try CLI.run(args)
        #expect(again.status == 1)
        #expect(again.stdout.contains("✗ task-expired"))
    }

    @Test func theOutputDoesNotDependOnJobs() throws {
        let path = try CLI.scenario(fragileScenario)
        let one = try CLI.run(["explore", path, "--runs", "12", "--jobs", "1"])
        let two = try CLI.run(["explore", path, "--runs", "12", "--jobs", "2"])
        #expect(one.stdout == two.stdout)
        #expect(one.status == two.status)
    }

    @Test func jsonlFindings() throws {
        let path = try CLI.scenario(fragileScenario)
        let r = try CLI.run(["explore", path, "--runs", "10", "--format", "jsonl"])
        let objects = try r.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.first?["type"] as? String == "header")
        #expect(objects.last?["type"] as? String == "summary")
        let finding = try #require(objects.first { $0["type"] as? String == "finding" })
        #expect(finding["code"] as? String == "task-expired")
        #expect((finding["minimal"] as? [String])?.count == 1)
    }

    @Test func aSoundScenarioFindsNothing() throws {
        let r = try CLI.run(["explore", "examples/hello.lua", "--runs", "10"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("no violations found"))
    }

    @Test func badInputExits2() throws {
        #expect(try CLI.run(["explore", "no/such.lua"]).status == 2)
        #expect(try CLI.run(["explore", "examples/hello.lua", "--runs", "0"]).status == 2)
        let bad = try CLI.scenario("scenari {}\n")
        let r = try CLI.run(["explore", bad])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("\(bad):1: unknown global"))
        let inject = try CLI.run(["run", "examples/hello.lua", "--inject", "5:fly"])
        #expect(inject.status == 2)
        #expect(inject.stderr.contains("bad --inject item '5:fly'"))
    }
}

// Explore's warm runs (issue #16, #19): a worker loads the scenario once, saves the Lua heap, the
// runtime and the World, and puts them back before every run. A warm run must be exactly the run a
// fresh load gives (every example, findings and schedules alike); a copied World must describe
// itself as its original (so no stored property is left out of `copyState`); functions made before
// the save survive a run's garbage collection, and those made in a run are released by the restore.
@testable import LuaFetchCore
@testable import LuaFetchScripting
import Testing
import Foundation

@Suite struct WarmRunTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var examples: [String] {
        let dir = root.appendingPathComponent("examples")
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".lua") }.sorted()
            .map { dir.appendingPathComponent($0).path }
    }

    /// What a run found and did, as text (seed, schedule, observations), or its load error.
    static func outcome(_ path: String, seed: Int64, warm: Explorer.Warm?) -> String {
        do {
            let o = try Explorer.run(path: path, seed: seed, os: nil, horizon: 20 * Time.minute, warm: warm)
            return "\(o.seed) \(o.schedule.injectText) order \(o.schedule.order): " + o.found.map { "\($0.key) \($0.message) @\($0.time)" }.joined(separator: " | ")
        } catch {
            return "error \(error.message)"
        }
    }

    @Test(arguments: examples) func aWarmRunIsTheRunAFreshLoadGives(_ path: String) {
        let warm = Explorer.Warm(path: path)
        for seed in Int64(1)...24 {
            #expect(Self.outcome(path, seed: seed, warm: warm) == Self.outcome(path, seed: seed, warm: nil), "\(path) seed \(seed)")
        }
    }

    @Test func aScenarioIsLoadedOnceUnlessItsTopLevelDrawsRandomNumbers() {
        let me = Self.root.appendingPathComponent("examples/explore_me.lua").path
        let warm = Explorer.Warm(path: me)
        for seed in Int64(1)...10 { _ = Self.outcome(me, seed: seed, warm: warm) }
        #expect(warm.restored == 9 && warm.reloaded == 0)
        // A top level that rolls dice depends on the seed: saved before loading, it runs each time
        // (and still gives what a fresh load gives).
        let dice = try! Self.scenarioFile("dice.lua", """
            scenario { duration = minutes(5) }
            local roll = math.random(6)
            app { delegate = function() return { didFinishLaunching = function() print("rolled", roll); return true end } end }
            at(0, user.launch)
            expect.that("the roll is not 6", function() return roll ~= 6 end)
            """)
        let warmDice = Explorer.Warm(path: dice)
        for seed in Int64(1)...10 {
            #expect(Self.outcome(dice, seed: seed, warm: warmDice) == Self.outcome(dice, seed: seed, warm: nil))
        }
        #expect(warmDice.restored == 9 && warmDice.reloaded == 9)
    }

    /// Writes a scenario into a scratch folder; returns its path.
    static func scenarioFile(_ name: String, _ source: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("warm-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A World copied in the middle of a run, into a World of the same scenario that ran elsewhere,
    /// describes itself exactly as the original: `copyState` leaves no stored property out.
    @Test(arguments: ["twitter.lua", "bgtask_processing.lua", "background_download.lua", "scenes.lua", "explore_me.lua",
                      "silent_push.lua", "news.lua"])
    func aCopiedWorldIsItsOriginal(_ name: String) throws {
        try Self.expectCopiesAreOriginals(Self.root.appendingPathComponent("examples/\(name)").path, elsewhere: 7, steps: [0, 5, 40, 400])
    }

    /// Copies the World of `path` after each number of `steps` events into one that ran
    /// `elsewhere` events: each copy describes itself as its original.
    static func expectCopiesAreOriginals(_ path: String, elsewhere: Int, steps: [Int]) throws {
        func started(_ steps: Int) throws -> ScenarioRuntime {
            let r = ScenarioRuntime(path: path, options: RunOptions(seed: 3))
            try r.load()
            r.world.start()
            for _ in 0..<steps where r.world.step(limit: r.world.endTime) {}
            return r
        }
        let other = try started(elsewhere)
        for n in steps {
            let original = try started(n)
            other.world.copyState(from: original.world)
            #expect(other.world.stateDescription == original.world.stateDescription, "\(path) after \(n) events")
            #expect(!original.world.stateDescription.isEmpty)
        }
    }

    /// Functions of the saved heap that a run drops are collected during the run and come back with
    /// every restore; completion handlers made in runs are released when collected or by the restore.
    @Test func functionsSurviveCollectionAcrossRestores() throws {
        let source = """
            scenario { duration = minutes(5) }
            server "api.example.com" { latency = 0.1 }:route("GET /x", { status = 200 })
            app { backgroundModes = { "fetch" }, delegate = function()
              return { performFetch = function(app, done)
                collectgarbage()
                http.get("https://api.example.com/x", function(r) collectgarbage(); done(UIBackgroundFetchResultNewData) end)
              end }
            end }
            at(0, user.launch)
            at(1, user.home)
            every(seconds(30), system.backgroundFetch)
            at(2, function() expect = nil; collectgarbage() end)  -- expect's functions are garbage now
            """
        let path = try Self.scenarioFile("gc.lua", source)
        let warm = Explorer.Warm(path: path)
        for seed in Int64(1)...20 {
            #expect(Self.outcome(path, seed: seed, warm: warm) == Self.outcome(path, seed: seed, warm: nil))
        }
        #expect(warm.restored == 19)
        #expect((warm.runtime?.lua.savedBoxesCollected ?? 0) > 0)
    }
}

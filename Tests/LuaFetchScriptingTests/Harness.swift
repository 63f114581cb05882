// Test harness: runs scenario source in-process through ScenarioRuntime and exposes the World's
// timeline, violations and verdict, so each test states a rule in a few lines of Lua.
import LuaFetchCore
@testable import LuaFetchScripting

/// The result of simulating a scenario in a test.
struct Sim {
    let runtime: ScenarioRuntime
    var world: World { runtime.world }
    var error: ScenarioError?

    /// Timeline messages (all actors), in order.
    var messages: [String] { world.timeline.map(\.message) }
    /// Messages printed by scenario code (`print`/`log`), in order.
    var printed: [String] { world.timeline.filter { $0.kind == .log }.map(\.message) }
    /// `print` output with its virtual time in milliseconds.
    var printedAt: [(Millis, String)] { world.timeline.filter { $0.kind == .log }.map { ($0.time, $0.message) } }
    var codes: [String] { world.violations.map(\.code.rawValue) }
    var exitCode: Int32 { error == nil ? world.exitCode : 2 }
}

/// Simulates `source` as the scenario file `test.lua`.
func simulate(_ source: String, options: RunOptions = RunOptions(), budget: Int64 = 2_000_000,
              memoryCap: Int = 64 << 20, eventLimit: Int? = nil) -> Sim {
    let runtime = ScenarioRuntime(path: "test.lua", options: options, instructionBudget: budget, memoryCap: memoryCap)
    if let eventLimit { runtime.world.config.eventLimit = eventLimit }
    do {
        try runtime.run(source: Array(source.utf8), chunkName: "@test.lua")
        try runtime.run()
        return Sim(runtime: runtime, error: nil)
    } catch {
        return Sim(runtime: runtime, error: error)
    }
}

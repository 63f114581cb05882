// A runtime is freed with its last reference (issue 29, R24: `luafetch test` over 20,000 files
// kept 135 KB per scenario because a host function held its runtime, and with it the Lua state,
// forever). Each test drops a runtime and checks through a weak reference that it is gone: a
// fresh one, and one that loaded and ran each example (every API the examples use).
@testable import LuaFetchCore
@testable import LuaFetchScripting
import Testing

@Suite struct RuntimeLifetimeTests {
    /// Whether a runtime `make` returns is freed once the caller drops it.
    static func isFreed(_ make: () -> ScenarioRuntime) -> Bool {
        weak var kept: ScenarioRuntime?
        do { kept = make() }
        return kept == nil
    }

    @Test func aRuntimeIsFreedWithItsLastReference() {
        #expect(Self.isFreed { ScenarioRuntime(path: "x.lua") })
        #expect(Self.isFreed { simulate("app { didFinishLaunching = function(app) return true end }\nat(0, user.launch)").runtime })
    }

    @Test(arguments: WarmRunTests.examples) func aRuntimeThatRanAnExampleIsFreed(_ path: String) {
        #expect(Self.isFreed {
            let r = ScenarioRuntime(path: path)
            try? r.load()
            try? r.run()
            return r
        }, "\(path)")
    }
}

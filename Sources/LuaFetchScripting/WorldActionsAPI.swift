// The `user` and `system` tables (SPEC 6.1, 6.2): what the person and iOS do. Called from the
// timeline (`at`, `every`), top-level code (deferred to t = 0, after the scenario is loaded, in
// order) or the REPL (at the current virtual time); never from app code. Uses the World.
import CLua
import LuaFetchCore

extension ScenarioRuntime {
    func installWorldActions() {
        let world = self.world
        func action(_ name: String, _ body: @escaping (LuaCall) throws(LuaFailure) -> (() -> Void)) -> (String, HostBody) {
            (name, { [unowned self] c throws(LuaFailure) in
                try requireWorld(c, "; to react to the app's state, use at/every in the timeline")
                let run = try body(c)
                if world.context == .topLevel {
                    world.at(0, action: c.name, run)  // after loading, in order
                } else {
                    run()
                }
                return 0
            })
        }
        installTable("user", methods: [
            action("launch") { _ throws(LuaFailure) in { world.userLaunch() } },
            action("open") { _ throws(LuaFailure) in { world.userLaunch() } },
            action("home") { _ throws(LuaFailure) in { world.userHome() } },
            action("forceQuit") { _ throws(LuaFailure) in { world.userForceQuit() } },
            action("interrupt") { c throws(LuaFailure) in
                let d = try c.duration(1, allowZero: false)
                return { world.userInterrupt(for: d) }
            },
        ])
        installTable("system", methods: [
            action("backgroundFetch") { _ throws(LuaFailure) in { world.systemBackgroundFetch() } },
            action("launchForFetch") { _ throws(LuaFailure) in { world.systemLaunchForFetch() } },
            action("memoryPressure") { _ throws(LuaFailure) in { world.systemMemoryPressure() } },
            action("setLowPowerMode") { c throws(LuaFailure) in
                let on = try c.boolean(1)
                return { world.systemSetLowPowerMode(on) }
            },
            action("setBackgroundRefresh") { c throws(LuaFailure) in
                let on = try c.boolean(1)
                return { world.systemSetBackgroundRefresh(on) }
            },
        ])
    }
}

// App-side time in Lua (SPEC 4.2): `after(seconds, fn)`, `timer.every` / `timer.after` returning a
// timer with `t:invalidate()`, and `work(seconds)`. App code only; the world uses at/every.
import LuaFetchCore

extension ScenarioRuntime {
    func installAppTimeAPI() {
        setGlobal("after") { [unowned self] c throws(LuaFailure) in
            try requireApp(c, "; the world uses at(time, fn)")
            let d = try c.duration(1)
            try c.function(2)
            world.after(d, c.ref(2))
            return 0
        }
        setGlobal("work") { [unowned self] c throws(LuaFailure) in
            try requireApp(c, "; world code takes no virtual time")
            let d = try c.duration(1)
            return try waited(world.work(d, at: c.location, canPark: lua.canPark(c.L)), c)
        }
        func make(_ repeats: Bool) -> HostBody {
            { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "; the world uses \(repeats ? "every(interval, fn)" : "at(time, fn)")")
                let d = try c.duration(1, allowZero: false)
                try c.function(2)
                let id = world.makeTimer(interval: d, repeats: repeats, c.ref(2), at: c.location)
                return c.returns(.ref(timerObject(id)))
            }
        }
        installTable("timer", methods: [("every", make(true)), ("after", make(false))])

        // Timer objects ({ id = n, handle = h }) find invalidate() in a strict table; unknown
        // names still raise.
        let methods = lua.strictTable("timer", methods: [
            ("invalidate", { [unowned self] c throws(LuaFailure) in
                guard let handle = c.integerField(1, "handle") else {
                    throw c.wrongSelf("a timer", dotted: "timer:invalidate is a method: call it with a colon, t:invalidate()")
                }
                world.invalidateTimer(Int(handle))
                return 0 }),
        ], methodSeparator: ":", completes: false)
        timerMeta = lua.objectMetatable(methods: methods) { c in "timer #\(c.integerField(1, "id") ?? 0)" }
        lua.release(methods)
    }
}

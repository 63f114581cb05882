// App-side time in Lua (SPEC 4.2): `after(seconds, fn)`, `timer.every` / `timer.after` returning a
// timer with `t:invalidate()`, and `work(seconds)`. App code only; the world uses at/every.
import CLua
import LuaFetchCore

extension ScenarioRuntime {
    func installAppTimeAPI() {
        setGlobal("after") { [unowned self] c throws(LuaFailure) in
            try requireApp(c, "; the world uses at(time, fn)")
            let d = try c.duration(1)
            try c.function(2)
            world.after(d, ref(c, 2))
            return 0
        }
        setGlobal("work") { [unowned self] c throws(LuaFailure) in
            try requireApp(c, "; world code takes no virtual time")
            let d = try c.duration(1)
            if !world.work(d, at: location(c.L)) { throw .stop }
            return 0
        }
        func make(_ repeats: Bool) -> HostBody {
            { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "; the world uses \(repeats ? "every(interval, fn)" : "at(time, fn)")")
                let d = try c.duration(1, allowZero: false)
                try c.function(2)
                let id = world.makeTimer(interval: d, repeats: repeats, ref(c, 2))
                pushTimerObject(c.L, id: id)
                return 1
            }
        }
        installTable("timer", methods: [("every", make(true)), ("after", make(false))])

        // The metatable shared by timer objects: { id = n } with invalidate() and isValid.
        let L = lua.L
        pushStrictTable("timer", methods: [
            ("invalidate", { [unowned self] c throws(LuaFailure) in
                guard c.type(1) == LUA_TTABLE, lua_getfield_raw(c.L, 1, "handle") == LUA_TNUMBER else {
                    throw .error("timer:invalidate is a method: call it with a colon, t:invalidate()")
                }
                world.invalidateTimer(Int(clua_tointeger(c.L, -1)))
                return 0 }),
        ], methodSeparator: ":")
        // Timer objects index the strict table for methods; unknown names still raise.
        lua_createtable(L, 0, 3)
        lua_pushvalue(L, -2)
        lua_setfield(L, -2, "__index")
        let label = HostFunction("tostring") { c throws(LuaFailure) in
            lua_getfield_raw(c.L, 1, "id")
            lua_pushstring(c.L, "timer #\(clua_tointeger(c.L, -1))")
            return 1
        }
        lua.push(label)
        lua_setfield(L, -2, "__tostring")
        lua_pushboolean(L, 0)
        lua_setfield(L, -2, "__metatable")
        timerMetaRef = luaL_ref(L, clua_registryindex())
        clua_pop(L, 1)
    }
}

// The scenario-level Lua API (SPEC 3, 4.1, 6.0): `scenario{}`, the timeline (`at`, `every`), the
// time helpers (`seconds`…`days`, `now`), `device`, `notifications`, and the UIKit constants; plus
// installing the prelude and every API table. Uses LuaState and the World.
import CLua
import CLuaHost
import LuaFetchCore

extension ScenarioRuntime {
    // MARK: - Installation

    func installPrelude() {
        guard lua.load(Array(Prelude.source.utf8), chunkName: "=luafetch") == nil else {
            fatalError("luafetch: the prelude does not compile")
        }
        pushStrictTable("luafetch", methods: [
            ("print", { [unowned self] c throws(LuaFailure) in
                let line = c.count > 0 ? LuaCall.text(c.L, 1) : ""
                _ = clua_charge(c.L, Int64(line.utf8.count / 16))
                world.print(line); return 0 }),
            ("seed", { [unowned self] c throws(LuaFailure) in
                lua_pushinteger(c.L, scenarioSeed()); return 1 }),
            ("setReseed", { [unowned self] c throws(LuaFailure) in
                lua_pushvalue(c.L, 1); reseedRef = luaL_ref(c.L, clua_registryindex()); return 0 }),
            ("epoch", { [unowned self] c throws(LuaFailure) in
                lua_pushinteger(c.L, lua_Integer(ScenarioRuntime.epoch + world.now / 1000)); return 1 }),
            ("clock", { [unowned self] c throws(LuaFailure) in
                lua_pushnumber(c.L, Double(world.now) / 1000); return 1 }),
            ("readModule", { [unowned self] c throws(LuaFailure) in
                let found = ScenarioFile.module(try c.string(1), besides: path)
                if let src = found.source { lua_pushstring(c.L, src); notePath(found.pathOrError) } else { lua_pushnil(c.L) }
                lua_pushstring(c.L, found.pathOrError)
                return 2 }),
        ])
        clua_pushprimitives(lua.L)
        if let err = lua.protectedCall(nargs: 2, nresults: 1) { fatalError("luafetch: prelude failed: \(err)") }
        preludeExports = luaL_ref(lua.L, clua_registryindex())
        lua_rawgeti(lua.L, clua_registryindex(), lua_Integer(preludeExports))
        lua_getfield_raw(lua.L, -1, "show")
        lua.showRef = luaL_ref(lua.L, clua_registryindex())
        clua_pop(lua.L, 1)
    }

    /// 2013-09-18T00:00:00Z: `os.time()` at virtual time 0.
    static let epoch: Int64 = 1_379_462_400

    func scenarioSeed() -> lua_Integer {
        var s = SeededStream(seed: world.seed, stream: "scenario")
        return lua_Integer(Int64(bitPattern: s.next()))
    }

    /// Reseeds math.random after `scenario{ seed = ... }` (unless --seed overrides it).
    func reseedScenarioRandom(_ L: OpaquePointer) {
        guard reseedRef != LUA_NOREF else { return }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(reseedRef))
        lua_pushinteger(L, scenarioSeed())
        if clua_pcall(L, 1, 0, 0) != LUA_OK { clua_pop(L, 1) }
    }

    func installAPI() {
        installScenarioAPI()
        installAppAPI()
        installWorldActions()
        installAppTimeAPI()
        installHTTPAPI()
        installServerAPI()
        installExpectAPI()
        installStrictGlobals()
    }

    // MARK: - scenario{}, timeline, time helpers

    func installScenarioAPI() {
        setGlobal("scenario") { [unowned self] c throws(LuaFailure) in
            try requireTopLevel(c)
            try c.table(1, hint: " (write scenario { name = \"...\", ... })")
            if let first = scenarioDeclaredAt {
                throw .error("scenario{} is declared twice (first at \(first))")
            }
            scenarioDeclaredAt = location(c.L).map(\.description) ?? path
            try readScenario(c)
            return 0
        }
        setGlobal("at") { [unowned self] c throws(LuaFailure) in
            try requireWorld(c, "; app code uses after(seconds, fn) or timer.after")
            let t = try c.duration(1)
            try c.function(2, hint: " (pass a function or an action such as user.home)")
            world.at(t, ref(c, 2))
            return 0
        }
        setGlobal("every") { [unowned self] c throws(LuaFailure) in
            try requireWorld(c, "; app code uses timer.every(seconds, fn)")
            let t = try c.duration(1, allowZero: false)
            try c.function(2)
            world.every(t, ref(c, 2))
            return 0
        }
        for (name, factor) in [("seconds", 1.0), ("minutes", 60.0), ("hours", 3600.0), ("days", 86400.0)] {
            setGlobal(name) { c throws(LuaFailure) in
                let v = try c.number(1) * factor
                if v.rounded() == v && abs(v) < 9e15 { lua_pushinteger(c.L, lua_Integer(v)) } else { lua_pushnumber(c.L, v) }
                return 1
            }
        }
        setGlobal("now") { [unowned self] c throws(LuaFailure) in
            Time.seconds(world.now).push(c.L); return 1
        }
        let L = lua.L
        let constants: [(String, Any)] = [
            ("UIBackgroundTaskInvalid", 0),
            ("UIApplicationBackgroundFetchIntervalMinimum", 0),
            ("UIApplicationBackgroundFetchIntervalNever", Double.infinity),
            ("UIBackgroundFetchResultNewData", "newData"),
            ("UIBackgroundFetchResultNoData", "noData"),
            ("UIBackgroundFetchResultFailed", "failed"),
        ] + DelegateMethod.allCases.compactMap { m in m.notificationName.map { ($0, $0) } }
        for (name, value) in constants {
            switch value {
            case let i as Int: lua_pushinteger(L, lua_Integer(i))
            case let d as Double: lua_pushnumber(L, d)
            case let s as String: lua_pushstring(L, s)
            default: continue
            }
            lua_setglobal(L, name)
        }
        installTable("device", methods: [], fields: [
            "isMultitaskingSupported": { [unowned self] L in lua_pushboolean(L, world.config.multitasking ? 1 : 0) },
            "backgroundRefresh": { [unowned self] L in lua_pushboolean(L, world.config.backgroundRefresh ? 1 : 0) },
            "lowPowerMode": { [unowned self] L in lua_pushboolean(L, world.config.lowPowerMode ? 1 : 0) },
        ])
        installTable("notifications", methods: [
            ("observe", { [unowned self] c throws(LuaFailure) in
                let name = try c.string(1)
                try c.function(2)
                world.observe(name, ref(c, 2))
                return 0 }),
            ("post", { [unowned self] c throws(LuaFailure) in
                let name = try c.string(1)
                var info: ScriptRef?
                if !c.isNil(2) { info = ref(c, 2) }
                world.post(name, info: info)
                if let info { release(info) }
                return 0 }),
        ])
    }

    static let scenarioFields = ["name", "os", "seed", "duration", "fetchPolicy", "device", "budgets", "limits"]

    /// `scenario{ limits = { instructions = N, events = N, memory = BYTES } }` (SPEC 11), each a
    /// whole number within `RunLimits.ranges`.
    func readLimits(_ c: LuaCall, at t: Int32) throws(LuaFailure) {
        let L = c.L
        try c.checkFields(t, of: "scenario{ limits = ... }", known: RunLimits.names)
        var values: [String: Int64] = [:]
        for key in RunLimits.names {
            defer { clua_pop(L, 1) }
            guard lua_getfield_raw(L, t, key) > LUA_TNIL else { continue }
            let range = RunLimits.ranges[key]!
            let d = lua_type(L, -1) == LUA_TNUMBER ? clua_tonumber(L, -1) : .nan
            guard d.isFinite, d.rounded() == d, d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
                throw .error("scenario{}: limits.\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)\(key == "memory" ? " (bytes)" : "")")
            }
            values[key] = Int64(d)
        }
        applyLimits(instructions: values["instructions"], events: values["events"].map { Int($0) },
                    memory: values["memory"].map { Int($0) })
    }

    /// `scenario{ key = "name" }` for a field with a fixed set of names; nil when absent.
    func choice<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type, in L: OpaquePointer) throws(LuaFailure) -> E?
        where E.RawValue == String {
        defer { clua_pop(L, 1) }
        guard lua_getfield_raw(L, 1, key) > LUA_TNIL else { return nil }
        let given = lua_type(L, -1) == LUA_TSTRING ? LuaCall.string(L, -1) : "?"
        if let value = E(rawValue: given) { return value }
        let names = E.allCases.map(\.rawValue)
        let hint = closest(given, among: names).map { "; did you mean \($0)?" } ?? ""
        throw .error("scenario{}: unknown \(key) '\(given)'\(hint) (\(names.map { "\"\($0)\"" }.joined(separator: ", ")))")
    }

    func readScenario(_ c: LuaCall) throws(LuaFailure) {
        let L = c.L
        lua_checkstack(L, 8)
        try c.checkFields(1, of: "scenario{}", known: Self.scenarioFields)
        if lua_getfield_raw(L, 1, "name") > LUA_TNIL {
            guard lua_type(L, -1) == LUA_TSTRING else { throw .error("scenario{}: name must be a string") }
            world.config.name = LuaCall.string(L, -1)
        }
        clua_pop(L, 1)
        if let p = try choice("os", OSProfile.self, in: L) { world.config.os = p }
        if lua_getfield_raw(L, 1, "seed") > LUA_TNIL {
            guard lua_type(L, -1) == LUA_TNUMBER, clua_isinteger(L, -1) != 0 else {
                throw .error("scenario{}: seed must be an integer")
            }
            world.config.seed = clua_tointeger(L, -1)
            if world.options.seed == nil { reseedScenarioRandom(L) }
        }
        clua_pop(L, 1)
        if lua_getfield_raw(L, 1, "duration") > LUA_TNIL {
            guard lua_type(L, -1) == LUA_TNUMBER, let ms = Time.millis(fromSeconds: clua_tonumber(L, -1)), ms >= 0 else {
                throw .error("scenario{}: duration must be a number of seconds ≥ 0 (e.g. days(2))")
            }
            guard ms <= Time.maxRun else { throw .error("scenario{}: duration is at most 30 days") }
            world.config.duration = ms
        }
        clua_pop(L, 1)
        if let p = try choice("fetchPolicy", FetchPolicy.self, in: L) { world.config.fetchPolicy = p }
        if lua_getfield_raw(L, 1, "device") > LUA_TNIL {
            guard lua_type(L, -1) == LUA_TTABLE else { throw .error("scenario{}: device must be a table") }
            let t = lua_gettop(L)
            try c.checkFields(t, of: "scenario{ device = ... }", known: ["multitasking", "backgroundRefresh", "lowPowerMode"])
            for key in ["multitasking", "backgroundRefresh", "lowPowerMode"] {
                if lua_getfield_raw(L, t, key) > LUA_TNIL {
                    guard lua_type(L, -1) == LUA_TBOOLEAN else { throw .error("scenario{}: device.\(key) must be true or false") }
                    let on = lua_toboolean(L, -1) != 0
                    switch key {
                    case "multitasking": world.config.multitasking = on
                    case "backgroundRefresh": world.config.backgroundRefresh = on
                    default: world.config.lowPowerMode = on
                    }
                }
                clua_pop(L, 1)
            }
        }
        clua_pop(L, 1)
        if lua_getfield_raw(L, 1, "limits") > LUA_TNIL {
            guard lua_type(L, -1) == LUA_TTABLE else {
                throw .error("scenario{}: limits must be a table like { instructions = 1e9, events = 1e6, memory = 64 * 1024 * 1024 }")
            }
            try readLimits(c, at: lua_gettop(L))
        }
        clua_pop(L, 1)
        if lua_getfield_raw(L, 1, "budgets") > LUA_TNIL {
            guard lua_type(L, -1) == LUA_TTABLE else { throw .error("scenario{}: budgets must be a table") }
            let t = lua_gettop(L)
            try c.checkFields(t, of: "scenario{ budgets = ... }", known: Budgets.names)
            for key in Budgets.names {
                if lua_getfield_raw(L, t, key) > LUA_TNIL {
                    guard lua_type(L, -1) == LUA_TNUMBER, clua_tonumber(L, -1) >= 0, clua_tonumber(L, -1).isFinite else {
                        throw .error("scenario{}: budgets.\(key) must be a number ≥ 0 (seconds\(key == "maxTasks" ? "; a count for maxTasks" : ""))")
                    }
                    world.config.budgetOverrides.append((key, clua_tonumber(L, -1)))
                }
                clua_pop(L, 1)
            }
        }
        clua_pop(L, 1)
    }
}

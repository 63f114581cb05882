// The scenario-level Lua API (SPEC 3, 4.1, 6.0): `scenario{}`, the timeline (`at`, `every`), the
// time helpers (`seconds`…`days`, `now`), `device`, `notifications`, and the UIKit constants; plus
// installing the prelude and every API table. Uses LuaState and the World.
import LuaFetchCore

extension ScenarioRuntime {
    // MARK: - Installation

    func installPrelude() {
        guard case .success(let prelude) = lua.compilePrelude(Prelude.source, cached: reuseCompiledChunks) else {
            fatalError("luafetch: the prelude does not compile")
        }
        let hostTable = lua.strictTable("luafetch", methods: [
            ("print", { [unowned self] c throws(LuaFailure) in
                let line = c.text(1)
                c.charge(line.utf8.count / 16)
                world.print(line); return 0 }),
            ("seed", { [unowned self] c throws(LuaFailure) in
                c.returns(.integer(scenarioSeed())) }),
            ("setReseed", { [unowned self] c throws(LuaFailure) in
                reseed = c.ref(1); return 0 }),
            ("epoch", { [unowned self] c throws(LuaFailure) in
                c.returns(.integer(ScenarioRuntime.epoch + world.now / 1000)) }),
            ("clock", { [unowned self] c throws(LuaFailure) in
                c.returns(.number(Double(world.now) / 1000)) }),
            ("readModule", { [unowned self] c throws(LuaFailure) in
                let found = ScenarioFile.module(try c.string(1), besides: path)
                if let source = found.source {
                    notePath(found.pathOrError)
                    if lua.coverageOn, coverageSources[found.pathOrError] == nil { coverageSources[found.pathOrError] = Array(source.utf8) }
                }
                // The scenario itself, required while its top level runs: a require cycle.
                let cycle = found.pathOrError == path && world.context == .topLevel
                return c.returns(found.source.map { .string($0) } ?? .null, .string(found.pathOrError), .boolean(cycle)) }),
            ("swiftRuntime", swiftRuntimeEntry()),
        ], completes: false)
        let primitives = lua.primitives()
        switch lua.callHelper(prelude, [.ref(hostTable), .ref(primitives)]) {
        case .success(let exports): preludeExports = exports
        case .failure(let err): fatalError("luafetch: prelude failed: \(err.text)")
        }
        for r in [prelude, hostTable, primitives] { lua.release(r) }
        lua.show = lua.field("show", of: preludeExports)
    }

    /// 2013-09-18T00:00:00Z: `os.time()` at virtual time 0.
    static let epoch: Int64 = 1_379_462_400

    func scenarioSeed() -> Int64 {
        var s = SeededStream(seed: world.seed, stream: "scenario")
        return Int64(bitPattern: s.next())
    }

    /// Reseeds math.random after `scenario{ seed = ... }` (unless --seed overrides it).
    func reseedScenarioRandom() {
        guard let reseed else { return }
        if case .success(let r) = lua.callHelper(reseed, [.integer(scenarioSeed())]) { lua.release(r) }
    }

    func installAPI() {
        installScenarioAPI()
        installAppAPI()
        installWorldActions()
        installAppTimeAPI()
        installProcessAPI()
        installDispatchAPI()
        installBGTasksAPI()
        installURLSessionAPI()
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
            scenarioDeclaredAt = c.location.map(\.description) ?? path
            try readScenario(c)
            return 0
        }
        setGlobal("at") { [unowned self] c throws(LuaFailure) in
            try requireWorld(c, "; app code uses after(seconds, fn) or timer.after")
            let t = try c.duration(1)
            try c.function(2, hint: " (pass a function or an action such as user.home)")
            world.at(t, c.ref(2))
            return 0
        }
        setGlobal("typed") { [unowned self] c throws(LuaFailure) in
            try requireWorld(c, "; typed(t, fn) replays lines typed at the REPL's prompt")
            let t = try c.duration(1)
            try c.function(2)
            world.typed(t, c.ref(2))
            return 0
        }
        setGlobal("every") { [unowned self] c throws(LuaFailure) in
            try requireWorld(c, "; app code uses timer.every(seconds, fn)")
            let t = try c.duration(1, allowZero: false)
            try c.function(2)
            world.every(t, c.ref(2))
            return 0
        }
        for (name, factor) in [("seconds", 1.0), ("minutes", 60.0), ("hours", 3600.0), ("days", 86400.0)] {
            setGlobal(name) { c throws(LuaFailure) in
                let v = try c.number(1) * factor
                return c.returns(v.rounded() == v && abs(v) < 9e15 ? .integer(Int64(v)) : .number(v))
            }
        }
        setGlobal("now") { [unowned self] c throws(LuaFailure) in
            c.returns(.seconds(Time.seconds(world.now)))
        }
        let constants: [(String, LuaValue)] = [
            ("UIBackgroundTaskInvalid", .integer(0)),
            ("UIApplicationBackgroundFetchIntervalMinimum", .integer(0)),
            ("UIApplicationBackgroundFetchIntervalNever", .number(.infinity)),
            ("UIBackgroundFetchResultNewData", .string("newData")),
            ("UIBackgroundFetchResultNoData", .string("noData")),
            ("UIBackgroundFetchResultFailed", .string("failed")),
        ] + DelegateMethod.allCases.map { ($0.notificationName, .string($0.notificationName)) }
          + SceneMethod.allCases.map { ($0.notificationName, .string($0.notificationName)) }
        for (name, value) in constants { lua.setGlobal(name, value) }
        installTable("device", methods: [], fields: [
            "isMultitaskingSupported": { [unowned self] in .boolean(world.device.multitasking) },
            "backgroundRefresh": { [unowned self] in .boolean(world.device.backgroundRefresh) },
            "lowPowerMode": { [unowned self] in .boolean(world.device.lowPowerMode) },
            "debuggerAttached": { [unowned self] in .boolean(world.debugger) },
        ])
        installTable("notifications", methods: [
            ("observe", { [unowned self] c throws(LuaFailure) in
                let name = try c.string(1)
                try c.function(2)
                world.observe(name, c.ref(2))
                return 0 }),
            ("post", { [unowned self] c throws(LuaFailure) in
                let name = try c.string(1)
                let info = c.isNil(2) ? nil : c.ref(2)
                world.post(name, info: info)  // the World releases info
                return 0 }),
        ])
    }

    /// `scenario{...}` (SPEC 3).
    static let scenarioSpec = OptionSpec(what: "scenario{}", unknownIn: "scenario{}", fields: [
        Field("name", .string, must: "must be a string"),
        Field("os", .choice(OSProfile.allCases.map(\.rawValue), noun: "os", listed: true), must: "must be a string"),
        Field("seed", .integer, must: "must be an integer"),
        Field("duration", .number, must: "must be a number of seconds ≥ 0 (e.g. days(2))",
              valid: { Time.millis(fromSeconds: $0).map { $0 >= 0 } ?? false }),
        Field("fetchPolicy", .choice(FetchPolicy.allCases.map(\.rawValue), noun: "fetchPolicy", listed: true), must: "must be a string"),
        Field("device", .options(OptionSpec(what: "scenario{}", unknownIn: "scenario{ device = ... }", fields:
            ["multitasking", "backgroundRefresh", "lowPowerMode"].map { Field($0, .boolean, must: "must be true or false") }
            + [Field("idleWindows", .list(.list(.number)), must: "must be a list of daily windows in seconds after midnight, like { { hours(1), hours(5) } }")])),
              must: "must be a table"),
        Field("budgets", .options(OptionSpec(what: "scenario{}", unknownIn: "scenario{ budgets = ... }", fields:
            Budgets.names.map { key in
                Field(key, .number, must: "must be a number ≥ 0 (seconds\(key == "maxTasks" ? "; a count for maxTasks" : ""))",
                      valid: { $0 >= 0 && $0.isFinite })
            })), must: "must be a table"),
        Field("limits", .options(OptionSpec(what: "scenario{}", unknownIn: "scenario{ limits = ... }", fields:
            RunLimits.names.map { key in
                let range = RunLimits.ranges[key]!
                return Field(key, .number,
                             must: "must be a whole number from \(range.lowerBound) to \(range.upperBound)\(key == "memory" ? " (bytes)" : "")",
                             valid: { $0.isFinite && $0.rounded() == $0 && $0 >= Double(range.lowerBound) && $0 <= Double(range.upperBound) })
            })), must: "must be a table like { instructions = 1e9, events = 1e6, memory = 64 * 1024 * 1024 }"),
        Field("defaults", .table, must: "must be a table of UserDefaults keys and values, like { onboarded = true }"),
        Field("debugger", .boolean, must: "must be true or false"),
    ])

    func readScenario(_ c: LuaCall) throws(LuaFailure) {
        let o = try c.read(1, Self.scenarioSpec, refs: lua.keepTop(_:located:))
        if let name = o.string("name") { world.config.name = name }
        if let os = o.string("os").flatMap(OSProfile.init(rawValue:)) { world.config.os = os }
        if let seed = o.integer("seed") {
            world.config.seed = seed
            if world.options.seed == nil { reseedScenarioRandom() }
        }
        if let d = o.number("duration"), let ms = Time.millis(fromSeconds: d) {
            guard ms <= Time.maxRun else { throw .error("scenario{}: duration is at most 30 days") }
            world.config.duration = ms
        }
        if let on = o.boolean("debugger") { world.config.debugger = on }
        if let p = o.string("fetchPolicy").flatMap(FetchPolicy.init(rawValue:)) { world.config.fetchPolicy = p }
        if let device = o.options("device") {
            if let on = device.boolean("multitasking") { world.config.device.multitasking = on }
            if let on = device.boolean("backgroundRefresh") { world.config.device.backgroundRefresh = on }
            if let on = device.boolean("lowPowerMode") { world.config.device.lowPowerMode = on }
            if let windows = device.list("idleWindows") {
                var ranges: [Range<Millis>] = []
                for (i, w) in windows.enumerated() {
                    guard case .list(let pair) = w, pair.count == 2, case .number(let from) = pair[0], case .number(let to) = pair[1],
                          let a = Time.millis(fromSeconds: from), let b = Time.millis(fromSeconds: to), a >= 0, a < b, b <= Time.day else {
                        throw .error("scenario{}: device.idleWindows[\(i + 1)] must be { from, to } with 0 ≤ from < to ≤ 86400 seconds after midnight")
                    }
                    ranges.append(a..<b)
                }
                world.config.device.idleWindows = ranges
            }
        }
        if let limits = o.options("limits") {
            applyLimits(instructions: limits.number("instructions").map { Int64($0) },
                        events: limits.number("events").map { Int($0) },
                        memory: limits.number("memory").map { Int($0) })
        }
        if let table = o.ref("defaults") {
            defer { release(table) }
            try setDefaults(from: table)
        }
        if let budgets = o.options("budgets") {
            for key in Budgets.names {
                if let v = budgets.number(key) { world.config.budgetOverrides.append((key, v)) }
            }
        }
    }
}

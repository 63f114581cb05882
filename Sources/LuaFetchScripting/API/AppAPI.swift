// The `app` table (SPEC 4): `app{...}` declares the UIApplicationDelegate (called as the table's
// __call), and the same object is the UIApplication handed to every handler: `app.state`,
// `app.backgroundTimeRemaining`, `app:beginBackgroundTask`, `app:endBackgroundTask`,
// `app:setMinimumBackgroundFetchInterval`; plus the fetch `completionHandler`. Uses the World.
import LuaFetchCore

extension ScenarioRuntime {
    static let knownModes = ["fetch", "remote-notification", "audio", "location", "voip", "processing",
                             "bluetooth-central", "bluetooth-peripheral", "external-accessory", "newsstand-content"]

    /// The delegate fields: UIApplicationDelegate methods, the methods of grant kinds, and the
    /// scene delegate (`scene = { willConnect = ..., ... }`, SPEC 16).
    static let delegateFields = (DelegateMethod.allCases.map(\.rawValue) + GrantKind.allCases.compactMap(\.info.handler)).map {
        Field($0, .function, must: "must be a function", showType: true)
    } + [Field("scene", .options(OptionSpec(what: "app{}", unknownIn: "scene = { ... }", fields: SceneMethod.allCases.map {
        Field($0.rawValue, .function, must: "must be a function(scene)", showType: true)
    })), must: "must be a table of scene delegate methods, like { didEnterBackground = function(scene) ... end }")]

    /// The static fields of `app{}` (everything else is a delegate field, SPEC 12.1).
    static let staticFields = [
        Field("backgroundModes", .list(.choice(knownModes, noun: "background mode", listed: false)), must: "must be a list of strings, like { \"fetch\" }"),
        Field("delegate", .function, must: "must be a function(app) that returns the delegate's methods", showType: true),
        Field("permittedIdentifiers", .list(.string), must: "must be a list of strings (BGTaskSchedulerPermittedIdentifiers)"),
        Field("scenes", .boolean, must: "must be true or false"),
    ]

    /// `app{...}` (SPEC 4, 12.1).
    static let appSpec = OptionSpec(what: "app{}", unknownIn: "app{}", fields: staticFields + delegateFields)

    /// The table `app{ delegate = function(app) ... end }` returns at each launch.
    static let delegateSpec = OptionSpec(what: "delegate()", unknownIn: "the table delegate() returned", fields: delegateFields)

    func installAppAPI() {
        appObject = lua.strictTable("app", methods: [
            ("beginBackgroundTask", { [unowned self] c throws(LuaFailure) in
                try checkSelf(c)
                try requireApp(c, "")
                var name: String?
                var handlerIndex: Int32 = 2
                if c.isString(2) { name = try c.string(2); handlerIndex = 3 }
                var handler: ScriptRef?
                if !c.isNil(handlerIndex) {
                    try c.function(handlerIndex, hint: " (the expiration handler, or nil)")
                    handler = c.ref(handlerIndex)
                }
                let id = world.beginBackgroundTask(name: name, handler: handler, at: c.location)
                if id == 0, let handler { release(handler) }
                return c.returns(.integer(Int64(id))) }),
            ("endBackgroundTask", { [unowned self] c throws(LuaFailure) in
                try checkSelf(c)
                try requireApp(c, "")
                let id = try c.integer(2)
                world.endBackgroundTask(Int(id), at: c.location)
                return 0 }),
            ("setMinimumBackgroundFetchInterval", { [unowned self] c throws(LuaFailure) in
                try checkSelf(c)
                try requireApp(c, "")
                let s = try c.number(2, hint: " (seconds, or UIApplicationBackgroundFetchIntervalMinimum / Never)")
                guard s >= 0, !s.isNaN else { throw c.badArgument(2, "an interval ≥ 0 expected, got \(formatNumber(s))") }
                if let crash = world.setMinimumBackgroundFetchInterval(s) { throw .error(crash) }
                return 0 }),
        ], fields: [
            "state": { [unowned self] in .string(world.state.rawValue) },
            "backgroundTimeRemaining": { [unowned self] in .seconds(world.backgroundTimeRemaining) },
        ], call: { [unowned self] c throws(LuaFailure) in
            try declareApp(c)
            return 0
        }, methodSeparator: ":")
        lua.setGlobal("app", .ref(appObject))
    }

    /// `app:method(...)` called as `app.method(...)`, or on something else than the app, passes
    /// the wrong self: say how to call it.
    func checkSelf(_ c: LuaCall) throws(LuaFailure) {
        guard c.isSame(1, as: appObject) else {
            throw c.wrongSelf("the app", dotted: "\(c.name) is a method: call it with a colon, app:\(c.methodName)(...)")
        }
    }

    /// `app { backgroundModes = {...}, didFinishLaunching = function(app, launch) ... end, ... }`.
    func declareApp(_ c: LuaCall) throws(LuaFailure) {
        try requireTopLevel(c)
        try c.table(2, hint: " (write app { didFinishLaunching = function(app, launch) ... end, ... })")
        if let first = appDeclaredAt { throw .error("app{} is declared twice (first at \(first))") }
        var refs: [ScriptRef] = []
        let o: Options
        do {
            o = try c.read(2, Self.appSpec) { L, located in let r = lua.keepTop(L, located: located); refs.append(r); return r }
        } catch {
            for r in refs { release(r) }
            throw error
        }
        var decl = AppDeclaration()
        decl.location = c.location
        for case .string(let mode) in o.list("backgroundModes") ?? [] { decl.backgroundModes.append(mode) }
        decl.factory = o.ref("delegate")
        for case .string(let id) in o.list("permittedIdentifiers") ?? [] { decl.permittedIdentifiers.append(id) }
        decl.scenes = o.boolean("scenes") ?? false
        if let scene = o.options("scene") {
            for m in SceneMethod.allCases { if let fn = scene.ref(m.rawValue) { decl.sceneDelegate[m] = fn } }
        }
        if decl.factory != nil, let given = Self.delegateFields.first(where: { o[$0.name] != nil }) {
            for r in refs { release(r) }
            throw .error("app{}: give either delegate = function(app) ... return { ... } end or delegate fields such as \(given.name), not both (move \(given.name) into the table delegate returns)")
        }
        for method in DelegateMethod.allCases {
            if let fn = o.ref(method.rawValue) { decl.delegate[method] = fn }
        }
        for kind in GrantKind.allCases {
            if let name = kind.info.handler, let fn = o.ref(name) { decl.grantHandlers[kind] = fn }
        }
        appDeclaredAt = decl.location?.description ?? path
        world.app = decl
    }

    /// Runs `app{ delegate = function(app) ... end }` for a new process (SPEC 12.1).
    public func makeDelegate(_ factory: ScriptRef) -> Result<ProcessDelegate, ScriptFailure> {
        let read = lua.options(returnedBy: factory, [.ref(appObject)], spec: Self.delegateSpec,
                               expected: "a table of delegate methods like { didFinishLaunching = function(app, launch) ... end }") { r in
            if case .failed(let f) = outcome(r, fallback: location(of: factory)) { return f }
            return ScriptFailure(kind: .error, message: "")
        }
        switch read {
        case .failure(let f): return .failure(f)
        case .success(let (o, _)):
            var d = ProcessDelegate()
            for method in DelegateMethod.allCases { d.methods[method] = o.ref(method.rawValue) }
            for kind in GrantKind.allCases { if let name = kind.info.handler { d.grantHandlers[kind] = o.ref(name) } }
            if let scene = o.options("scene") {
                for m in SceneMethod.allCases { d.sceneMethods[m] = scene.ref(m.rawValue) }
            }
            return .success(d)
        }
    }

    /// The completion handler of a grant (performFetch's `completionHandler`).
    func completionHandler(_ key: GrantKey) -> HostFunction {
        HostFunction("completionHandler") { [unowned self] c throws(LuaFailure) in
            try requireApp(c, "")
            if !world.completeGrant(key, with: c.completionValue(1), at: c.location) { throw .stop }
            return 0
        }
    }
}

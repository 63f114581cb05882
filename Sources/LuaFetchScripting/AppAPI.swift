// The `app` table (SPEC 4): `app{...}` declares the UIApplicationDelegate (called as the table's
// __call), and the same object is the UIApplication handed to every handler: `app.state`,
// `app.backgroundTimeRemaining`, `app:beginBackgroundTask`, `app:endBackgroundTask`,
// `app:setMinimumBackgroundFetchInterval`; plus the fetch `completionHandler`. Uses the World.
import CLua
import LuaFetchCore

extension ScenarioRuntime {
    static let delegateFields = DelegateMethod.allCases.map(\.rawValue)
    static let appFields = ["backgroundModes"] + delegateFields
    static let knownModes = ["fetch", "remote-notification", "audio", "location", "voip", "processing",
                             "bluetooth-central", "bluetooth-peripheral", "external-accessory", "newsstand-content"]

    func installAppAPI() {
        pushStrictTable("app", methods: [
            ("beginBackgroundTask", { [unowned self] c throws(LuaFailure) in
                try checkSelf(c)
                try requireApp(c, "")
                var name: String?
                var handlerIndex: Int32 = 2
                if c.type(2) == LUA_TSTRING { name = LuaCall.string(c.L, 2); handlerIndex = 3 }
                var handler: ScriptRef?
                if !c.isNil(handlerIndex) {
                    try c.function(handlerIndex, hint: " (the expiration handler, or nil)")
                    handler = ref(c, handlerIndex)
                }
                let id = world.beginBackgroundTask(name: name, handler: handler, at: location(c.L))
                if id == 0, let handler { release(handler) }
                lua_pushinteger(c.L, lua_Integer(id))
                return 1 }),
            ("endBackgroundTask", { [unowned self] c throws(LuaFailure) in
                try checkSelf(c)
                try requireApp(c, "")
                let id = try c.integer(2)
                world.endBackgroundTask(Int(id), at: location(c.L))
                return 0 }),
            ("setMinimumBackgroundFetchInterval", { [unowned self] c throws(LuaFailure) in
                try checkSelf(c)
                try requireApp(c, "")
                let s = try c.number(2, hint: " (seconds, or UIApplicationBackgroundFetchIntervalMinimum / Never)")
                guard s >= 0, !s.isNaN else { throw .error("bad argument #2 to 'app:setMinimumBackgroundFetchInterval' (an interval ≥ 0 expected, got \(formatNumber(s)))") }
                if let crash = world.setMinimumBackgroundFetchInterval(s) { throw .error(crash) }
                return 0 }),
        ], fields: [
            "state": { [unowned self] L in
                lua_pushstring(L, world.state.rawValue) },
            "backgroundTimeRemaining": { [unowned self] L in
                world.backgroundTimeRemaining.push(L) },
        ], call: { [unowned self] c throws(LuaFailure) in
            try declareApp(c)
            return 0
        }, methodSeparator: ":")
        lua_pushvalue(lua.L, -1)
        appObjectRef = luaL_ref(lua.L, clua_registryindex())
        lua_setglobal(lua.L, "app")
    }

    /// `app:method(...)` called as `app.method(...)` passes the wrong self: say how to call it.
    func checkSelf(_ c: LuaCall) throws(LuaFailure) {
        lua_rawgeti(c.L, clua_registryindex(), lua_Integer(appObjectRef))
        let same = lua_rawequal(c.L, 1, -1) != 0
        clua_pop(c.L, 1)
        guard same else {
            let method = c.name.split(separator: ":").last.map(String.init) ?? c.name
            throw .error("\(c.name) is a method: call it with a colon, app:\(method)(...)")
        }
    }

    /// `app { backgroundModes = {...}, didFinishLaunching = function(app, launch) ... end, ... }`.
    func declareApp(_ c: LuaCall) throws(LuaFailure) {
        try requireTopLevel(c)
        try c.table(2, hint: " (write app { didFinishLaunching = function(app, launch) ... end, ... })")
        if let first = appDeclaredAt { throw .error("app{} is declared twice (first at \(first))") }
        let L = c.L
        lua_checkstack(L, 8)
        try c.checkFields(2, of: "app{}", known: Self.appFields)
        var decl = AppDeclaration()
        decl.location = location(L)
        if lua_getfield_raw(L, 2, "backgroundModes") > LUA_TNIL {
            guard lua_type(L, -1) == LUA_TTABLE else {
                throw .error("app{}: backgroundModes must be a list of strings, like { \"fetch\" }")
            }
            let n = lua_rawlen(L, -1)
            if n > 0 {
                for i in 1...n {
                    lua_rawgeti(L, -1, lua_Integer(i))
                    guard lua_type(L, -1) == LUA_TSTRING else { throw .error("app{}: backgroundModes[\(i)] must be a string") }
                    let mode = LuaCall.string(L, -1)
                    guard Self.knownModes.contains(mode) else {
                        let hint = closest(mode, among: Self.knownModes).map { "; did you mean \($0)?" } ?? ""
                        throw .error("app{}: unknown background mode '\(mode)'\(hint)")
                    }
                    decl.backgroundModes.append(mode)
                    clua_pop(L, 1)
                }
            }
        }
        clua_pop(L, 1)
        for method in DelegateMethod.allCases {
            if lua_getfield_raw(L, 2, method.rawValue) > LUA_TNIL {
                guard lua_type(L, -1) == LUA_TFUNCTION else {
                    throw .error("app{}: \(method.rawValue) must be a function, got \(String(cString: lua_typename(L, lua_type(L, -1))))")
                }
                decl.delegate[method] = makeRef(L)
            } else {
                clua_pop(L, 1)
            }
        }
        appDeclaredAt = decl.location?.description ?? path
        world.app = decl
    }

    /// The `completionHandler` given to performFetch for fetch `id`.
    func pushCompletionHandler(_ L: OpaquePointer, fetchID id: Int) {
        LuaState.push(HostFunction("completionHandler") { [unowned self] c throws(LuaFailure) in
            try requireApp(c, "")
            let result: String
            switch c.type(1) {
            case LUA_TSTRING: result = LuaCall.string(c.L, 1)
            case LUA_TNONE, LUA_TNIL: result = "nil"
            case LUA_TNUMBER: result = LuaCall.string(c.L, 1)
            default: result = c.typeName(1)
            }
            let valid = c.type(1) == LUA_TSTRING ? result : nil
            if !world.completeFetch(id, result: valid ?? "<\(result)>", at: location(c.L)) { throw .stop }
            return 0
        }, on: L)
    }
}

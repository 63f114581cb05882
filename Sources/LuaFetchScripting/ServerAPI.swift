// Fake servers in Lua (SPEC 7): `server "host" { latency, jitter, failureRate }` returns a server
// object with `srv:route("METHOD /path", handler | response | {responses...})` and
// `srv:down(from, to)`. Declarations belong to top-level code; handlers run in world time.
import CLua
import LuaFetchCore

extension ScenarioRuntime {
    static let serverFields = ["latency", "jitter", "failureRate"]

    func installServerAPI() {
        setGlobal("server") { [unowned self] c throws(LuaFailure) in
            try requireTopLevel(c)
            let host = try c.string(1)
            guard ParsedURL("https://\(host)/") != nil, !host.contains("/") else {
                throw .error("server: '\(host)' is not a host name like \"api.example.test\"")
            }
            guard let srv = world.declareServer(host: host, latency: 0, jitter: 0, failureRate: 0) else {
                throw .error("server \"\(host)\" is declared twice")
            }
            if c.count >= 2 && !c.isNil(2) {  // server("host", { ... }) also works
                try configure(srv, c, options: 2)
            }
            pushServerObject(srv, on: c.L)
            return 1
        }
    }

    func pushServerObject(_ srv: FakeServer, on L: OpaquePointer) {
        let name = "server \"\(srv.host)\""
        pushStrictTable(name, methods: [
            ("route", { [unowned self] c throws(LuaFailure) in
                try checkServerSelf(c)
                try requireTopLevel(c)
                let pattern = try c.string(2)
                let parts = pattern.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count == 2, parts[0].allSatisfy({ $0.isLetter }), parts[1].hasPrefix("/") else {
                    throw .error("\(c.name): the route must look like \"GET /path\", got \"\(pattern)\"")
                }
                switch c.type(3) {
                case LUA_TFUNCTION:
                    world.addRoute(srv, method: String(parts[0]), path: String(parts[1]), handler: ref(c, 3), responses: [])
                case LUA_TTABLE:
                    var list: [ScriptRef] = []
                    let L = c.L
                    if lua_rawgeti(L, 3, 1) == LUA_TTABLE {  // a list of responses, served in order
                        clua_pop(L, 1)
                        let n = lua_rawlen(L, 3)
                        for i in 1...n {
                            guard lua_rawgeti(L, 3, lua_Integer(i)) == LUA_TTABLE else {
                                throw .error("\(c.name): response #\(i) of \"\(pattern)\" must be a table like { status = 200 }")
                            }
                            list.append(makeRef(L))
                        }
                    } else {
                        clua_pop(L, 1)
                        try c.checkFields(3, of: "the response of \"\(pattern)\"", known: ["status", "headers", "body"])
                        list.append(ref(c, 3))
                    }
                    world.addRoute(srv, method: String(parts[0]), path: String(parts[1]), handler: nil, responses: list)
                default:
                    throw c.bad(3, "function or response table", hint: " (a handler function(request), { status = 200, body = ... }, or a list of responses)")
                }
                return 0 }),
            ("down", { [unowned self] c throws(LuaFailure) in
                try checkServerSelf(c)
                try requireTopLevel(c)
                let from = try c.duration(2)
                let to = try c.duration(3)
                guard to >= from else { throw .error("\(c.name): the outage must end after it starts (from \(formatNumber(Double(from) / 1000)) s, to \(formatNumber(Double(to) / 1000)) s)") }
                world.addOutage(srv, from: from, to: to)
                return 0 }),
        ], fields: [
            "host": { L in lua_pushstring(L, srv.host) },
            "latency": { L in lua_pushnumber(L, Double(srv.latency) / 1000) },
            "jitter": { L in lua_pushnumber(L, Double(srv.jitter) / 1000) },
            "failureRate": { L in lua_pushnumber(L, srv.failureRate) },
        ], call: { [unowned self] c throws(LuaFailure) in
            try configure(srv, c, options: 2)
            lua_settop(c.L, 1)
            return 1
        }, methodSeparator: ":", on: L)
    }

    func checkServerSelf(_ c: LuaCall) throws(LuaFailure) {
        guard c.type(1) == LUA_TTABLE, lua_getmetatable(c.L, 1) != 0 else {
            let method = c.name.split(separator: ":").last.map(String.init) ?? c.name
            throw .error("\(c.name) is a method: call it with a colon, srv:\(method)(...)")
        }
        clua_pop(c.L, 1)
    }

    /// `server "host" { latency = s, jitter = s, failureRate = p }`.
    func configure(_ srv: FakeServer, _ c: LuaCall, options i: Int32) throws(LuaFailure) {
        try c.table(i, hint: " (write server \"host\" { latency = 0.2 })")
        try c.checkFields(i, of: "server \"\(srv.host)\" {}", known: Self.serverFields)
        let L = c.L
        for key in Self.serverFields {
            guard lua_getfield_raw(L, i, key) > LUA_TNIL else { clua_pop(L, 1); continue }
            guard lua_type(L, -1) == LUA_TNUMBER else {
                throw .error("server \"\(srv.host)\": \(key) must be a number")
            }
            let v = clua_tonumber(L, -1)
            clua_pop(L, 1)
            if key == "failureRate" {
                guard v >= 0, v <= 1 else { throw .error("server \"\(srv.host)\": failureRate must be between 0 and 1, got \(formatNumber(v))") }
                srv.failureRate = v
            } else {
                guard let ms = Time.millis(fromSeconds: v), ms >= 0 else {
                    throw .error("server \"\(srv.host)\": \(key) must be a number of seconds ≥ 0, got \(formatNumber(v))")
                }
                if key == "latency" { srv.latency = ms } else { srv.jitter = ms }
            }
        }
    }
}

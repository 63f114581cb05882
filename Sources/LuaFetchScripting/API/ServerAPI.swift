// Fake servers in Lua (SPEC 7): `server "host" { latency, jitter, failureRate }` returns a server
// object with `srv:route("METHOD /path", handler | response | {responses...})` and
// `srv:down(from, to)`. Declarations belong to top-level code; handlers run in world time.
import LuaFetchCore

extension ScenarioRuntime {
    /// The fields of a route's response table, with their LuaLS types (`luafetch types` writes
    /// them as an exact class).
    static let responseFields: [(String, String, String)] = [
        ("status", "integer", "The status (200 by default; 100–599)."),
        ("headers", "table<string, string>", "Headers."),
        ("body", "any", "The body (a copy reaches the app)."),
        ("transfer", "number", "Seconds the body takes on the wire (≥ 0)."),
    ]
    /// `server "host" {...}`.
    static func serverSpec(_ host: String) -> OptionSpec {
        OptionSpec(what: "server \"\(host)\"", unknownIn: "server \"\(host)\" {}", fields: [
            Field("latency", .number, must: "must be a number", valid: { Time.millis(fromSeconds: $0).map { $0 >= 0 } ?? false },
                  mustWhenInvalid: "must be a number of seconds ≥ 0"),
            Field("jitter", .number, must: "must be a number", valid: { Time.millis(fromSeconds: $0).map { $0 >= 0 } ?? false },
                  mustWhenInvalid: "must be a number of seconds ≥ 0"),
            Field("failureRate", .number, must: "must be a number", valid: { $0 >= 0 && $0 <= 1 },
                  mustWhenInvalid: "must be between 0 and 1"),
        ])
    }

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
            return c.returns(.ref(serverObject(srv)))
        }
    }

    func serverObject(_ srv: FakeServer) -> ScriptRef {
        let name = "server \"\(srv.host)\""
        return lua.strictTable(name, methods: [
            ("route", { [unowned self] c throws(LuaFailure) in
                try checkServerSelf(c)
                try requireTopLevel(c)
                let pattern = try c.string(2)
                var parts = pattern.split(separator: " ", omittingEmptySubsequences: true)
                if parts == ["*"] { parts = ["*", "*"] }  // any request (the routes before it win)
                guard parts.count == 2, parts[0].allSatisfy({ $0.isLetter }) || parts[0] == "*", parts[1].hasPrefix("/") || parts[1] == "*" else {
                    throw .error("\(c.name): the route must look like \"GET /path\", \"GET *\" (any path) or \"*\" (any request), got \"\(pattern)\"")
                }
                let (method, path) = (String(parts[0]), String(parts[1]))
                if c.isFunction(3) {
                    world.addRoute(srv, method: method, path: path, handler: c.ref(3), responses: [])
                } else if c.isTable(3) {
                    var list: [ScriptRef] = []
                    if let items = c.sequence(3) {  // a list of responses, served in order
                        for (i, isTable) in items.enumerated() where !isTable {
                            throw .error("\(c.name): response #\(i + 1) of \"\(pattern)\" must be a table like { status = 200 }")
                        }
                        list = c.refs(ofItemsOf: 3)
                    } else {
                        try c.checkFields(3, of: "the response of \"\(pattern)\"", known: Self.responseFields.map(\.0))
                        list.append(c.ref(3))
                    }
                    world.addRoute(srv, method: method, path: path, handler: nil, responses: list)
                } else {
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
            "host": { .string(srv.host) },
            "latency": { .number(Double(srv.latency) / 1000) },
            "jitter": { .number(Double(srv.jitter) / 1000) },
            "failureRate": { .number(srv.failureRate) },
        ], call: { [unowned self] c throws(LuaFailure) in
            try configure(srv, c, options: 2)
            c.keep(1)
            return 1
        }, methodSeparator: ":", completes: false)
    }

    func checkServerSelf(_ c: LuaCall) throws(LuaFailure) {
        guard c.isObject(1) else {
            throw c.wrongSelf("a server", dotted: "\(c.name) is a method: call it with a colon, srv:\(c.methodName)(...)")
        }
    }

    /// `server "host" { latency = s, jitter = s, failureRate = p }`.
    func configure(_ srv: FakeServer, _ c: LuaCall, options i: Int32) throws(LuaFailure) {
        try c.table(i, hint: " (write server \"host\" { latency = 0.2 })")
        let o = try c.read(i, Self.serverSpec(srv.host), refs: lua.keepTop(_:located:))
        if let v = o.number("latency"), let ms = Time.millis(fromSeconds: v) { srv.latency = ms }
        if let v = o.number("jitter"), let ms = Time.millis(fromSeconds: v) { srv.jitter = ms }
        if let v = o.number("failureRate") { srv.failureRate = v }
    }
}

// The app's network in Lua (SPEC 4.5): `http.get(url, callback)` and
// `http.request({ method, url, headers, body, timeout }, callback)`. The request becomes a Lua
// table `{ method, url, path, query, headers, body }` (body copied) that the server's route sees.
import CLua
import LuaFetchCore

extension ScenarioRuntime {
    static let requestFields = ["method", "url", "headers", "body", "timeout"]

    func installHTTPAPI() {
        installTable("http", methods: [
            ("get", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                let url = try c.string(1)
                try c.function(2, hint: " (the callback, function(response, err))")
                lua_settop(c.L, 2)
                lua_createtable(c.L, 0, 0)  // no headers, no body
                try send(c, method: "GET", url: url, timeout: 60 * Time.second, headersAndBodyAt: 3, callback: 2)
                return 0 }),
            ("request", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                try c.table(1, hint: " (write http.request({ method = \"POST\", url = \"https://...\" }, callback))")
                try c.function(2, hint: " (the callback, function(response, err))")
                try c.checkFields(1, of: "http.request{}", known: Self.requestFields)
                let L = c.L
                var method = "GET"
                if lua_getfield_raw(L, 1, "method") > LUA_TNIL {
                    guard lua_type(L, -1) == LUA_TSTRING else { throw .error("http.request: method must be a string like \"GET\" or \"POST\"") }
                    method = LuaCall.string(L, -1).uppercased()
                }
                clua_pop(L, 1)
                guard lua_getfield_raw(L, 1, "url") == LUA_TSTRING else {
                    throw .error("http.request: url is required and must be a string like \"https://api.example.test/items\"")
                }
                let url = LuaCall.string(L, -1)
                clua_pop(L, 1)
                var timeout = 60 * Time.second
                if lua_getfield_raw(L, 1, "timeout") > LUA_TNIL {
                    guard lua_type(L, -1) == LUA_TNUMBER, let ms = Time.millis(fromSeconds: clua_tonumber(L, -1)), ms > 0 else {
                        throw .error("http.request: timeout must be a positive number of seconds")
                    }
                    timeout = ms
                }
                clua_pop(L, 1)
                if lua_getfield_raw(L, 1, "headers") > LUA_TNIL, lua_type(L, -1) != LUA_TTABLE {
                    throw .error("http.request: headers must be a table of strings")
                }
                clua_pop(L, 1)
                lua_settop(L, 2)
                lua_pushvalue(L, 1)
                try send(c, method: method, url: url, timeout: timeout, headersAndBodyAt: 3, callback: 2)
                return 0 }),
        ])
    }

    /// Builds the request table from the options at `opts` and hands the request to the World.
    func send(_ c: LuaCall, method: String, url text: String, timeout: Millis, headersAndBodyAt opts: Int32,
              callback: Int32) throws(LuaFailure) {
        guard let url = ParsedURL(text) else {
            throw .error("\(c.name): '\(text)' is not a URL like https://api.example.test/path")
        }
        let L = c.L
        lua_checkstack(L, 8)
        lua_createtable(L, 0, 6)
        let req = lua_gettop(L)
        lua_pushstring(L, method); lua_setfield(L, req, "method")
        lua_pushstring(L, text); lua_setfield(L, req, "url")
        lua_pushstring(L, url.path); lua_setfield(L, req, "path")
        pushQuery(L, url.query); lua_setfield(L, req, "query")
        for key in ["headers", "body"] {
            lua_getfield_raw(L, opts, key)
            if lua_type(L, -1) <= LUA_TNIL && key == "headers" { clua_pop(L, 1); clua_newtable(L) }
            if let f = copyTop(L, for: nil) { throw f.kind == .memoryCap ? .stop : .error(f.message) }
            lua_setfield(L, req, key)
        }
        let value = makeRef(L)
        let cb = ref(c, callback)
        _ = world.send(method: method, url: url, timeout: timeout, callback: cb, value: value, at: location(L))
    }

    /// `a=1&b=two` → `{ a = "1", b = "two" }` (percent-decoded).
    func pushQuery(_ L: OpaquePointer, _ query: String?) {
        clua_newtable(L)
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            lua_pushstring(L, percentDecode(String(parts[0])))
            lua_pushstring(L, parts.count > 1 ? percentDecode(String(parts[1])) : "")
            lua_rawset(L, -3)
        }
    }

    func percentDecode(_ s: String) -> String {
        var out: [UInt8] = []
        var bytes = Array(s.utf8)[...]
        while let b = bytes.popFirst() {
            if b == UInt8(ascii: "+") { out.append(0x20); continue }
            if b == UInt8(ascii: "%"), bytes.count >= 2,
               let v = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                out.append(v); bytes = bytes.dropFirst(2); continue
            }
            out.append(b)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

// The app's network in Lua (SPEC 4.5): `http.get(url, callback)` and
// `http.request({ method, url, headers, body, timeout }, callback)`. The request becomes a Lua
// table `{ method, url, path, query, headers, body }` (headers and body copied) that the server's
// route sees.
import LuaFetchCore

extension ScenarioRuntime {
    /// `http.request{...}`.
    static let requestSpec = OptionSpec(what: "http.request", unknownIn: "http.request{}", fields: [
        Field("method", .string, must: "must be a string like \"GET\" or \"POST\""),
        Field("url", .string, must: "is required and must be a string like \"https://api.example.test/items\""),
        Field("headers", .table, must: "must be a table of strings"),
        Field("body", .any, must: ""),
        Field("timeout", .number, must: "must be a positive number of seconds",
              valid: { Time.millis(fromSeconds: $0).map { $0 > 0 } ?? false }),
    ])

    func installHTTPAPI() {
        installTable("http", methods: [
            ("get", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                let url = try c.string(1)
                try c.function(2, hint: " (the callback, function(response, err))")
                try send(c, method: "GET", url: url, timeout: 60 * Time.second, headers: nil, body: nil, callback: 2)
                return 0 }),
            ("request", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                try c.table(1, hint: " (write http.request({ method = \"POST\", url = \"https://...\" }, callback))")
                try c.function(2, hint: " (the callback, function(response, err))")
                var refs: [ScriptRef] = []
                defer { for r in refs { release(r) } }
                let o = try c.read(1, Self.requestSpec) { L, located in let r = lua.keepTop(L, located: located); refs.append(r); return r }
                guard let url = o.string("url") else {
                    throw .error("http.request: url is required and must be a string like \"https://api.example.test/items\"")
                }
                let timeout = o.number("timeout").flatMap { Time.millis(fromSeconds: $0) } ?? 60 * Time.second
                try send(c, method: o.string("method")?.uppercased() ?? "GET", url: url, timeout: timeout,
                         headers: o.ref("headers"), body: o.ref("body"), callback: 2)
                return 0 }),
        ])
    }

    /// Builds the request table (copying headers and body) and hands the request to the World.
    func send(_ c: LuaCall, method: String, url text: String, timeout: Millis, headers: ScriptRef?, body: ScriptRef?,
              callback: Int32) throws(LuaFailure) {
        let (url, value) = try requestValue(c, method: method, url: text, headers: headers, body: body)
        let cb = c.ref(callback)
        _ = world.send(method: method, url: url, timeout: timeout, callback: cb, value: value, at: c.location)
    }

    /// The request table a server's route sees (headers and body copied), kept.
    func requestValue(_ c: LuaCall, method: String, url text: String, headers: ScriptRef?, body: ScriptRef?) throws(LuaFailure)
        -> (ParsedURL, ScriptRef) {
        guard let url = ParsedURL(text) else {
            throw .error("\(c.name): '\(text)' is not a URL like https://api.example.test/path")
        }
        var copies: [ScriptRef] = []
        defer { for r in copies { release(r) } }
        func copied(_ ref: ScriptRef?) throws(LuaFailure) -> LuaValue {
            guard let ref else { return .null }
            switch lua.copy(ref, for: nil) {
            case .success(let r): copies.append(r); return .ref(r)
            case .failure(let f): throw f.kind == .memoryCap ? .stop : .error(f.message)
            }
        }
        let request = LuaValue.table([
            ("method", .string(method)), ("url", .string(text)), ("path", .string(url.path)),
            ("query", .table(queryPairs(url.query))),
            ("headers", headers == nil ? .table([]) : try copied(headers)),
            ("body", try copied(body)),
        ])
        return (url, lua.keep(request))
    }

    /// `a=1&b=two` → `[("a", "1"), ("b", "two")]` (percent-decoded).
    func queryPairs(_ query: String?) -> [(String, LuaValue)] {
        guard let query, !query.isEmpty else { return [] }
        let bytes = Array(query.utf8)
        if bytes.allSatisfy({ $0 < 0x80 }) {
            // ASCII (almost always): every "&" and "=" is a character of its own, so splitting the
            // bytes is splitting the characters, without walking grapheme clusters.
            var out: [(String, LuaValue)] = []
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "&") {
                defer { start = end + 1 }
                guard end > start else { continue }  // empty pairs are skipped
                let pair = bytes[start..<end]
                if let eq = pair.firstIndex(of: UInt8(ascii: "=")) {
                    out.append((percentDecode(pair[start..<eq]), .string(percentDecode(pair[(eq + 1)...]))))
                } else {
                    out.append((percentDecode(pair), .string("")))
                }
            }
            return out
        }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (percentDecode(String(parts[0])), .string(parts.count > 1 ? percentDecode(String(parts[1])) : ""))
        }
    }

    func percentDecode(_ s: String) -> String { percentDecode(Array(s.utf8)[...]) }

    /// `+` is a space, `%XX` a byte (XX as Swift's `UInt8(_:radix: 16)` reads it), the rest as is.
    func percentDecode(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            i += 1
            if b == UInt8(ascii: "+") { out.append(0x20); continue }
            if b == UInt8(ascii: "%"), bytes.endIndex - i >= 2,
               let v = UInt8(String(decoding: bytes[i..<i + 2], as: UTF8.self), radix: 16) {
                out.append(v); i += 2; continue
            }
            out.append(b)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

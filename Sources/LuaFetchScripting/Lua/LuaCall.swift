// LuaCall: the arguments of one host function call, read with raw accessors that never raise.
// Each checker throws `LuaFailure.error` with a message naming the function and the expected type
// (`bad argument #2 to 'at' (function expected, got nil)`); LuaState prefixes the caller's line.
// Arguments are numbered as Lua's luaL_argerror numbers them: in a method call (`app:f(a, b)`,
// which the calling instruction tells: lua_getinfo's namewhat is "method"), `a` is #1 and a bad
// self is "calling 'f' on bad self".
import CLua
import CLuaHost
import LuaFetchCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct LuaCall {
    let L: OpaquePointer
    let name: String
    /// The stack level of the call whose syntax numbers the arguments: 0, this host function's
    /// own call; 1 for a host function a prelude method calls on its caller's behalf (`q:sync`).
    var callLevel: Int32 = 0

    var count: Int32 { lua_gettop(L) }

    func type(_ i: Int32) -> Int32 { lua_type(L, i) }
    func typeName(_ i: Int32) -> String { String(cString: lua_typename(L, lua_type(L, i))) }
    func isNil(_ i: Int32) -> Bool { lua_type(L, i) <= LUA_TNIL }

    /// Whether the call was written as a method call (`obj:name(...)`): what luaL_argerror asks
    /// (the function's name as the calling instruction gives it, `namewhat` "method"). Only read
    /// to word an error, so it costs nothing on the way that succeeds.
    var isMethodCall: Bool {
        var ar = lua_Debug()
        guard lua_getstack(L, callLevel, &ar) != 0, lua_getinfo(L, "n", &ar) != 0, let what = ar.namewhat else { return false }
        return strcmp(what, "method") == 0
    }

    /// How a message names argument `i`: `#N`, counted without self in a method call.
    func argument(_ i: Int32) -> String { "#\(isMethodCall ? i - 1 : i)" }

    /// The method's own name (`beginBackgroundTask` of `app:beginBackgroundTask`).
    var methodName: String { name.split(separator: ":").last.map(String.init) ?? name }

    /// The error for a bad argument `i`: `bad argument #N to 'name' (detail)`, or, for self in a
    /// method call, `calling 'method' on bad self (detail)`; then `hint`.
    func badArgument(_ i: Int32, _ detail: String, hint: String = "") -> LuaFailure {
        if i == 1 && isMethodCall { return .error("calling '\(methodName)' on bad self (\(detail))\(hint)") }
        return .error("bad argument \(argument(i)) to '\(name)' (\(detail))\(hint)")
    }

    func bad(_ i: Int32, _ expected: String, hint: String = "") -> LuaFailure {
        badArgument(i, "\(expected) expected, got \(isNil(i) ? "nil" : typeName(i))", hint: hint)
    }

    /// The error for a method called on something else than its object (`what`, like "the app"):
    /// with a colon, Lua's "calling 'm' on bad self"; with a dot, `dotted` (how to call it).
    func wrongSelf(_ what: String, dotted: String) -> LuaFailure {
        if isMethodCall { return .error("calling '\(methodName)' on bad self (\(what) expected, got \(isNil(1) ? "nil" : typeName(1)))") }
        return .error(dotted)
    }

    // MARK: - Checkers

    func number(_ i: Int32, hint: String = "") throws(LuaFailure) -> Double {
        guard type(i) == LUA_TNUMBER else { throw bad(i, "number", hint: hint) }
        return clua_tonumber(L, i)
    }

    func optNumber(_ i: Int32) throws(LuaFailure) -> Double? {
        isNil(i) ? nil : try number(i)
    }

    /// Seconds as a duration in milliseconds (finite, not negative).
    func duration(_ i: Int32, allowZero: Bool = true) throws(LuaFailure) -> Millis {
        let s = try number(i, hint: " (seconds; use seconds(), minutes(), hours(), days())")
        guard let ms = Time.millis(fromSeconds: s), ms >= 0, allowZero || ms > 0 else {
            throw badArgument(i, "\(allowZero ? "a duration of 0 seconds or more" : "a positive duration") expected, got \(formatNumber(s))")
        }
        return ms
    }

    func integer(_ i: Int32) throws(LuaFailure) -> Int64 {
        guard type(i) == LUA_TNUMBER else { throw bad(i, "integer") }
        if clua_isinteger(L, i) != 0 { return clua_tointeger(L, i) }
        let d = clua_tonumber(L, i)
        guard d.rounded() == d, abs(d) < 9e15 else { throw bad(i, "integer", hint: " (\(formatNumber(d)) has a fraction)") }
        return Int64(d)
    }

    func string(_ i: Int32) throws(LuaFailure) -> String {
        guard type(i) == LUA_TSTRING else { throw bad(i, "string") }
        return LuaCall.string(L, i)
    }

    func optString(_ i: Int32) throws(LuaFailure) -> String? { isNil(i) ? nil : try string(i) }

    func boolean(_ i: Int32) throws(LuaFailure) -> Bool {
        guard type(i) == LUA_TBOOLEAN else { throw bad(i, "boolean") }
        return lua_toboolean(L, i) != 0
    }

    func function(_ i: Int32, hint: String = "") throws(LuaFailure) -> Void {
        guard type(i) == LUA_TFUNCTION else { throw bad(i, "function", hint: hint) }
    }

    func table(_ i: Int32, hint: String = "") throws(LuaFailure) {
        guard type(i) == LUA_TTABLE else { throw bad(i, "table", hint: hint) }
    }

    // MARK: - Raw reads

    /// The most bytes of one string luafetch copies into a timeline line or a message; the rest is
    /// cut with a note (a 200 MB `print` must not become gigabytes of host copies and output).
    static let maxTextBytes = 1 << 16

    /// The string at `i` (a string or number), cut to `maxTextBytes` with "… [N more bytes]".
    static func text(_ L: OpaquePointer, _ i: Int32) -> String { read(L, i, upTo: maxTextBytes) }

    /// The whole string at `i` (a string or number).
    static func string(_ L: OpaquePointer, _ i: Int32) -> String { read(L, i, upTo: .max) }

    private static func read(_ L: OpaquePointer, _ i: Int32, upTo limit: Int) -> String {
        var len = 0
        guard let p = lua_tolstring(L, i, &len) else { return "" }
        let kept = min(len, limit)
        let head = p.withMemoryRebound(to: UInt8.self, capacity: kept) {
            String(decoding: UnsafeBufferPointer(start: $0, count: kept), as: UTF8.self)
        }
        return kept == len ? head : head + "… [\(len - kept) more bytes]"
    }

    /// String keys of the table at `t` that are not in `known`, sorted (for "unknown field").
    func unknownKeys(_ t: Int32, known: [String]) -> [String] {
        var out: [String] = []
        let abs = lua_absindex(L, t)
        lua_pushnil(L)
        while lua_next(L, abs) != 0 {
            if lua_type(L, -2) == LUA_TSTRING {
                let k = LuaCall.text(L, -2)
                if !known.contains(k) { out.append(k) }
            } else if lua_type(L, -2) == LUA_TNUMBER {
                // Converting the key itself would make lua_next fail ("invalid key to 'next'"): a copy.
                lua_pushvalue(L, -2)
                out.append("[\(LuaCall.string(L, -1))]")
                clua_pop(L, 1)
            } else {
                out.append("[non-string key]")
            }
            clua_pop(L, 1)
        }
        return out.sorted()
    }

    /// Rejects unknown fields of an options table, suggesting the closest known one.
    func checkFields(_ t: Int32, of what: String, known: [String]) throws(LuaFailure) {
        lua_checkstack(L, 8)
        if let bad = unknownKeys(t, known: known).first {
            let hint = didYouMean(bad, among: known)
            throw .error("unknown field '\(bad)' in \(what)\(hint) (known: \(known.joined(separator: ", ")))")
        }
    }
}

extension LuaCall {
    /// "; did you mean NAME?" for the closest name (see `closest`: `elsewhere` are other tables'
    /// names, offered after `names`), or "". The search is charged to the running handler's
    /// budgets (names × lengths), so a loop of misses cannot run for free.
    func didYouMean(_ word: String, among names: [String], elsewhere: [String] = []) -> String {
        let wl = min(word.utf8.count, maxHintLength)
        var units = names.count + elsewhere.count + 1
        for n in (names + elsewhere).prefix(maxHintCandidates) { units += min(n.utf8.count, maxHintLength) * wl / 4 }
        if clua_charge(L, Int64(units)) != CLUA_KILL_NONE { return "" }
        return closest(word, among: names, elsewhere: elsewhere).map { "; did you mean \($0)?" } ?? ""
    }
}

func formatNumber(_ d: Double) -> String {
    if d.isNaN { return "nan" }
    if d.isInfinite { return d < 0 ? "-inf" : "inf" }
    if d.rounded() == d && abs(d) < 1e15 { return String(Int64(d)) }
    return String(d)
}

// MARK: - Values and results

/// A value to hand to Lua: a result of a host function, an argument of a handler, a field.
enum LuaValue {
    case null
    case boolean(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    /// A value kept in the registry.
    case ref(ScriptRef)
    /// A new table with these fields, in this order.
    case table([(String, LuaValue)])
    /// A new sequence of these values.
    case list([LuaValue])
    /// A Swift function.
    case function(HostFunction)

    /// A duration in seconds as Lua shows it (an integer when whole).
    static func seconds(_ s: SecondsValue) -> LuaValue {
        switch s {
        case .integer(let i): return .integer(i)
        case .float(let d): return .number(d)
        case .infinity: return .number(.infinity)
        }
    }

    /// Pushes the value on `L`.
    func push(_ L: OpaquePointer) {
        switch self {
        case .null: lua_pushnil(L)
        case .boolean(let b): lua_pushboolean(L, b ? 1 : 0)
        case .integer(let i): lua_pushinteger(L, lua_Integer(i))
        case .number(let d): lua_pushnumber(L, d)
        case .string(let s): luaPushString(L, s)
        case .ref(let r): lua_rawgeti(L, clua_registryindex(), lua_Integer(r.id))
        case .table(let fields):
            lua_checkstack(L, 4)
            lua_createtable(L, 0, Int32(fields.count))
            for (k, v) in fields { v.push(L); lua_setfield(L, -2, k) }
        case .list(let items):
            lua_checkstack(L, 4)
            lua_createtable(L, Int32(items.count), 0)
            for (i, v) in items.enumerated() { v.push(L); lua_rawseti(L, -2, lua_Integer(i + 1)) }
        case .function(let fn): LuaState.push(fn, on: L)
        }
    }
}

extension LuaCall {
    /// Returns `values` from the host function (its result count).
    func returns(_ values: LuaValue...) -> Int32 {
        lua_checkstack(L, Int32(values.count) + 2)
        for v in values { v.push(L) }
        return Int32(values.count)
    }

    /// The runtime's state behind this call.
    var state: LuaState { LuaState.of(L) }

    /// Keeps argument `i` in the registry (recording where it was defined).
    func ref(_ i: Int32) -> ScriptRef {
        lua_pushvalue(L, i)
        return state.makeRef(L)
    }

    /// The caller's scenario line.
    var location: SourceLocation? {
        LuaState.scenarioLocation(L, from: 1).map { SourceLocation(file: $0.file, line: $0.line) }
    }

    /// Whether argument `i` is the very value `ref` holds.
    func isSame(_ i: Int32, as ref: ScriptRef) -> Bool {
        lua_rawgeti(L, clua_registryindex(), lua_Integer(ref.id))
        defer { clua_pop(L, 1) }
        return lua_rawequal(L, i, -1) != 0
    }

    /// ScriptValue `i`'s field `key` (raw) when it is an integer.
    func integerField(_ i: Int32, _ key: String) -> Int64? {
        guard type(i) == LUA_TTABLE else { return nil }
        defer { clua_pop(L, 1) }
        guard lua_getfield_raw(L, i, key) == LUA_TNUMBER, clua_isinteger(L, -1) != 0 else { return nil }
        return clua_tointeger(L, -1)
    }

    /// ScriptValue `i`'s field `key` (raw) when it is a string.
    func stringField(_ i: Int32, _ key: String) -> String? {
        guard type(i) == LUA_TTABLE else { return nil }
        defer { clua_pop(L, 1) }
        guard lua_getfield_raw(L, i, key) == LUA_TSTRING else { return nil }
        return LuaCall.text(L, -1)
    }

    /// Whether argument `i` is a table with a metatable (the API's objects are).
    func isObject(_ i: Int32) -> Bool {
        guard type(i) == LUA_TTABLE, lua_getmetatable(L, i) != 0 else { return false }
        clua_pop(L, 1)
        return true
    }

    /// ScriptValue `i` as a completion value: a string, or how Lua shows anything else.
    func completionValue(_ i: Int32) -> CompletionValue {
        switch type(i) {
        case LUA_TSTRING: return .string(LuaCall.string(L, i))
        case LUA_TNONE, LUA_TNIL: return .other("nil")
        case LUA_TNUMBER: return .other(LuaCall.string(L, i))
        default: return .other(typeName(i))
        }
    }

    /// ScriptValue `i` as text for a timeline line (a string or number; "" otherwise).
    func text(_ i: Int32) -> String { count >= i ? LuaCall.text(L, i) : "" }

    /// ScriptValue `i`'s type is a string.
    func isString(_ i: Int32) -> Bool { type(i) == LUA_TSTRING }
    func isFunction(_ i: Int32) -> Bool { type(i) == LUA_TFUNCTION }
    func isTable(_ i: Int32) -> Bool { type(i) == LUA_TTABLE }

    /// Charges `units` to the running handler's budgets; false when that ended it.
    @discardableResult
    func charge(_ units: Int) -> Bool { clua_charge(L, Int64(units)) == CLUA_KILL_NONE }

    /// Keeps only the first `n` arguments.
    func keep(_ n: Int32) { lua_settop(L, n) }
}

extension LuaCall {
    /// For a table argument whose first item is a table (a list of tables): whether each item
    /// 1...#t is a table. Nil when the first item is not a table.
    func sequence(_ i: Int32) -> [Bool]? {
        guard type(i) == LUA_TTABLE else { return nil }
        let first = lua_rawgeti(L, i, 1)
        clua_pop(L, 1)
        guard first == LUA_TTABLE else { return nil }
        let n = lua_rawlen(L, i)
        return (1...max(n, 1)).map { k in
            defer { clua_pop(L, 1) }
            return lua_rawgeti(L, i, lua_Integer(k)) == LUA_TTABLE
        }
    }

    /// The string items 1...#t of the table argument `i` (others are skipped; at most 10,000).
    func strings(ofItemsOf i: Int32) -> [String] {
        guard type(i) == LUA_TTABLE else { return [] }
        let n = min(lua_rawlen(L, i), 10_000)
        guard n > 0 else { return [] }
        return (1...n).compactMap { k in
            defer { clua_pop(L, 1) }
            return lua_rawgeti(L, i, lua_Integer(k)) == LUA_TSTRING ? LuaCall.text(L, -1) : nil
        }
    }

    /// References to items 1...#t of the table argument `i`.
    func refs(ofItemsOf i: Int32) -> [ScriptRef] {
        let n = lua_rawlen(L, i)
        guard n > 0 else { return [] }
        return (1...n).map { k in
            lua_rawgeti(L, i, lua_Integer(k))
            return state.makeRef(L)
        }
    }
}

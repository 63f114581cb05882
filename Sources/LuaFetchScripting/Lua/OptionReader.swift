// The declarative reader for option tables (`scenario{}`, `app{}`, `server "host" {}`,
// `http.request{}`, route responses): an `OptionSpec` names each field with its type (and
// choices, ranges, nested tables, lists, values to copy); `read` checks the table against it,
// with "unknown field ... did you mean" for names it does not know and "<what>: <field> must be
// ..." for values of the wrong type, and returns plain Swift values. API files declare specs and
// never touch the Lua stack. Reads are raw (no metamethod runs); copies are made by CLuaHost's
// copier under the memory cap. One of the three files that use the Lua C API (with LuaState and
// LuaCall).
import CLua
import CLuaHost
import LuaFetchCore

/// How to read one field.
struct Field: Sendable {
    indirect enum Kind: Sendable {
        case string, boolean, function, number, integer
        /// A string out of `names` (a `noun` in messages: "unknown os 'x'"); `listed` adds them
        /// to the error message.
        case choice([String], noun: String, listed: Bool)
        /// A sequence of items of one kind.
        case list(Kind)
        /// A table read with its own spec.
        case options(OptionSpec)
        /// A table kept as it is (a reference, no copy).
        case table
        /// Any value, kept as a reference the caller owns.
        case any
    }
    let name: String
    let kind: Kind
    /// What a bad value gets told: "must be a string like \"GET\"".
    let must: String
    /// For numbers: the values allowed, and the message when another is given (", got X" follows).
    var valid: (@Sendable (Double) -> Bool)?
    var mustWhenInvalid: String?
    /// Add ", got TYPE" to a wrong type's message.
    var showType = false

    init(_ name: String, _ kind: Kind, must: String, valid: (@Sendable (Double) -> Bool)? = nil, mustWhenInvalid: String? = nil,
         showType: Bool = false) {
        self.name = name; self.kind = kind; self.must = must; self.valid = valid
        self.mustWhenInvalid = mustWhenInvalid; self.showType = showType
    }
}

extension Field.Kind {
    /// What a value of this kind is, for messages about list items.
    var expected: String {
        switch self {
        case .string, .choice: return "a string"
        case .boolean: return "true or false"
        case .function: return "a function"
        case .number: return "a number"
        case .integer: return "an integer"
        case .list, .options, .table: return "a table"
        case .any: return "a value"
        }
    }
}

/// The fields of an option table.
struct OptionSpec: Sendable {
    /// Who reads it, as messages start: "scenario{}", "server \"api.test\"".
    let what: String
    /// How unknown fields name the table: "scenario{ device = ... }" (nil: no check).
    let unknownIn: String?
    let fields: [Field]
    var names: [String] { fields.map(\.name) }
}

/// A value read from an option table.
enum OptionValue {
    case string(String), boolean(Bool), number(Double), integer(Int64)
    case list([OptionValue])
    case options(Options)
    /// A function, table or copied value kept in the registry (the caller releases or keeps it).
    case ref(ScriptRef)
}

/// The fields present in an option table (absent ones are missing, not nil values).
struct Options {
    var values: [String: OptionValue] = [:]
    subscript(_ name: String) -> OptionValue? { values[name] }
    func string(_ name: String) -> String? { if case .string(let s)? = values[name] { return s } else { return nil } }
    func boolean(_ name: String) -> Bool? { if case .boolean(let b)? = values[name] { return b } else { return nil } }
    func number(_ name: String) -> Double? {
        switch values[name] {
        case .number(let d)?: return d
        case .integer(let i)?: return Double(i)
        default: return nil
        }
    }
    func integer(_ name: String) -> Int64? { if case .integer(let i)? = values[name] { return i } else { return nil } }
    func ref(_ name: String) -> ScriptRef? { if case .ref(let r)? = values[name] { return r } else { return nil } }
    func options(_ name: String) -> Options? { if case .options(let o)? = values[name] { return o } else { return nil } }
    func list(_ name: String) -> [OptionValue]? { if case .list(let l)? = values[name] { return l } else { return nil } }
}

extension LuaCall {
    /// Reads argument `i` (a table) with `spec`. `refs(L, located)` keeps the value on top of
    /// `L`'s stack (`located`: a function, whose definition is recorded).
    func read(_ i: Int32, _ spec: OptionSpec, refs: (OpaquePointer, Bool) -> ScriptRef) throws(LuaFailure) -> Options {
        lua_checkstack(L, 16)
        return try readTable(lua_absindex(L, i), spec, prefix: "", refs: refs)
    }

    private func readTable(_ t: Int32, _ spec: OptionSpec, prefix: String, refs: (OpaquePointer, Bool) -> ScriptRef) throws(LuaFailure) -> Options {
        if let unknownIn = spec.unknownIn { try checkFields(t, of: unknownIn, known: spec.names) }
        var out = Options()
        for field in spec.fields {
            defer { clua_pop(L, 1) }
            guard lua_getfield_raw(L, t, field.name) > LUA_TNIL else { continue }
            out.values[field.name] = try value(at: lua_gettop(L), field, field.kind, path: prefix + field.name, spec: spec, refs: refs)
        }
        return out
    }

    private func value(at i: Int32, _ field: Field, _ kind: Field.Kind, path: String, spec: OptionSpec,
                       refs: (OpaquePointer, Bool) -> ScriptRef) throws(LuaFailure) -> OptionValue {
        let type = lua_type(L, i)
        func wrong() -> LuaFailure {
            let got = field.showType ? ", got \(String(cString: lua_typename(L, type)))" : ""
            return .error("\(spec.what): \(path) \(field.must)\(got)")
        }
        switch kind {
        case .string:
            guard type == LUA_TSTRING else { throw wrong() }
            return .string(LuaCall.string(L, i))
        case .boolean:
            guard type == LUA_TBOOLEAN else { throw wrong() }
            return .boolean(lua_toboolean(L, i) != 0)
        case .number, .integer:
            guard type == LUA_TNUMBER else { throw wrong() }
            let d = clua_tonumber(L, i)
            if case .integer = kind { guard clua_isinteger(L, i) != 0 else { throw wrong() } }
            if let valid = field.valid, !valid(d) {
                if let m = field.mustWhenInvalid { throw .error("\(spec.what): \(path) \(m), got \(formatNumber(d))") }
                throw wrong()
            }
            if case .integer = kind { return .integer(clua_tointeger(L, i)) }
            return .number(d)
        case .choice(let names, let noun, let listed):
            let given = type == LUA_TSTRING ? LuaCall.string(L, i) : "?"
            guard names.contains(given) else {
                let hint = closest(given, among: names).map { "; did you mean \($0)?" } ?? ""
                let list = listed ? " (\(names.map { "\"\($0)\"" }.joined(separator: ", ")))" : ""
                throw .error("\(spec.what): unknown \(noun) '\(given)'\(hint)\(list)")
            }
            return .string(given)
        case .list(let item):
            guard type == LUA_TTABLE else { throw wrong() }
            var items: [OptionValue] = []
            let n = lua_rawlen(L, i)
            if n > 0 {
                for k in 1...n {
                    lua_rawgeti(L, i, lua_Integer(k))
                    defer { clua_pop(L, 1) }
                    // Items are named by their place: "backgroundModes[2] must be a string".
                    let itemField = Field("", item, must: "must be \(item.expected)")
                    if case .choice = item, lua_type(L, -1) != LUA_TSTRING {
                        throw .error("\(spec.what): \(path)[\(k)] must be a string")
                    }
                    items.append(try value(at: lua_gettop(L), itemField, item, path: "\(path)[\(k)]", spec: spec, refs: refs))
                }
            }
            return .list(items)
        case .options(let nested):
            guard type == LUA_TTABLE else { throw wrong() }
            let inner = OptionSpec(what: spec.what, unknownIn: nested.unknownIn, fields: nested.fields)
            return .options(try readTable(i, inner, prefix: path + ".", refs: refs))
        case .function:
            guard type == LUA_TFUNCTION else { throw wrong() }
            lua_pushvalue(L, i)
            return .ref(refs(L, true))
        case .table:
            guard type == LUA_TTABLE else { throw wrong() }
            lua_pushvalue(L, i)
            return .ref(refs(L, false))
        case .any:
            lua_pushvalue(L, i)
            return .ref(refs(L, false))
        }
    }
}

/// `t[key]` raw for a string key; pushes the value and returns its type.
@discardableResult
func lua_getfield_raw(_ L: OpaquePointer, _ index: Int32, _ key: String) -> Int32 {
    let abs = lua_absindex(L, index)
    luaPushString(L, key)
    return lua_rawget(L, abs)
}

extension LuaState {
    /// A route's answer: calls the handler `responder` with a copy of `request` (or takes the
    /// stored response `responder`), checks it is a response table with an HTTP status, and keeps
    /// a copy with `status` and `headers` filled in. `failure` turns a failed handler run into
    /// the run's failure.
    func response(from responder: ScriptRef, isHandler: Bool, request: ScriptRef,
                  failure: (LuaRunResult) -> ScriptFailure) -> Result<ServedResponse, ScriptFailure> {
        lua_checkstack(L, 8)
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let owner = location(of: responder)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(responder.id))
        if isHandler {
            lua_rawgeti(L, clua_registryindex(), lua_Integer(request.id))
            if let f = copyTop(for: owner) { return .failure(f) }
            // The handler runs as a coroutine; its first result is the response.
            let r = runHandlerKeepingResult(nargs: 1)
            guard r.status == .ok else { return .failure(failure(r)) }
        }
        let where_ = owner.map { "\($0): " } ?? ""
        guard lua_type(L, -1) == LUA_TTABLE else {
            let got = lua_type(L, -1) <= LUA_TNIL ? "nil" : String(cString: lua_typename(L, lua_type(L, -1)))
            return .failure(ScriptFailure(kind: .error, message: "\(where_)a route must answer with a response table like { status = 200, body = ... }, got \(got)"))
        }
        var status = 200
        lua_getfield_raw(L, -1, "status")
        if lua_type(L, -1) == LUA_TNUMBER, clua_isinteger(L, -1) != 0 {
            status = Int(clua_tointeger(L, -1))
        } else if lua_type(L, -1) > LUA_TNIL {
            return .failure(ScriptFailure(kind: .error, message: "\(where_)response status must be an integer like 200 or 404"))
        }
        clua_pop(L, 1)
        guard (100...599).contains(status) else {
            return .failure(ScriptFailure(kind: .error, message: "\(where_)response status \(status) is not an HTTP status (100–599)"))
        }
        var transfer: Millis = 0
        lua_getfield_raw(L, -1, "transfer")
        if lua_type(L, -1) == LUA_TNUMBER, let ms = Time.millis(fromSeconds: clua_tonumber(L, -1)), ms >= 0 {
            transfer = ms
        } else if lua_type(L, -1) > LUA_TNIL {
            return .failure(ScriptFailure(kind: .error, message: "\(where_)response transfer must be a number of seconds ≥ 0 (the body's time on the wire)"))
        }
        clua_pop(L, 1)
        if let f = copyTop(for: owner) { return .failure(f) }
        if lua_getfield_raw(L, -1, "status") <= LUA_TNIL {
            clua_pop(L, 1); lua_pushinteger(L, lua_Integer(status)); lua_setfield(L, -2, "status")
        } else { clua_pop(L, 1) }
        if lua_getfield_raw(L, -1, "headers") <= LUA_TNIL {
            clua_pop(L, 1); clua_newtable(L); lua_setfield(L, -2, "headers")
        } else { clua_pop(L, 1) }
        let ref = luaL_ref(L, clua_registryindex())
        return .success(ServedResponse(status: status, value: ScriptRef(id: Int(ref)), transfer: transfer))
    }
}

extension LuaState {
    /// Calls `fn(args...)` as a handler and reads the table it returns with `spec` (functions in
    /// it are kept with their definitions). `expected` says what it must return, for the message
    /// when it returns something else; `failure` turns a failed run into the run's failure.
    func options(returnedBy fn: ScriptRef, _ args: [LuaValue], spec: OptionSpec, expected: String,
                 failure: (LuaRunResult) -> ScriptFailure) -> Result<(Options, [ScriptRef]), ScriptFailure> {
        lua_checkstack(L, 8 + Int32(args.count))
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let owner = location(of: fn)
        let where_ = owner.map { "\($0): " } ?? ""
        lua_rawgeti(L, clua_registryindex(), lua_Integer(fn.id))
        for a in args { a.push(L) }
        let r = runHandlerKeepingResult(nargs: Int32(args.count))
        guard r.status == .ok else { return .failure(failure(r)) }
        guard lua_type(L, -1) == LUA_TTABLE else {
            let got = lua_type(L, -1) <= LUA_TNIL ? "nil" : String(cString: lua_typename(L, lua_type(L, -1)))
            return .failure(ScriptFailure(kind: .error, message: "\(where_)\(spec.what) must return \(expected), got \(got)", location: owner))
        }
        var refs: [ScriptRef] = []
        do {
            let o = try LuaCall(L: L, name: spec.what).read(-1, spec) { L, located in
                let r = keepTop(L, located: located); refs.append(r); return r
            }
            return .success((o, refs))
        } catch {
            for r in refs { release(r) }
            guard case .error(let message) = error else { return .failure(ScriptFailure(kind: .stopped, message: "")) }
            return .failure(ScriptFailure(kind: .error, message: "\(where_)\(message)", location: owner))
        }
    }
}

// LuaValue: Lua values as Swift data, both ways. nil, booleans, integers and floats kept apart,
// strings, and tables as ordered key/value lists (numbers ascending, then strings, as the
// scenario's pairs sees them), with cycle detection when reading. Functions and other references
// read as `.opaque`. Used by the REPL to show results and by tests. Raw accessors only.
import CLua

public enum LuaValue: Equatable, Sendable {
    case nil_
    case boolean(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case table([Entry])
    /// A function, thread or userdata: shown by type name only.
    case opaque(String)

    public struct Entry: Equatable, Sendable {
        public var key: LuaValue
        public var value: LuaValue
        public init(_ key: LuaValue, _ value: LuaValue) { self.key = key; self.value = value }
    }

    public enum ConversionError: Error, Equatable { case cycle, tooDeep }
}

extension LuaValue {
    // MARK: - Lua → Swift

    /// Reads the value at `index` of `L`. Throws on a table that contains itself.
    static func read(_ L: OpaquePointer, _ index: Int32, depth: Int = 0, path: [UnsafeRawPointer] = []) throws(ConversionError) -> LuaValue {
        let i = lua_absindex(L, index)
        switch lua_type(L, i) {
        case LUA_TNIL, LUA_TNONE: return .nil_
        case LUA_TBOOLEAN: return .boolean(lua_toboolean(L, i) != 0)
        case LUA_TNUMBER: return clua_isinteger(L, i) != 0 ? .integer(clua_tointeger(L, i)) : .number(clua_tonumber(L, i))
        case LUA_TSTRING: return .string(LuaCall.string(L, i))
        case LUA_TTABLE:
            let ptr = lua_topointer(L, i)!
            if path.contains(ptr) { throw .cycle }
            if depth > 100 || lua_checkstack(L, 4) == 0 { throw .tooDeep }
            var entries: [Entry] = []
            lua_pushnil(L)
            while lua_next(L, i) != 0 {
                do {
                    let k = try read(L, -2, depth: depth + 1, path: path + [ptr])
                    let v = try read(L, -1, depth: depth + 1, path: path + [ptr])
                    entries.append(Entry(k, v))
                } catch {
                    clua_pop(L, 2)
                    throw error
                }
                clua_pop(L, 1)
            }
            entries.sort { $0.key.sortsBefore($1.key) }
            return .table(entries)
        default:
            return .opaque(String(cString: lua_typename(L, lua_type(L, i))))
        }
    }

    // MARK: - Swift → Lua

    /// Pushes the value (opaque values push nil).
    func push(_ L: OpaquePointer) {
        lua_checkstack(L, 4)
        switch self {
        case .nil_, .opaque: lua_pushnil(L)
        case .boolean(let b): lua_pushboolean(L, b ? 1 : 0)
        case .integer(let n): lua_pushinteger(L, lua_Integer(n))
        case .number(let d): lua_pushnumber(L, d)
        case .string(let s): lua_pushstring(L, s)
        case .table(let entries):
            lua_createtable(L, 0, Int32(entries.count))
            for e in entries where e.key != .nil_ {
                e.key.push(L)
                e.value.push(L)
                lua_rawset(L, -3)
            }
        }
    }

    // MARK: - Order and display

    var rank: Int {
        switch self {
        case .integer, .number: return 0
        case .string: return 1
        case .boolean: return 2
        default: return 3
        }
    }

    func sortsBefore(_ other: LuaValue) -> Bool {
        switch (self, other) {
        case (.integer(let a), .integer(let b)): return a < b
        case (.integer(let a), .number(let b)): return Double(a) < b
        case (.number(let a), .integer(let b)): return a < Double(b)
        case (.number(let a), .number(let b)): return a < b
        case (.string(let a), .string(let b)): return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        case (.boolean(let a), .boolean(let b)): return !a && b
        default: return rank < other.rank
        }
    }

    /// A Lua-like rendering: `{ 1, 2, name = "x" }`.
    public var display: String {
        switch self {
        case .nil_: return "nil"
        case .boolean(let b): return b ? "true" : "false"
        case .integer(let n): return String(n)
        case .number(let d):
            if d.isInfinite { return d < 0 ? "-inf" : "inf" }
            if d.isNaN { return "nan" }
            return d.rounded() == d && abs(d) < 1e15 ? String(format1: d) : String(d)
        case .string(let s): return "\"" + s.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"").replacingAll("\n", with: "\\n") + "\""
        case .opaque(let t): return t
        case .table(let entries):
            if entries.isEmpty { return "{}" }
            var parts: [String] = []
            var next: Int64 = 1
            for e in entries {
                if case .integer(let k) = e.key, k == next { parts.append(e.value.display); next += 1; continue }
                if case .string(let k) = e.key, k.isIdentifier { parts.append("\(k) = \(e.value.display)") } else {
                    parts.append("[\(e.key.display)] = \(e.value.display)")
                }
            }
            return "{ " + parts.joined(separator: ", ") + " }"
        }
    }
}

extension String {
    init(format1 d: Double) { self = String(Int64(d)) + ".0" }

    var isIdentifier: Bool {
        guard let f = first, f == "_" || f.isLetter, f.isASCII else { return false }
        return allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII }
    }
}

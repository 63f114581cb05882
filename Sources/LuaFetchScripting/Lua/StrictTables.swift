// Strict API tables and strict globals (SPEC 3): reading an unknown field of an API table, or a
// global never assigned, is an error that names the typo and suggests the closest name
// ("unknown field 'beginBackgroudTask' of app; did you mean beginBackgroundTask?"). API tables are
// read-only; assigning a new global declares it (LuaState.strictTable builds the tables). Also the
// context checks shared by the API files.
import LuaFetchCore

extension ScenarioRuntime {
    // MARK: - Strict tables

    /// Declares a global strict table (see LuaState.strictTable).
    func installTable(_ name: String, methods: [(String, HostBody)], fields: [String: () -> LuaValue] = [:]) {
        let t = lua.strictTable(name, methods: methods, fields: fields)
        lua.setGlobal(name, .ref(t))
        lua.release(t)
    }

    func setGlobal(_ name: String, _ body: @escaping HostBody) {
        lua.setGlobal(name, .function(HostFunction(name, body)))
    }

    /// Makes reading an unassigned global an error that suggests the closest global: the
    /// prelude's `strict(miss)` gives `_G` a locked metatable whose __newindex declares every name
    /// assigned (nil too) and whose __index calls `miss` for names never assigned.
    func installStrictGlobals() {
        let strict = lua.field("strict", of: preludeExports)
        let miss = HostFunction("global") { c throws(LuaFailure) in
            let key = c.isString(2) ? c.text(2) : c.typeName(2)
            let names = c.unknownKeys(1, known: []).filter { !$0.hasPrefix("[") }
            throw .error("unknown global '\(key)'\(c.didYouMean(key, among: names)) (assign it first to declare a global)")
        }
        switch lua.callHelper(strict, [.function(miss)]) {
        case .success(let r): lua.release(r)
        case .failure(let err): fatalError("luafetch: strict globals: \(err.text)")
        }
        lua.release(strict)
    }

    // MARK: - Who may call what

    /// App-side APIs: only app code (a delegate method, timer, callback) may call them.
    func requireApp(_ c: LuaCall, _ alternative: String) throws(LuaFailure) {
        switch world.context {
        case .app: return
        case .repl:
            guard world.isRunning else {
                throw .error("\(c.name): the app is not running (\(world.state.rawValue)); launch it first, e.g. user.launch()")
            }
            return
        default:
            throw .error("\(c.name) is app code: call it from a handler of app{} (a delegate method, a timer or a callback)\(alternative)")
        }
    }

    /// World APIs (the person, the system, the timeline): never from app code.
    func requireWorld(_ c: LuaCall, _ alternative: String) throws(LuaFailure) {
        if world.context == .app {
            throw .error("\(c.name) belongs to the world, not the app: call it from the timeline (at/every), top-level code or the REPL\(alternative)")
        }
    }

    /// Declarations (`scenario{}`, `app{}`, `server`, `expect`) belong to top-level code.
    func requireTopLevel(_ c: LuaCall) throws(LuaFailure) {
        guard world.context == .topLevel || world.context == .repl else {
            throw .error("\(c.name) is a declaration: call it from the scenario's top-level code")
        }
    }
}

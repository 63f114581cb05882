// The process's disk in Lua (SPEC 12.1): `defaults` (UserDefaults: `get`, `set`, property lists
// deep-copied both ways, surviving every termination; world code and expectations may read and
// write it too), `scenario{ defaults = ... }`, and `sharedContainer.lock(name)` with
// `lock:unlock()`. Uses LuaState's property-list copies and the World's container locks.
import LuaFetchCore

extension ScenarioRuntime {
    func installProcessAPI() {
        if case .success(let store) = lua.plistStore(copying: nil, name: "defaults") { defaultsStore = store }
        installTable("defaults", methods: [
            ("get", { [unowned self] c throws(LuaFailure) in
                let key = try defaultsKey(c)
                if let why = lua.pushPlist(from: defaultsStore, key: key, on: c.L) { throw .error("defaults.get: \(why)") }
                return 1 }),
            ("set", { [unowned self] c throws(LuaFailure) in
                let key = try defaultsKey(c)
                if let why = lua.setPlist(in: defaultsStore, key: key, valueAt: 2, on: c.L, name: "value") {
                    throw .error("bad argument #2 to 'defaults.set' (\(why))")
                }
                return 0 }),
        ])
        installTable("sharedContainer", methods: [
            ("lock", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                let name = try c.string(1)
                let id = world.lockContainer(name, at: c.location)
                let lock = lua.object([("id", .integer(Int64(id))), ("name", .string(name))], metatable: lockMeta)
                defer { lua.release(lock) }
                return c.returns(.ref(lock))
            }),
        ])
        let methods = lua.strictTable("lock", methods: [
            ("unlock", { [unowned self] c throws(LuaFailure) in
                guard let id = c.integerField(1, "id") else {
                    throw c.wrongSelf("a lock", dotted: "lock:unlock is a method: call it with a colon, l:unlock()")
                }
                world.unlockContainer(Int(id))
                return 0 }),
        ], methodSeparator: ":", completes: false)
        lockMeta = lua.objectMetatable(methods: methods) { c in "lock #\(c.integerField(1, "id") ?? 0)" }
        lua.release(methods)
    }

    func defaultsKey(_ c: LuaCall) throws(LuaFailure) -> String {
        guard c.isString(1) else {
            throw .error("bad argument #1 to '\(c.name)' (a string key expected, got \(c.isNil(1) ? "no value" : c.typeName(1)))")
        }
        return c.text(1)
    }

    /// `scenario{ defaults = { ... } }`: the disk at t = 0.
    func setDefaults(from table: ScriptRef) throws(LuaFailure) {
        switch lua.plistStore(copying: table, name: "defaults") {
        case .success(let store):
            lua.release(defaultsStore)
            defaultsStore = store
        case .failure(let why):
            throw .error("scenario{}: \(why.text)")
        }
    }
}

// The `user` and `system` tables (SPEC 6.1, 6.2): what the person and iOS do, one Lua function
// per row of the action table (LuaFetchCore's Actions.swift). Called from the timeline (`at`,
// `every`), top-level code (deferred to t = 0, after the scenario is loaded, in order) or the
// REPL (at the current virtual time); never from app code. Uses the World.
import LuaFetchCore

extension ScenarioRuntime {
    func installWorldActions() {
        let world = self.world
        for table in ActionSpec.tables {
            let methods: [(String, HostBody)] = ActionSpec.all.filter { $0.table == table }.map { spec in
                (spec.name, { [unowned self] c throws(LuaFailure) in
                    try requireWorld(c, "; to react to the app's state, use at/every in the timeline")
                    let argument: ActionArgument
                    switch spec.takes {
                    case .nothing: argument = .none
                    case .duration: argument = .duration(try c.duration(1, allowZero: false))
                    case .flag: argument = .flag(try c.boolean(1))
                    case .optionalFlag: argument = .optionalFlag(c.isNil(1) ? nil : try c.boolean(1))
                    case .identifier: argument = .identifier(try c.string(1))
                    case .push: argument = try pushArgument(c)
                    }
                    if world.context != .topLevel, let why = spec.refusal(argument, in: world) { throw .error(why) }
                    if world.context == .topLevel {
                        world.at(0) { [unowned world] in spec.perform(argument, in: world) }  // after loading, in order
                    } else {
                        spec.perform(argument, in: world)
                    }
                    return 0
                })
            }
            installTable(table, methods: methods)
        }
    }

    /// `system.remoteNotification(userInfo [, { contentAvailable = true }])`: a copy of userInfo.
    static let pushOptions = OptionSpec(what: "system.remoteNotification", unknownIn: "the options", fields: [
        Field("contentAvailable", .boolean, must: "must be true or false"),
    ])

    func pushArgument(_ c: LuaCall) throws(LuaFailure) -> ActionArgument {
        try c.table(1, hint: " (the push's userInfo, like { aps = { [\"content-available\"] = 1 } })")
        var available = false
        if !c.isNil(2) {
            try c.table(2, hint: " (options, like { contentAvailable = true })")
            available = try c.read(2, Self.pushOptions, refs: lua.keepTop(_:located:)).boolean("contentAvailable") ?? false
        }
        let original = c.ref(1)
        defer { release(original) }
        switch lua.copy(original, for: c.location) {
        case .success(let copy): return .push(copy, contentAvailable: available)
        case .failure(let f): throw .error(f.message)
        }
    }
}

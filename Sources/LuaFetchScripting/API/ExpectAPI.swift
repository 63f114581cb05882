// Expectations in Lua (SPEC 8): `expect.noViolations()`, `expect.violation(code [, count])`,
// `expect.that(description, fn)`, `expect.at(time, description, fn)`. Declared by top-level code.
import LuaFetchCore

extension ScenarioRuntime {
    func installExpectAPI() {
        installTable("expect", methods: [
            ("noViolations", { [unowned self] c throws(LuaFailure) in
                try requireTopLevel(c)
                world.expectNoViolations(at: c.location)
                return 0 }),
            ("violation", { [unowned self] c throws(LuaFailure) in
                try requireTopLevel(c)
                let name = try c.string(1)
                guard let code = ViolationCode(rawValue: name) else {
                    let hint = closest(name, among: ViolationCode.allCases.map(\.rawValue)).map { "; did you mean \($0)?" } ?? ""
                    throw .error("expect.violation: unknown violation code '\(name)'\(hint)")
                }
                var count: Int?
                if !c.isNil(2) {
                    let n = try c.integer(2)
                    guard n >= 0 else { throw .error("expect.violation: the count must be 0 or more") }
                    count = Int(n)
                }
                world.expectViolation(code, count: count, at: c.location)
                return 0 }),
            ("that", { [unowned self] c throws(LuaFailure) in
                try requireTopLevel(c)
                let description = try c.string(1)
                try c.function(2)
                world.expectThat(description, c.ref(2), at: c.location)
                return 0 }),
            ("at", { [unowned self] c throws(LuaFailure) in
                try requireTopLevel(c)
                let t = try c.duration(1)
                let description = try c.string(2)
                try c.function(3)
                world.expectAt(t, description, c.ref(3), at: c.location)
                return 0 }),
        ])
    }
}

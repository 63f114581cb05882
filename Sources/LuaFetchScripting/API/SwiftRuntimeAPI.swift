// The host side of `swift`, the runtime of imported scenarios (SPEC 18): its Lua modules
// (API/Swift/, compiled into the binary, in load order) and the primitives they are handed when a
// scenario first reads `swift`, `stubs` or `unsupported`: the stubs' draws (seeded by run, site and count),
// whether they draw as explore does, notes of explore-only draws, timeline lines, "did you mean"
// and the caller's line. Also the warnings of unused `stubs{}` names after loading (18.7.12).
import LuaFetchCore

extension ScenarioRuntime {
    /// The runtime's modules (API/Swift/README.md), in the order they load: each chunk name (which
    /// tracebacks show) and source. Each is a chunk `local S, prim, shared = ...` that adds to the
    /// one table `swift`, taking what earlier modules put in `shared` (decoded once per process).
    static let swiftRuntimeModules: [(name: String, source: String)] = [
        ("process", PackageResources.process_lua), ("types", PackageResources.types_lua),
        ("errors", PackageResources.errors_lua), ("operators", PackageResources.operators_lua),
        ("strings", PackageResources.strings_lua), ("collections", PackageResources.collections_lua),
        ("stubs", PackageResources.stubs_lua), ("concurrency", PackageResources.concurrency_lua),
        ("foundation", PackageResources.foundation_lua), ("app", PackageResources.app_lua),
        ("publishers", PackageResources.publishers_lua), ("urlsession", PackageResources.urlsession_lua),
    ].map { ("=swift/\($0.0).lua", String(decoding: $0.1, as: UTF8.self)) }

    /// `host.swiftRuntime()`: the runtime's modules (a list of chunk name, source, ...) and its
    /// primitives.
    func swiftRuntimeEntry() -> HostBody {
        { [unowned self] c throws(LuaFailure) in
            let modules = LuaValue.list(Self.swiftRuntimeModules.flatMap { [.string($0.name), .string($0.source)] })
            let prims = lua.strictTable("swift primitives", methods: [
                ("draw", { [unowned self] c throws(LuaFailure) in
                    let site = Int(try c.integer(1)), count = Int(try c.integer(2)), k = Int(try c.integer(3))
                    return c.returns(.number(world.stubDraw(site: site, count: count, k: k)))
                }),
                ("exploreDraws", { [unowned self] c throws(LuaFailure) in c.returns(.boolean(world.exploreStubDraws)) }),
                ("note", { [unowned self] c throws(LuaFailure) in
                    world.noteStubDraw(c.text(1), at: c.text(2), c.text(3))
                    return 0
                }),
                ("info", { [unowned self] c throws(LuaFailure) in
                    world.noteUnsupported(c.text(1))
                    return 0
                }),
                ("didYouMean", { c throws(LuaFailure) in
                    c.returns(.string(c.didYouMean(c.text(1), among: c.strings(ofItemsOf: 2))))
                }),
                ("where", { c throws(LuaFailure) in
                    c.returns(c.location.map { .string($0.description) } ?? .null)
                }),
            ], completes: false)
            defer { lua.release(prims) }
            swiftRuntimeLoaded = true
            return c.returns(modules, .ref(prims))
        }
    }

    /// Warnings about the scenario found while loading it (unused stub names), for standard error.
    func collectLoadWarnings() {
        guard swiftRuntimeLoaded, let swift = lua.globalRef("swift") else { return }
        defer { lua.release(swift) }
        let unused = lua.field("unusedStubs", of: swift)
        defer { lua.release(unused) }
        if case .success(let list) = lua.callHelper(unused, []) {
            loadWarnings += lua.strings(ofItemsOf: list)
            lua.release(list)
        }
    }
}

// A ScriptHost in plain Swift: each ScriptRef is a Swift closure, so the simulator's rules can be
// tested without Lua.
@testable import LuaFetchCore

final class FakeHost: ScriptHost {
    var functions: [Int: (Invocation) -> Outcome] = [:]
    var released: [Int] = []
    var lines: [Int: Int] = [:]

    func location(of ref: ScriptRef) -> SourceLocation? {
        lines[ref.id].map { SourceLocation(file: "fake.lua", line: $0) }
    }
    let world: World

    init(options: RunOptions = RunOptions()) {
        world = World(file: "fake.lua", options: options)
        world.host = self
    }

    /// Registers a closure and returns its reference.
    func fn(line: Int = 1, _ body: @escaping (Invocation) -> Void) -> ScriptRef {
        let id = functions.count + 1
        functions[id] = { body($0); return .returned(truthy: true) }
        lines[id] = line
        return ScriptRef(id: id)
    }

    func invoke(_ fn: ScriptRef, _ invocation: Invocation) -> Outcome { functions[fn.id]!(invocation) }

    func respond(with responder: ScriptRef, isHandler: Bool, request: ScriptRef, requestID: Int) -> Result<ServedResponse, ScriptFailure> {
        .success(ServedResponse(status: 200, value: responder))
    }

    func release(_ ref: ScriptRef) { released.append(ref.id) }

    /// Timeline messages of one kind.
    func messages(_ kind: TimelineEntry.Kind) -> [String] { world.timeline.filter { $0.kind == kind }.map(\.message) }
}

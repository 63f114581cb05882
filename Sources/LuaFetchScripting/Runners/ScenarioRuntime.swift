// ScenarioRuntime: the simulator's scripting host. It owns a LuaState and a World, installs the
// sandbox (Prelude) and the API tables (one file each: app, user/system, timer, http, server,
// expect, scenario), loads the scenario file, and implements `ScriptHost` so the World can call
// handlers without seeing Lua. What the rest of the program sees is `load`, `run`, `world`. It
// reaches Lua only through LuaState, LuaCall and the option reader.
import LuaFetchCore

public final class ScenarioRuntime: ScriptHost {
    public let world: World
    let lua: LuaState
    let path: String
    /// Load the prelude and scenario from bytecode this process compiled before (explore; see CompiledChunks).
    let reuseCompiledChunks: Bool
    /// The `app` object (the UIApplication handed to every handler), and the scene's.
    var appObject = ScriptRef(id: -1)
    var sceneObject = ScriptRef(id: -1)
    /// The metatable of timer objects.
    var timerMeta = ScriptRef(id: -1)
    /// The metatable of shared-container locks, serial queues and mutexes.
    var lockMeta = ScriptRef(id: -1)
    var queueMeta = ScriptRef(id: -1)
    var mutexMeta = ScriptRef(id: -1)
    /// The metatables of dispatch groups and semaphores.
    var groupMeta = ScriptRef(id: -1)
    var semaphoreMeta = ScriptRef(id: -1)
    /// The metatable of BGTask objects.
    var taskMeta = ScriptRef(id: -1)
    /// Background URL sessions: the metatables of session and transfer objects, and each
    /// session's object in the process that made it.
    var sessionMeta = ScriptRef(id: -1)
    var transferMeta = ScriptRef(id: -1)
    var sessionObjects: [String: (pid: Int, ref: ScriptRef)] = [:]
    /// `defaults`: the app's UserDefaults, a table of property lists (SPEC 12.1).
    var defaultsStore = ScriptRef(id: -1)
    /// The Lua object of each live timer (`t` in `t:invalidate()`), made once per timer; by slot.
    @exclusivity(unchecked) var timerObjects: [ScriptRef?] = []
    /// The prelude's reseeding of math.random, and the table it returned (`show`, `strict`).
    var reseed: ScriptRef?
    var preludeExports = ScriptRef(id: -1)
    /// Paths of every chunk loaded from disk (scenario and modules), to undo Lua's truncation.
    var chunkPaths: [String] = []
    var scenarioDeclaredAt: String?
    var appDeclaredAt: String?
    /// Whether a scenario read `swift` (the runtime of imported scenarios, SPEC 18).
    public internal(set) var swiftRuntimeLoaded = false
    /// Warnings found while loading (unused `stubs{}` names): the command prints them to stderr.
    public internal(set) var loadWarnings: [String] = []
    /// With coverage on: the source of every file loaded so far (the scenario, each module it
    /// required), by path, for the coverage report (RunCoverage.swift). Kept across warm runs.
    public internal(set) var coverageSources: [String: [UInt8]] = [:]

    /// Creates the runtime for the scenario at `path` (used in messages and chunk names).
    /// `lazyBudget` (the command line only: one runtime per process) arms the instruction budget
    /// through a CPU-time watchdog instead of on every instruction; see LuaState.armBudgetLazily.
    /// `lazyTickMs`: the lazy watchdog's period (see LuaState.armBudgetLazily); only benchmarks
    /// under valgrind, where CPU time is inflated fiftyfold, raise it.
    /// `coverage`: record which lines of scenario code run (RunCoverage.swift); the runs are the
    /// same, byte for byte.
    public init(path: String, options: RunOptions = RunOptions(), instructionBudget: Int64 = 100_000_000,
                memoryCap: Int = 256 << 20, lazyBudget: Bool = false, lazyTickMs: Int = 10, reuseCompiledChunks: Bool = false,
                restorable: Bool = false, coverage: CoverageMode = .off) {
        self.path = path
        self.reuseCompiledChunks = reuseCompiledChunks
        world = World(file: path, options: options)
        world.config.instructionBudget = instructionBudget
        world.config.memoryCap = options.limits.memory ?? memoryCap
        world.config.instructionLimit = options.limits.instructions ?? world.config.instructionLimit
        world.config.eventLimit = options.limits.events ?? world.config.eventLimit
        lua = LuaState(memoryCap: world.config.memoryCap, instructionBudget: instructionBudget,
                       totalBudget: world.config.instructionLimit, restorable: restorable)
        world.host = self
        if coverage != .off { _ = lua.startCoverage(edges: coverage == .guided) }
        lua.mustStop = { [unowned self] in
            lua.account(hostBytes: world.hostBytes)
            return (world.stopRequested && world.context == .app) || world.fatal != nil
        }
        installPrelude()
        if restorable { preludeRandom = lua.randomState }
        installAPI()
        sceneObject = lua.strictTable("scene", methods: [], fields: [
            "state": { [unowned self] in .string(world.sceneState.rawValue) },
        ], completes: false)
        if lazyBudget { _ = lua.armBudgetLazily(tickMs: lazyTickMs) }
    }

    /// Applies `scenario{ limits = {...} }` (the command line's limits win).
    func applyLimits(instructions: Int64?, events: Int?, memory: Int?) {
        let given = world.options.limits
        if given.instructions == nil, let instructions {
            world.config.instructionLimit = instructions
            lua.totalBudget = instructions
        }
        if given.events == nil, let events { world.config.eventLimit = events }
        if given.memory == nil, let memory {
            world.config.memoryCap = memory
            lua.memoryCap = memory
        }
    }

    /// The lazy budget doubted this run (see LuaState.armBudgetLazily; a run it abandoned was
    /// doubted first): its output may not be what an exact run prints; redo it with `lazyBudget: false`.
    public var needsExactRerun: Bool { lua.tripped }

    // MARK: - Loading

    /// Reads, checks and runs the scenario's top-level code. Throws a ScenarioError (exit 2).
    public func load() throws(ScenarioError) {
        let bytes = try ScenarioFile.read(path)
        if lua.coverageOn { coverageSources[path] = bytes }
        try run(source: bytes, chunkName: "@" + path)
        collectLoadWarnings()
    }

    /// Runs a chunk of scenario source as top-level code (the REPL uses this too).
    public func run(source: [UInt8], chunkName: String) throws(ScenarioError) {
        if chunkName.hasPrefix("@") { notePath(String(chunkName.dropFirst())) }
        do { try runChunk(source: source, chunkName: chunkName) } catch { throw expand(error) }
    }

    private func runChunk(source: [UInt8], chunkName: String) throws(ScenarioError) {
        let chunk: ScriptRef
        switch lua.compile(source, chunkName: chunkName, cached: reuseCompiledChunks && chunkName.hasPrefix("@")) {
        case .success(let f): chunk = f
        case .failure(let err): throw ScenarioError(err.text)
        }
        let saved = world.context
        if world.context != .repl { world.context = .topLevel }
        let r = lua.call(chunk, [])
        lua.release(chunk)
        world.context = saved
        if let fatal = world.fatal { throw fatal }
        switch outcome(r, fallback: nil) {
        case .returned: return
        case .failed(let f):
            if f.kind == .error { throw ScenarioError(f.message, traceback: f.traceback) }
            world.failWorld(f)
            throw world.fatal ?? ScenarioError("\(path): scenario stopped")
        }
    }

    /// Runs the loaded scenario to its end.
    public func run() throws(ScenarioError) {
        do { try world.run() } catch { throw expand(error) }
    }

    // MARK: - Warm runs (explore)

    /// The generator state the prelude seeded (restorable runtimes only).
    private var preludeRandom: [UInt8] = []
    /// What `saveState` kept of the runtime itself (the heap and the World keep their own); a
    /// class, so a restore reads it without copying it.
    private final class Saved {
        var world: WorldState
        var appObject, sceneObject, timerMeta, lockMeta, queueMeta, mutexMeta, groupMeta, semaphoreMeta, taskMeta, sessionMeta, transferMeta: ScriptRef
        var sessionObjects: [String: (pid: Int, ref: ScriptRef)]
        var defaultsStore: ScriptRef
        var timerObjects: [ScriptRef?]
        var reseed: ScriptRef?
        var preludeExports: ScriptRef
        var chunkPaths: [String]
        var scenarioDeclaredAt, appDeclaredAt: String?
        init(_ r: ScenarioRuntime) {
            world = WorldState(of: r.world)
            (appObject, sceneObject, timerMeta, lockMeta, queueMeta) = (r.appObject, r.sceneObject, r.timerMeta, r.lockMeta, r.queueMeta)
            (mutexMeta, groupMeta, semaphoreMeta, taskMeta, sessionMeta, transferMeta) = (r.mutexMeta, r.groupMeta, r.semaphoreMeta, r.taskMeta, r.sessionMeta, r.transferMeta)
            sessionObjects = r.sessionObjects; defaultsStore = r.defaultsStore; timerObjects = r.timerObjects; reseed = r.reseed
            preludeExports = r.preludeExports; chunkPaths = r.chunkPaths
            scenarioDeclaredAt = r.scenarioDeclaredAt; appDeclaredAt = r.appDeclaredAt
        }
    }
    private var saved: Saved?

    /// Saves the runtime as it is now (its Lua heap, this runtime, its World), before or after
    /// `load()`, so that `restoreState` can start another run from here. False when it cannot: the
    /// runtime is not restorable, it ran already, or the scenario's top-level code drew from
    /// math.random or reseeded it (what it did would then depend on the seed).
    public func saveState() -> Bool {
        guard !world.started, world.fatal == nil, !preludeRandom.isEmpty, lua.randomState == preludeRandom,
              lua.seededRandomState(scenarioSeed()) == preludeRandom, lua.save() else { return false }
        saved = Saved(self)
        return true
    }

    /// Puts the runtime back to where `saveState` left it, with other options (seed, order, cut):
    /// exactly the runtime a fresh one with those options would be at that point.
    public func restoreState(options: RunOptions) {
        guard let s = saved else { preconditionFailure("restoreState needs saveState") }
        lua.restore()
        s.world.restore(world, options: options)
        (appObject, sceneObject, timerMeta, lockMeta, queueMeta) = (s.appObject, s.sceneObject, s.timerMeta, s.lockMeta, s.queueMeta)
        (mutexMeta, groupMeta, semaphoreMeta, taskMeta, sessionMeta, transferMeta) = (s.mutexMeta, s.groupMeta, s.semaphoreMeta, s.taskMeta, s.sessionMeta, s.transferMeta)
        sessionObjects = s.sessionObjects; defaultsStore = s.defaultsStore; timerObjects = s.timerObjects; reseed = s.reseed
        preludeExports = s.preludeExports; chunkPaths = s.chunkPaths
        scenarioDeclaredAt = s.scenarioDeclaredAt; appDeclaredAt = s.appDeclaredAt
        completions = []  // saved before any run: no grant was pending
        lua.reseedRandom(scenarioSeed())
    }

    // MARK: - Long chunk names

    func notePath(_ path: String) {
        if ("@" + path).utf8.count > 60, !chunkPaths.contains(path) { chunkPaths.append(path) }
    }

    /// Lua shortens a chunk name over 60 bytes to "..." and its last 56 bytes; put the path back.
    func expandChunkNames(_ text: String) -> String {
        var out = text
        for path in chunkPaths {
            let short = "..." + String(decoding: Array(path.utf8.suffix(56)), as: UTF8.self)
            out = out.replacingAll(short + ":", with: path + ":")
        }
        return out
    }

    func expand(_ e: ScenarioError) -> ScenarioError {
        chunkPaths.isEmpty ? e : ScenarioError(expandChunkNames(e.message), traceback: e.traceback.map(expandChunkNames))
    }

    // MARK: - References

    public func release(_ ref: ScriptRef) { lua.release(ref) }

    public func location(of ref: ScriptRef) -> SourceLocation? { lua.location(of: ref) }
    public func charge(hostWork units: Int) { lua.chargeHostWork(Int64(units)) }

    /// The handlers `invoke` is running, innermost last: kept only while the World keeps lines
    /// for the page (`World.keepsLines`), for `currentLocation`.
    @exclusivity(unchecked) private var invoking: [ScriptRef] = []

    public func currentLocation() -> SourceLocation? {
        if let l = lua.runningLocation() { return SourceLocation(file: l.file, line: l.line) }
        return invoking.last.flatMap { location(of: $0) }
    }

    public func sourceText(of file: String) -> [UInt8]? { ScenarioFile.bytes(file) }

    // MARK: - ScriptHost

    public func invoke(_ fn: ScriptRef, _ invocation: Invocation) -> Outcome {
        let lines = world.keepsLines
        if lines { invoking.append(fn) }
        defer { if lines { invoking.removeLast() } }
        let watched = watchCompletions(invocation)
        let r: LuaRunResult
        if invocation.count == 0 {
            r = lua.call(fn)
        } else if invocation.count == 1, case .timer(let handle) = invocation[0] {
            r = lua.call(fn, ref: timerObject(handle))  // a timer's every firing: no argument to make
        } else {
            r = lua.call(fn, count: invocation.count) { value(invocation[$0]) }
        }
        if watched { noteHeld(r) }
        if r.status == .ok { return .returned(truthy: r.truthy) }
        return outcome(r, fallback: location(of: fn))
    }

    // MARK: - Where a missed completion's handler was held

    /// The completion handlers handed to the app (fetch, push, URL-session events) whose grants
    /// may still be pending, each made once, and the BGTasks' objects (`fn` nil: the table itself
    /// is watched). Every handler call watches them (LuaState.watchNext): a call that can reach one
    /// records where a function holding it returned, or the line it parked at, so that a missed
    /// completion names the path that ended without calling it (or completing the task).
    var completions: [(key: GrantKey, fn: HostFunction?, box: UnsafeMutableRawPointer)] = []

    static func tag(_ key: GrantKey) -> Int { Int(key.kind.rawValue) << 48 | key.serial }

    /// The completion handler of `key` (made on first use).
    func completion(_ key: GrantKey) -> HostFunction {
        if let c = completions.first(where: { $0.key == key }), let fn = c.fn { return fn }
        let fn = completionHandler(key)
        completions.append((key, fn, Unmanaged.passUnretained(fn).toOpaque()))
        return fn
    }

    /// Watches a BGTask's object as its completion (`task:setTaskCompleted`).
    func watchTask(_ object: ScriptRef, key: GrantKey) {
        guard let box = lua.identity(of: object) else { return }
        completions.append((key, nil, box))
    }

    /// Before a handler call with `invocation`: the completions whose grants are still pending,
    /// for the call to watch. False (and nothing to do) when there are none.
    @inline(__always) func watchCompletions(_ invocation: Invocation) -> Bool {
        // The common case, inline: no completion among the arguments and none pending (a timer's
        // callback, with or without its timer object).
        if !invocation.hasCompletion && completions.isEmpty { return false }
        return watchPendingCompletions(invocation)
    }

    @inline(never) func watchPendingCompletions(_ invocation: Invocation) -> Bool {
        for i in 0..<invocation.count { if case .completion(let key) = invocation[i] { _ = completion(key) } }
        guard !completions.isEmpty else { return false }
        completions.removeAll { !world.isGrantPending($0.key) }
        guard !completions.isEmpty else { return false }
        lua.watchNext = completions.map { ($0.box, Self.tag($0.key)) }
        return true
    }

    /// After a watched call: where code holding a pending completion returned (or waits).
    func noteHeld(_ r: LuaRunResult) {
        lua.watchNext = []
        guard let held = r.held else { return }
        for c in completions where held.tags.contains(Self.tag(c.key)) {
            world.completionHeld(c.key, lastAt: SourceLocation(file: held.line.file, line: held.line.line), held.waits ? .waits : .returned)
        }
    }

    public func invokeNotingReturn(_ fn: ScriptRef, _ invocation: Invocation) -> (outcome: Outcome, returned: SourceLocation?) {
        let watched = watchCompletions(invocation)
        lua.watchNext.insert(LuaState.watchSelf, at: 0)  // and the handler's own return
        let r = invocation.count == 0 ? lua.call(fn) : lua.call(fn, count: invocation.count) { value(invocation[$0]) }
        lua.watchNext = []
        if watched { noteHeld(r) }
        let returned = r.held.map { SourceLocation(file: $0.line.file, line: $0.line.line) }
        if r.status == .ok { return (.returned(truthy: r.truthy), returned) }
        return (outcome(r, fallback: location(of: fn)), nil)
    }

    public func runningLine(forCompletionOf key: GrantKey) -> SourceLocation? {
        guard lua.runningWatchTags.contains(Self.tag(key)), let l = lua.runningLocation() else { return nil }
        return SourceLocation(file: l.file, line: l.line)
    }

    /// The Lua value of a World's argument.
    func value(_ a: ScriptValue) -> LuaValue {
        switch a {
        case .null: return .null
        case .string(let s): return .string(s)
        case .integer(let i): return .integer(Int64(i))
        case .ref(let r): return .ref(r)
        case .table(let fields): return .table(fields.map { ($0.0, value($0.1)) })
        case .app: return .ref(appObject)
        case .scene: return .ref(sceneObject)
        case .timer(let handle): return .ref(timerObject(handle))
        case .completion(let key): return .function(completion(key))
        }
    }

    func outcome(_ r: LuaRunResult, fallback: SourceLocation?) -> Outcome {
        if r.status == .ok { return .returned(truthy: r.truthy) }
        let loc = r.location.map { SourceLocation(file: $0.file, line: $0.line) } ?? fallback
        switch r.status {
        case .ok: return .returned(truthy: r.truthy)
        case .error:
            var message = expandChunkNames(r.message)
            if !Self.hasLocation(message), let loc { message = "\(loc): \(message)" }
            return .failed(ScriptFailure(kind: .error, message: message, traceback: r.traceback.map(expandChunkNames), location: loc))
        case .budget: return .failed(ScriptFailure(kind: .instructionBudget, message: "", traceback: r.traceback, location: loc))
        case .memory: return .failed(ScriptFailure(kind: .memoryCap, message: r.message, traceback: r.traceback, location: loc))
        case .stopped, .interrupted: return .failed(ScriptFailure(kind: .stopped, message: "", location: loc))
        case .runLimit: return .failed(ScriptFailure(kind: .runLimit, message: "", traceback: r.traceback, location: loc))
        case .restart: return .failed(ScriptFailure(kind: .abandoned, message: ""))
        case .parked: return .failed(ScriptFailure(kind: .stopped, message: "", location: loc))  // threads only (runThread)
        }
    }

    /// Whether an error message already starts with `something:LINE:`.
    static func hasLocation(_ message: String) -> Bool {
        guard let colon = message.firstIndex(of: ":") else { return false }
        let rest = message[message.index(after: colon)...]
        let digits = rest.prefix(while: { $0.isNumber })
        return !digits.isEmpty && rest.dropFirst(digits.count).first == ":"
    }

    public func respond(with responder: ScriptRef, isHandler: Bool, request: ScriptRef, requestID: Int)
        -> Result<ServedResponse, ScriptFailure> {
        lua.response(from: responder, isHandler: isHandler, request: request) { r in
            if case .failed(let f) = outcome(r, fallback: nil) { return f }
            return ScriptFailure(kind: .error, message: "")
        }
    }

    // MARK: - ScriptValue objects

    /// The Lua object of the timer with this handle (made once, kept by the timer's slot).
    func timerObject(_ handle: Int) -> ScriptRef {
        let slot = handle & 0xFFFF_FFFF
        if slot < timerObjects.count, let made = timerObjects[slot] { return made }
        let made = lua.object([("id", .integer(Int64(world.timerSerial(handle) ?? 0))), ("handle", .integer(Int64(handle)))],
                              metatable: timerMeta)
        if slot >= timerObjects.count { timerObjects += Array(repeating: nil, count: slot + 1 - timerObjects.count) }
        timerObjects[slot] = made
        return made
    }

    public func timerEnded(_ handle: Int) {
        let slot = handle & 0xFFFF_FFFF
        guard slot < timerObjects.count, let made = timerObjects[slot] else { return }
        lua.release(made)
        timerObjects[slot] = nil
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation needed).
    func replacingAll(_ target: String, with replacement: String) -> String {
        let t = Array(target.utf8), s = Array(utf8)
        guard !t.isEmpty, s.count >= t.count else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            if i + t.count <= s.count && s[i] == t[0] && Array(s[i..<i + t.count]) == t {
                out.append(contentsOf: replacement.utf8)
                i += t.count
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}


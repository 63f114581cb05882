// Calling scenario code from the World: app code (`callApp`, `runApp`: the app's context,
// nesting, the callback limit), world code (`callWorld`), failures of either, and where an event
// came from. Uses the ScriptHost (the contract with Lua) and the process's state.

extension World {
    // MARK: - Calling scenario code

    public var isRunning: Bool { state == .inactive || state == .active || state == .background }
    public var isForeground: Bool { state == .inactive || state == .active }

    /// Calls app code. Returns false when the app did not survive the call (or was not running).
    @discardableResult
    func callApp(_ fn: ScriptRef, _ invocation: Invocation = .none) -> Bool {
        runApp { host.invoke(fn, invocation) }
    }

    /// Runs app code through `body` (which calls the host) as the app; a failure is the app's
    /// (`app-crash`, `app-hang`, `out-of-memory`). Returns false when the app did not survive.
    @inline(__always)
    func runApp(_ body: () -> Outcome) -> Bool {
        guard isRunning, fatal == nil else { return false }
        let myPid = pid
        let saved = context
        context = .app
        appDepth += 1
        let outcome = body()
        appDepth -= 1
        context = saved
        if appDepth == 0 { stopRequested = false }
        guard pid == myPid, isRunning else { return false }
        guard case .failed(let failure) = outcome else { return true }
        switch failure.kind {
        case .error:
            crash(.appCrash, at: failure.location, failure.message, traceback: failure.traceback)
        case .instructionBudget:
            crash(.appHang, at: failure.location,
                  "a handler ran past the instruction budget (\(config.instructionBudget) Lua instructions): an endless loop? The watchdog terminated the app",
                  traceback: failure.traceback)
        case .memoryCap:
            crash(.outOfMemory, at: failure.location,
                  "the scenario's Lua memory passed its cap (\(config.memoryCap >> 20) MiB); the app was terminated",
                  traceback: failure.traceback)
        case .stopped:
            break
        case .runLimit, .abandoned:
            failWorld(failure)
        }
        return false
    }

    /// Calls world code (at/every, server handlers, expectations). An error ends the run (exit 2).
    @discardableResult
    func callWorld(_ fn: ScriptRef, _ invocation: Invocation = .none, as ctx: ExecContext = .world) -> Outcome {
        let saved = context
        context = ctx
        let outcome = host.invoke(fn, invocation)
        context = saved
        if case .failed(let f) = outcome { failWorld(f) }
        return outcome
    }

    /// Records a failure of world or top-level code as the run's scenario error (exit 2).
    public func failWorld(_ f: ScriptFailure) {
        guard fatal == nil else { return }
        switch f.kind {
        case .error:
            fatal = ScenarioError(f.message, traceback: f.traceback)
        case .instructionBudget:
            fatal = ScenarioError("\(f.location.map { "\($0): " } ?? "")scenario code ran past the instruction budget (\(config.instructionBudget) Lua instructions in one call, with the work done for it: library functions and allocation): an endless loop, or more work than one call may do (split it across events)", traceback: f.traceback)
        case .memoryCap:
            fatal = ScenarioError("\(f.location.map { "\($0): " } ?? "")scenario code passed the memory cap (\(Self.bytes(config.memoryCap))); raise it with scenario{ limits = { memory = BYTES } } or --limit-memory", traceback: f.traceback)
        case .runLimit:
            fatal = ScenarioError("\(f.location.map { "\($0): " } ?? "\(file): ")the run passed its limit of \(config.instructionLimit) Lua instructions (all handlers and world code together, with the work done for them: library functions, allocation and luafetch's own); raise it with scenario{ limits = { instructions = N } } or --limit-instructions", traceback: f.traceback)
        case .abandoned:
            fatal = ScenarioError("\(file): the run was abandoned")
        case .stopped:
            break
        }
    }

    /// A byte count as people read it: "256 MiB", "1.5 KiB", "1000 bytes".
    static func bytes(_ n: Int) -> String {
        if n >= 1 << 20 && n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
        if n >= 1 << 10 && n % (1 << 10) == 0 { return "\(n >> 10) KiB" }
        return "\(n) bytes"
    }

    /// Where the scenario code behind an event was written, when it has any.
    func location(of event: Event) -> SourceLocation? {
        subsystems[Int(event.owner.rawValue)].location(of: event, in: self)
    }

    /// Records a scenario error raised by the API on behalf of world code.
    public func fail(_ error: ScenarioError) { if fatal == nil { fatal = error } }

}

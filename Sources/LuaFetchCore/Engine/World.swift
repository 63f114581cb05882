// The World: all mutable state of one simulation (turmoil-style) and its event loop. Time jumps
// from event to event (swift-clocks' TestClock style); nothing runs on a wall clock. The app's
// process and lifecycle are the World's own (Lifecycle.swift); everything else is a subsystem
// (Subsystem.swift) the World asks in a fixed order: background tasks, grants, the network, app
// timers, the fetch schedule, expectations, the timeline. It uses EventQueue, Profile, Violations
// and a ScriptHost to run scenario code.

/// The app's internal state (SPEC 4.1).
public enum AppState: String, Sendable { case notRunning, inactive, active, background, suspended }

/// Who is running code right now: decides what an API call may do and who a `print` is from.
public enum ExecContext: Equatable, Sendable {
    /// `server`: a fake server's route handler (`World.serverRunning` names its host). No payloads:
    /// saving and restoring the context around every call costs no reference counting.
    case topLevel, world, app, server, expect, repl
}

/// A scenario error: exit 2 with `file:line: message`.
public struct ScenarioError: Error, Sendable {
    public var message: String
    public var traceback: String?
    public init(_ message: String, traceback: String? = nil) { self.message = message; self.traceback = traceback }
}

/// One line of the timeline.
public struct TimelineEntry: Sendable {
    public enum Kind: String, Sendable {
        case log, state, action, task, fetch, net, server, violation, expect, info
        /// The raw value as a constant (JSON Lines writes it without making a String).
        var name: StaticString {
            switch self {
            case .log: "log"
            case .state: "state"
            case .action: "action"
            case .task: "task"
            case .fetch: "fetch"
            case .net: "net"
            case .server: "server"
            case .violation: "violation"
            case .expect: "expect"
            case .info: "info"
            }
        }
    }
    public var time: Millis
    public var actor: String
    public var kind: Kind
    public var message: String
    /// For violations: the index into `World.violations`.
    public var violation: Int?
    /// What happened, for machine-readable output (JSON Lines, trace).
    public var detail: Detail?
    /// The scenario line behind it: kept only for the page (`TimelineKeeping.picture`), where a
    /// click shows that line.
    public var location: SourceLocation? = nil

    /// Structured facts behind a timeline line.
    public enum Detail: Sendable {
        case state(AppState)
        case taskBegan(id: Int, name: String?)
        case taskEnded(id: Int)
        case budget(deadline: Millis, budget: Millis)
        case fetchStarted(id: Int, scheduled: Bool)
        case fetchEnded(id: Int, result: String)
        case requestSent(id: Int, host: String, method: String, path: String)
        case requestDone(id: Int, status: Int?, error: String?)
        case served(host: String, route: String, status: Int)
        /// A BGTask or a push began (its kind's name, its number, what it is) or ended.
        case grantBegan(kind: String, id: Int, name: String)
        case grantEnded(kind: String, id: Int, outcome: String)
        /// A push that was not delivered, and why.
        case pushDropped(id: Int, reason: String)
        /// The scene's state changed (SPEC 16).
        case scene(String)
    }
}

/// Stored properties on the path of every event (here, in the event queue, the subsystems and
/// the scripting layer) are `@exclusivity(unchecked)`: without it, a plain `swift build -c release`
/// (no `-enforce-exclusivity=unchecked`, as `swift run`, Mint or Homebrew build) checks each access
/// at run time, 2.7× the instructions per event (issue 31; docs/PERFORMANCE.md, the `build` row). A
/// property the per-event path starts to touch gets the attribute too; the rest keep the checks
/// that debug builds and tests make.
public final class World {
    // MARK: - Configuration
    @exclusivity(unchecked) public var config: ScenarioConfig
    @exclusivity(unchecked) public internal(set) var options: RunOptions
    public private(set) var budgets: Budgets
    public var os: OSProfile { options.os ?? config.os }
    public var seed: Int64 { options.seed ?? config.seed }
    public var app = AppDeclaration()
    /// The scenario file, as given on the command line.
    public let file: String
    /// The scripting layer that runs scenario code (it owns the World; set right after both exist).
    /// Unowned without checks: the host outlives its World, and every call into scenario code
    /// passes here (a checked reference costs a count increment and decrement each time).
    @exclusivity(unchecked) public unowned(unsafe) var host: ScriptHost!

    // MARK: - Clock
    let queue = EventQueue()
    @exclusivity(unchecked) public internal(set) var now: Millis = 0
    public internal(set) var endTime: Millis = Time.maxRun
    public internal(set) var started = false
    public internal(set) var finished = false

    // MARK: - Who runs
    @exclusivity(unchecked) public var context: ExecContext = .topLevel
    /// The host of the fake server whose handler runs (while `context` is `.server`).
    var serverRunning = ""
    /// App handlers on the stack; a termination while > 0 stops them all.
    @exclusivity(unchecked) var appDepth = 0
    /// Set when the app was terminated while its code was running: the scripting layer stops it.
    @exclusivity(unchecked) public internal(set) var stopRequested = false
    /// The limit of the delegate callback running now (didEnterBackground, willTerminate, launch),
    /// which its notification's observers share (SPEC 12.3).
    @exclusivity(unchecked) var callbackLimit: (deadline: Millis, method: DelegateMethod, allowed: Millis)?
    /// The system notification whose observers are running now (for messages).
    var observing: String?
    /// The main thread blocked in `work`, a lock or `q:sync` (SPEC 12.2), and what it waits for.
    @exclusivity(unchecked) public internal(set) var mainBlock: MainBlock?
    var mainWait: (what: ThreadWait, location: SourceLocation?)?
    /// Main-thread work that fell due while the main thread was blocked, in order.
    @exclusivity(unchecked) var mainWaiting: [MainWaiter] = []
    /// When the transition running now fell due, if it waited for the main thread (its limit
    /// counts from then).
    var transitionStart: Millis?
    /// When the transition whose calls run now fell due (SPEC 12.2, third amendment): its calls
    /// without a limit of their own must return by then + `mainThreadHang`, kept in
    /// `transitionHang` while one of them runs (with the name of the call).
    var transitionDue: Millis?
    var transitionHang: (deadline: Millis, call: String)?
    /// A move to the foreground has begun (an open): the app is not suspended while its calls
    /// run or wait for the main thread (SPEC 12.2).
    @exclusivity(unchecked) var movingToForeground = false
    /// The scene (SPEC 16): whether one is connected, and `scene.state`.
    public internal(set) var sceneConnected = false
    public internal(set) var sceneState = SceneState.unattached
    /// With the debugger attached: the app would be suspended now (reported once).
    @exclusivity(unchecked) var debuggerHeldSuspension = false
    /// The instant the process was suspended before its same-instant blocks ran (the other order
    /// of SPEC 12.4's third choice point), and whether one of those blocks is running now.
    @exclusivity(unchecked) var racedSuspension: Millis?
    var inRacedBlock = false
    /// A world-code error: the run ends with exit 2.
    @exclusivity(unchecked) public internal(set) var fatal: ScenarioError?

    // MARK: - App process
    @exclusivity(unchecked) public internal(set) var state: AppState = .notRunning
    @exclusivity(unchecked) public internal(set) var pid = 0
    var interruption: (token: Int, active: Bool) = (0, false)
    var forceQuitBlocked = false
    public internal(set) var launchReason: LaunchReason?
    @exclusivity(unchecked) var parked: [QueuedEvent] = []
    var observers: [(name: String, fn: ScriptRef, pid: Int?)] = []
    /// The delegate `app{ delegate = function ... }` made for the running process (SPEC 12.1).
    var processDelegate = ProcessDelegate()
    /// Whether fetch-not-configured was reported (a process delegate is checked at each launch).
    var warnedFetchNotConfigured = false

    // MARK: - Subsystems (each keeps its state; the World's extensions hold the behaviour)
    let timelineEvents = Timeline()
    let lifecycle = LifecycleEvents()
    let container = SharedContainer()
    let tasks = TaskBook()
    let grants = GrantBook()
    let net = NetworkState()
    let appTime = AppTimeBook()
    let threads = ThreadBook()
    let dispatchBook = DispatchBook()
    let fetch = FetchSchedule()
    let bgTasks = BGScheduler()
    let pushBehaviour = PushBehaviour()
    let sessions = URLSessionBook()
    let expectations = ExpectationBook()
    /// Every subsystem, in `SubsystemID` order (the order the World asks them in).
    private(set) lazy var subsystems: [Subsystem] = {
        let all: [(SubsystemID, Subsystem)] = [(.timeline, timelineEvents), (.lifecycle, lifecycle), (.container, container), (.tasks, tasks),
            (.grants, grants), (.network, net), (.appTime, appTime), (.threads, threads), (.dispatch, dispatchBook), (.fetch, fetch), (.bgTasks, bgTasks), (.sessions, sessions), (.expectations, expectations)]
        precondition(all.map(\.0) == SubsystemID.allCases, "subsystems must be listed in SubsystemID order")
        return all.map(\.1)
    }()
    /// The app's timers (kept by the app-time subsystem; mutated in place, never copied).
    var timers: TimerBook {
        _read { yield appTime.timers }
        _modify { yield &appTime.timers }
    }
    /// The device now: the scenario's `device`, with what the system changed at run time.
    public var device: DeviceSettings { changedDevice ?? config.device }
    private var changedDevice: DeviceSettings?
    func changeDevice(_ change: (inout DeviceSettings) -> Void) {
        var d = device
        change(&d)
        changedDevice = d
    }
    var worldRandom: SeededStream
    var schedulerRandom: SeededStream
    var networkRandom: SeededStream
    /// When the main thread was blocked (work, a lock, q:sync), and on what: kept with the timeline.
    public internal(set) var mainBlockSpans: [(start: Millis, end: Millis, what: String)] = []
    /// Explore's listener for milestones (nil in plain runs).
    public var onMilestone: ((Milestone, Millis?) -> Void)?
    /// Explore's driver: carries out its planned action number N (see `atExploreAction`).
    public var onExploreAction: ((Int) -> Void)?
    var bgRandom: SeededStream

    // MARK: - Output
    public internal(set) var timeline: [TimelineEntry] = []
    public internal(set) var violations: [Violation] = []
    @exclusivity(unchecked) public var stats = RunStats()
    /// Called for each timeline entry as it happens.
    @exclusivity(unchecked) public var sink: ((TimelineEntry, World) -> Void)?
    /// Keep entries in `timeline` (the REPL, tests and the trace read them).
    @exclusivity(unchecked) public var recordTimeline = true
    /// Which entries `timeline` keeps, so that a long run cannot grow it without bound.
    @exclusivity(unchecked) public var timelineKeeping = TimelineKeeping.all
    /// Entries `timelineKeeping` dropped.
    public internal(set) var timelineDropped = 0
    /// Bytes the recorded timeline holds (an estimate), counted against the memory cap.
    @exclusivity(unchecked) public internal(set) var timelineBytes = 0

    /// What the recorded timeline keeps.
    public enum TimelineKeeping: Sendable {
        /// Everything (tests, short runs).
        case all
        /// Only entries with structure or a violation, without their text, up to a limit (the trace).
        case structured(limit: Int)
        /// The most recent entries (the REPL's `.trace`).
        case recent(Int)
        /// What the HTML page draws and lists: every entry with its text and the scenario line
        /// behind it (`TimelineEntry.location`), up to a limit.
        case picture(limit: Int)
    }

    /// Whether kept entries carry their scenario line (the page's timeline): the host then keeps
    /// track of the handler it runs.
    public var keepsLines: Bool {
        if case .picture = timelineKeeping { return recordTimeline }
        return false
    }

    /// Forgets the recorded timeline (violation indexes stay valid: they point into `violations`).
    public func clearTimeline() { timeline.removeAll(); timelineBytes = 0 }

    /// Host-side memory this run keeps for the scenario (pending events, the recorded timeline,
    /// threads, queued blocks and background transfers):
    /// counted against the memory cap with the scenario's Lua memory (SPEC 11).
    public var hostBytes: Int { (queue.count + parked.count + mainWaiting.count) * World.bytesPerEvent + timelineBytes + threads.hostBytes + sessions.hostBytes }
    static let bytesPerEvent = 160

    public init(file: String, options: RunOptions = RunOptions()) {
        self.file = file
        self.options = options
        var name = file
        if let slash = name.lastIndex(of: "/") { name = String(name[name.index(after: slash)...]) }
        config = ScenarioConfig(name: name)
        budgets = OSProfile.ios13.budgets
        worldRandom = SeededStream(seed: 1, stream: "world")
        schedulerRandom = SeededStream(seed: 1, stream: "scheduler")
        networkRandom = SeededStream(seed: 1, stream: "network")
        bgRandom = SeededStream(seed: 1, stream: "bgtasks")
    }

    // MARK: - Scheduling

    @discardableResult
    func schedule(_ event: Event, at time: Millis, phase: Phase = .normal, recurring: Bool = false) -> EventID {
        queue.schedule(event, at: max(time, now), phase: phase, recurring: recurring)
    }

    /// `at(time, fn)`: world code at a virtual time.
    public func at(_ time: Millis, _ fn: ScriptRef) {
        schedule(Event(.timeline, Timeline.Kind.call, a: fn.id), at: time)
    }

    /// `every(interval, fn)`: world code every `interval` from `interval` on (the event carries
    /// the interval in `a`, which holds any duration, and the function in `b`).
    public func every(_ interval: Millis, _ fn: ScriptRef) {
        schedule(Event(.timeline, Timeline.Kind.every, a: Int(interval), b: fn.id), at: now + interval, recurring: true)
    }

    /// `typed(time, fn)`: a line typed at the REPL's prompt, as `.save` writes it: at `time`, after
    /// everything else of that millisecond, with the prompt's rights (app methods while the app
    /// runs, declarations).
    public func typed(_ time: Millis, _ fn: ScriptRef) {
        schedule(Event(.timeline, Timeline.Kind.typed, a: fn.id), at: time, phase: .typed)
    }

    /// Runs a Swift action at a virtual time (the REPL and explore inject actions this way).
    public func at(_ time: Millis, action body: @escaping () -> Void) {
        schedule(Event(.timeline, Timeline.Kind.action, a: timelineEvents.keep(body)), at: time)
    }

    /// Explore's planned action number `n` at a virtual time (`onExploreAction` carries it out):
    /// like `at(_:action:)`, without a closure per action.
    public func atExploreAction(_ n: Int, _ time: Millis) {
        schedule(Event(.timeline, Timeline.Kind.explore, a: n), at: time)
    }

    // MARK: - Running

    /// Applies the configuration and command-line options; call once after the scenario loaded.
    public func start() {
        guard !started else { return }
        started = true
        budgets = os.budgets
        for (name, value) in config.budgetOverrides { _ = budgets.set(name, seconds: value) }
        worldRandom = SeededStream(seed: seed, stream: "world")
        schedulerRandom = SeededStream(seed: seed, stream: "scheduler")
        networkRandom = SeededStream(seed: seed, stream: "network")
        bgRandom = SeededStream(seed: seed, stream: "bgtasks")
        endTime = min(config.duration ?? Time.maxRun, options.until ?? Time.maxRun, Time.maxRun)
        checkFetchConfigured(app.grantHandlers[.fetch])
        if app.scenes && (os == .ios6 || os == .ios7) {
            fatal = ScenarioError("\(app.location.map { "\($0)" } ?? file): app{}: scenes = true needs iOS 13 or later; the \(os.rawValue) profile has no scenes")
        }
        expectations.scheduleChecks(in: self)
    }

    /// Runs to the end. Throws a ScenarioError for world-code errors (exit 2).
    public func run() throws(ScenarioError) {
        start()
        while step(limit: endTime) {}
        if options.settle { settleAfterEnd() }
        if let fatal { throw fatal }
        finish()
        if let fatal { throw fatal }
    }

    /// Processes the next event at or before `limit`. Returns false when there is none (or the
    /// run is idle: only recurring events are left and no duration was set).
    @discardableResult
    public func step(limit: Millis, stopWhenIdle: Bool? = nil) -> Bool {
        guard fatal == nil else { return false }
        if !mainWaiting.isEmpty && runMainWaiter() { return true }
        guard let t = queue.peekTime(), t <= limit else { return false }
        guard stats.events < config.eventLimit else {
            let culprit = queue.peek().flatMap { location(of: $0.event) }.map { "\($0)" } ?? file
            fatal = ScenarioError("\(culprit): the run passed its limit of \(config.eventLimit) events at \(Time.stamp(now)) (an every() or timer with a tiny interval, or a block that submits itself, scheduled here?); use a longer interval or a shorter duration, or raise the limit with scenario{ limits = { events = N } } or --limit-events")
            return false
        }
        if stopWhenIdle ?? (config.duration == nil) && queue.liveNonRecurring == 0 { return false }
        let ev = queue.popPeeked()
        if ev.time > now { now = ev.time }
        stats.events += 1
        dispatch(ev)
        return true
    }

    // MARK: - Milestones (explore)

    /// Moments of the app's life explore places actions relative to (SPEC 10), each with the end
    /// of the window it opens (a deadline, a response), when there is one.
    public enum Milestone: Int, CaseIterable, Sendable {
        case taskBegan, backgroundTime, grant, request, suspended, backgroundLaunch
        static let count = allCases.count
    }

    func milestone(_ m: Milestone, until: Millis? = nil) {
        if let onMilestone { onMilestone(m, until) }
    }

    /// The longest `--settle` goes on past the end.
    public static let settleLimit: Millis = Time.hour

    /// `--settle`: the run ends as a person's day does (SPEC 10, third amendment). An app left in
    /// the foreground with work pending is sent Home once, so every task gets the deadline iOS
    /// would give it; then, past the end, the events that finish pending work run (not recurring
    /// ones alone) until nothing is pending or `settleLimit` has passed.
    func settleAfterEnd() {
        guard fatal == nil else { return }
        if isForeground, hasPendingWork {
            if let d = config.duration, now < min(d, endTime) { now = min(d, endTime) }
            log("user", .info, "(the run's time is up with work pending in the foreground: the person goes Home, as --settle does)")
            userHome()
            guard fatal == nil else { return }
        }
        guard queue.peekTime().map({ $0 > endTime }) ?? false else { return }
        if let d = config.duration, now < min(d, endTime) { now = min(d, endTime) }
        let cap = now + Self.settleLimit
        while fatal == nil, state != .notRunning || !mainWaiting.isEmpty, hasPendingWork, step(limit: cap, stopWhenIdle: true) {}
    }

    /// Whether work is pending that `pending-at-end` would report, or a request is in flight.
    var hasPendingWork: Bool {
        !net.requests.isEmpty || !pendingAtEnd().parts.isEmpty
    }

    /// Advances the clock to `time`, running every event up to it.
    public func advance(to time: Millis) {
        start()
        while step(limit: time, stopWhenIdle: false) {}
        if now < time && fatal == nil { now = time }
    }

    /// Ends the run: `duration` reached or idle; reports what is still pending, checks expectations.
    /// A run `--until` cut before its own end reports what happened up to the cut: what is still
    /// pending there is noted, not a violation (unless it settled), and the end-of-run expectations
    /// are not checked (the cut is not the scenario's end).
    public func finish() {
        guard !finished else { return }
        finished = true
        if let d = config.duration, now < min(d, endTime) { now = min(d, endTime) }
        // Cut: `--until` came before the scenario's own end (its duration; without one, the run
        // reached the cut or had work left).
        let cut = options.until.map { until in
            config.duration.map { until < $0 } ?? (now >= until || queue.liveNonRecurring > 0 || hasPendingWork)
        } ?? false
        if cut {
            if let until = options.until, now < until, !options.settle { now = until }
            cutAt = now
            if options.settle { reportPendingAtEnd() } else { notePendingAtCut() }
            let unchecked = expectations.atEndCount
            log("expect", .info, "(the run was cut by --until at \(Time.stamp(now))\(unchecked > 0 ? ": \(unchecked) end-of-run expectation\(unchecked == 1 ? " is" : "s are") not checked" : ""))")
        } else {
            reportPendingAtEnd()
            expectations.checkAtEnd(in: self)
        }
    }

    /// When `--until` cut the run before its own end (nil: it ran to its end).
    public private(set) var cutAt: Millis?

    @inline(__always)
    func dispatch(_ qe: QueuedEvent) {
        let event = qe.event
        if event.pid != 0 {
            guard Int(event.pid) == pid, state != .notRunning else { return }  // the process is gone
            if state == .suspended { parked.append(qe); return }
        }
        if mainBlock != nil {
            let s = subsystems[Int(event.owner.rawValue)]
            if s.needsMainThread(event) {
                mainWaiting.append(MainWaiter(due: qe.time, event: event, limit: s.mainWaitLimit(event)))
                return
            }
        }
        deliver(event, at: qe.time, .due)
    }

    /// Hands `event` to its subsystem, called as its own class (no existential, no array: this is
    /// every event's path).
    @inline(__always)
    func deliver(_ event: Event, at time: Millis, _ delivery: Delivery) {
        switch event.owner {
        case .timeline: timelineEvents.handle(event, at: time, delivery, in: self)
        case .lifecycle: lifecycle.handle(event, at: time, delivery, in: self)
        case .container: container.handle(event, at: time, delivery, in: self)
        case .tasks: tasks.handle(event, at: time, delivery, in: self)
        case .grants: grants.handle(event, at: time, delivery, in: self)
        case .network: net.handle(event, at: time, delivery, in: self)
        case .appTime: appTime.handle(event, at: time, delivery, in: self)
        case .threads: threads.handle(event, at: time, delivery, in: self)
        case .dispatch: dispatchBook.handle(event, at: time, delivery, in: self)
        case .fetch: fetch.handle(event, at: time, delivery, in: self)
        case .bgTasks: bgTasks.handle(event, at: time, delivery, in: self)
        case .sessions: sessions.handle(event, at: time, delivery, in: self)
        case .expectations: expectations.handle(event, at: time, delivery, in: self)
        }
    }

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
            fatal = ScenarioError("\(f.location.map { "\($0): " } ?? "")scenario code ran past the instruction budget (\(config.instructionBudget) Lua instructions): an endless loop?", traceback: f.traceback)
        case .memoryCap:
            fatal = ScenarioError("\(f.location.map { "\($0): " } ?? "")scenario code passed the memory cap (\(Self.bytes(config.memoryCap))); raise it with scenario{ limits = { memory = BYTES } } or --limit-memory", traceback: f.traceback)
        case .runLimit:
            fatal = ScenarioError("\(f.location.map { "\($0): " } ?? "\(file): ")the run passed its limit of \(config.instructionLimit) Lua instructions (all handlers and world code together; work inside library functions counts too); raise it with scenario{ limits = { instructions = N } } or --limit-instructions", traceback: f.traceback)
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

    // MARK: - Output helpers

    /// A timeline line. Its message is built only when someone reads it (a kept timeline or an
    /// output sink): `--quiet` runs format none.
    func log(_ actor: String, _ kind: TimelineEntry.Kind, _ message: @autoclosure () -> String, violation: Int? = nil,
             detail: TimelineEntry.Detail? = nil, location: SourceLocation? = nil) {
        guard recordTimeline || sink != nil else { return }
        let entry = TimelineEntry(time: now, actor: actor, kind: kind, message: message(), violation: violation, detail: detail,
                                  location: location)
        if recordTimeline { keep(entry) }
        sink?(entry, self)
    }

    private func keep(_ entry: TimelineEntry) {
        /// What one kept entry costs the host (an estimate, counted against the memory cap).
        func bytes(_ e: TimelineEntry) -> Int { 96 + e.message.utf8.count + (e.location?.file.utf8.count ?? 0) }
        var entry = entry
        switch timelineKeeping {
        case .all:
            break
        case .structured(let limit):
            guard entry.detail != nil || entry.violation != nil else { return }
            guard timeline.count < limit else { timelineDropped += 1; return }
            entry.message = ""
        case .picture(let limit):
            guard timeline.count < limit else { timelineDropped += 1; return }
            if entry.location == nil { entry.location = host?.currentLocation() }
        case .recent(let n):
            if timeline.count + 1 >= 2 * max(n, 1) {
                let drop = timeline.count + 1 - n
                for e in timeline[..<drop] { timelineBytes -= bytes(e) }
                timeline.removeFirst(drop)
                timelineDropped += drop
            }
        }
        timeline.append(entry)
        timelineBytes += bytes(entry)
    }

    /// `print`/`log` from scenario code: the actor is whoever is running.
    public func print(_ text: String) {
        let actor: String
        switch context {
        case .app: actor = "app"
        case .server: actor = serverRunning
        case .expect: actor = "expect"
        default: actor = "world"
        }
        log(actor, .log, text)
    }

    /// Records a violation and puts it on the timeline.
    func violate(_ code: ViolationCode, at location: SourceLocation?, _ message: String, traceback: String? = nil) {
        var message = message
        if let location, message.hasPrefix("\(location.plain): ") { message.removeFirst("\(location.plain): ".count) }
        else if let location, message.hasPrefix("\(location): ") { message.removeFirst("\(location): ".count) }
        violations.append(Violation(code: code, time: now, location: location, message: message, traceback: traceback))
        log(code.actor, .violation, message, violation: violations.count - 1)
    }

    /// Whether the run is as with Xcode's debugger attached (SPEC 12.5).
    public var debugger: Bool { options.debugger || config.debugger }

    /// A termination by the watchdog (`0x8badf00d`) or for a lock held at suspension
    /// (`0xdead10cc`). With the debugger attached it does not happen: it is reported as
    /// `masked-by-debugger` and the run goes on as if it had not (SPEC 12.5). Returns whether the
    /// app was terminated.
    @discardableResult
    func watchdogTerminate(_ code: ViolationCode, at location: SourceLocation?, _ message: String) -> Bool {
        guard debugger else {
            crash(code, at: location, message)
            return true
        }
        var text = message
        if let location, text.hasPrefix("\(location.plain): ") { text.removeFirst("\(location.plain): ".count) }
        else if let location, text.hasPrefix("\(location): ") { text.removeFirst("\(location): ".count) }
        violate(.maskedByDebugger, at: location,
                "the debugger kept the app alive; on a device this is \(code.rawValue) (\(code.exceptionCode ?? "terminated")): \(text)")
        return false
    }

    /// A choice point of SPEC 12.4 (an order iOS leaves open): the first alternative unless bit i
    /// of `--order` is set for the i-th choice point met. The other order is marked on the timeline.
    func chooseOther(_ what: String) -> Bool {
        let i = stats.choicePoints
        stats.choicePoints += 1
        guard i < 64, (options.order >> UInt64(i)) & 1 == 1 else { return false }
        log("system", .info, "(choice point #\(i): \(what), in the other order (--order))")
        return true
    }

    /// The app crashes for a violation its API call caused (the caller then stops the handler).
    public func crashApp(_ code: ViolationCode, at location: SourceLocation?, _ message: String) {
        crash(code, at: location, message)
    }

    /// An error-level violation that terminates the app.
    func crash(_ code: ViolationCode, at location: SourceLocation?, _ message: String, traceback: String? = nil) {
        violate(code, at: location, message, traceback: traceback)
        terminate(reason: code.rawValue, notify: false)
    }
}

/// The scenario's own timeline: `at`, `every`, and actions injected by the REPL and explore.
final class Timeline: Subsystem {
    enum Kind: UInt8 { case call, every, action, typed, explore }
    /// Injected actions by number (from 1; a slot is emptied when its action runs).
    private var actions: [(() -> Void)?] = []

    func keep(_ body: @escaping () -> Void) -> Int {
        actions.append(body)
        return actions.count
    }

    private func take(_ number: Int) -> (() -> Void)? {
        guard number >= 1, number <= actions.count, let body = actions[number - 1] else { return nil }
        actions[number - 1] = nil
        // Numbers of actions that ran are free again once nothing after them is pending.
        while actions.last.map({ $0 == nil }) == true { actions.removeLast() }
        return body
    }

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        switch event.kind(Kind.self) {
        case .call:
            world.callWorld(ScriptRef(id: event.a))
        case .every:
            world.schedule(event, at: time + Millis(event.a), recurring: true)
            world.callWorld(ScriptRef(id: event.b))
        case .action:
            take(event.a)?()
        case .typed:
            world.callWorld(ScriptRef(id: event.a), as: .repl)
        case .explore:
            world.onExploreAction?(event.a)
        }
    }

    func location(of event: Event, in world: World) -> SourceLocation? {
        switch event.kind(Kind.self) {
        case .action, .explore: return nil
        case .every: return world.host.location(of: ScriptRef(id: event.b))
        case .call, .typed: return world.host.location(of: ScriptRef(id: event.a))
        }
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension Timeline {
    func copyState(from o: Timeline) {
        // Usually none were kept: keep this book's capacity for the next run's.
        if o.actions.isEmpty { actions.removeAll(keepingCapacity: true) } else { actions = o.actions }
    }
}

extension World {
    /// Makes this World's whole state (every stored property and every subsystem's) the other's,
    /// except `file` and `host`, which stay this World's. Both must be of the same scenario.
    func copyState(from o: World) {
        config = o.config; options = o.options; budgets = o.budgets; app = o.app
        queue.assign(o.queue); now = o.now; endTime = o.endTime; started = o.started; finished = o.finished
        context = o.context; serverRunning = o.serverRunning; appDepth = o.appDepth; stopRequested = o.stopRequested; callbackLimit = o.callbackLimit
        observing = o.observing; mainBlock = o.mainBlock; mainWait = o.mainWait; mainWaiting = o.mainWaiting
        transitionStart = o.transitionStart; transitionDue = o.transitionDue; transitionHang = o.transitionHang
        movingToForeground = o.movingToForeground; sceneConnected = o.sceneConnected; sceneState = o.sceneState
        debuggerHeldSuspension = o.debuggerHeldSuspension; racedSuspension = o.racedSuspension; inRacedBlock = o.inRacedBlock
        fatal = o.fatal; state = o.state; pid = o.pid; interruption = o.interruption; forceQuitBlocked = o.forceQuitBlocked
        launchReason = o.launchReason; parked = o.parked; observers = o.observers; processDelegate = o.processDelegate
        warnedFetchNotConfigured = o.warnedFetchNotConfigured
        timelineEvents.copyState(from: o.timelineEvents); container.copyState(from: o.container); tasks.copyState(from: o.tasks)
        grants.copyState(from: o.grants); net.copyState(from: o.net); appTime.copyState(from: o.appTime)
        threads.copyState(from: o.threads); dispatchBook.copyState(from: o.dispatchBook); fetch.copyState(from: o.fetch); bgTasks.copyState(from: o.bgTasks)
        sessions.copyState(from: o.sessions); expectations.copyState(from: o.expectations)
        changedDevice = o.changedDevice
        worldRandom = o.worldRandom; schedulerRandom = o.schedulerRandom; networkRandom = o.networkRandom; bgRandom = o.bgRandom
        mainBlockSpans = o.mainBlockSpans; onMilestone = o.onMilestone; onExploreAction = o.onExploreAction
        timeline = o.timeline; violations = o.violations; stats = o.stats; sink = o.sink; recordTimeline = o.recordTimeline
        timelineKeeping = o.timelineKeeping; timelineDropped = o.timelineDropped; timelineBytes = o.timelineBytes; cutAt = o.cutAt
    }
}

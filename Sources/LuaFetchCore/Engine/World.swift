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
    /// Notification observers in the order they were added; each name is a number (`observerNames`,
    /// in order of first use), so a post compares numbers, not strings, on its walk.
    var observers: [(name: Int, fn: ScriptRef, pid: Int?)] = []
    var observerNames: [String: Int] = [:]
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

    /// A Swift check at a virtual time, if the run gets there: like `at(_:action:)`, but it never
    /// keeps a run going (explore's shrinking checks that a person restored what they changed).
    public func atIfRunning(_ time: Millis, action body: @escaping () -> Void) {
        schedule(Event(.timeline, Timeline.Kind.action, a: timelineEvents.keep(body)), at: time, recurring: true)
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

    /// When `--until` cut the run before its own end (nil: it ran to its end).
    public internal(set) var cutAt: Millis?
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
        launchReason = o.launchReason; parked = o.parked; observers = o.observers; observerNames = o.observerNames
        processDelegate = o.processDelegate
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

// The rest of the World: World+Loop.swift (milestones, settling, advancing and dispatching
// events), World+Calls.swift (calling scenario code), World+Output.swift (the timeline's
// entries, violations, watchdog terminations, choice points, crashes); Timeline.swift.

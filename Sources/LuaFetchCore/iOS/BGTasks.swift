// The BackgroundTasks framework (SPEC 13): `BGTaskScheduler.register/submit/cancel/cancelAll/
// pendingTaskRequests`, app-refresh and processing requests, when iOS launches them (earliest
// date, eligibility, idle windows and charging, the fixed / adaptive / manual policies), and the
// running task (`expirationHandler`, `setTaskCompleted`, its time limit, early expiry when the
// person uses the device, the case without an expiration handler). A running task is a grant
// (Grants.swift) of kind `.bgTask`: this file says what its completion means. Launch and
// expiration handlers run on the scheduler's serial background queue (Threads.swift), or where
// `register`'s queue says: the main thread, a new background thread, an app's queue. Pending
// requests survive termination; registrations belong to the process. A subsystem of World.

/// The kinds of BGTask request.
public enum BGTaskKind: String, Sendable {
    case appRefresh, processing
    /// `BGContinuedProcessingTask` (ios26): started from the foreground, runs on with progress.
    case continued
    /// The background mode a kind needs (continued tasks need none).
    var mode: String? {
        switch self {
        case .appRefresh: return "fetch"
        case .processing: return "processing"
        case .continued: return nil
        }
    }
    public var requestName: String {
        switch self {
        case .appRefresh: return "BGAppRefreshTaskRequest"
        case .processing: return "BGProcessingTaskRequest"
        case .continued: return "BGContinuedProcessingTaskRequest"
        }
    }
}

/// A request as the app submitted it.
public struct BGTaskRequest: Sendable {
    public var identifier: String
    public var kind: BGTaskKind
    /// Absolute virtual time (nil: as soon as possible).
    public var earliestBeginDate: Millis?
    public var requiresNetworkConnectivity = false
    public var requiresExternalPower = false
    /// Where the app submitted it.
    public var submittedAt: SourceLocation?
    /// Continued tasks: what the system shows, and whether a submit while one runs queues or fails.
    public var title = "", subtitle = ""
    public var queues = true
    public init(identifier: String, kind: BGTaskKind) { self.identifier = identifier; self.kind = kind }
}

/// Why `BGTaskScheduler.submit` refused a request (`BGTaskSchedulerErrorCode`).
public enum BGSubmitError: String, Sendable { case unavailable, notPermitted, tooManyPendingTaskRequests, immediateRunIneligible }

/// What `BGTaskScheduler.submit` did: accepted the request, refused it (`nil, code`), or crashed
/// the app (no launch handler registered for it in this process).
public enum BGSubmitOutcome: Sendable, Equatable {
    case accepted, refused(BGSubmitError), crashed
}

/// A pending request and, under the adaptive policy, when it was given to launch.
struct PendingBGRequest {
    var request: BGTaskRequest
    /// The adaptive policy's launch time, drawn once when it first became due and eligible.
    var launchAt: Millis?
}

/// A launched task.
struct RunningBGTask {
    let key: GrantKey
    let identifier: String
    let kind: BGTaskKind
    /// The task object handed to the launch handler (the host keeps it).
    let object: ScriptRef
    let pid: Int
    /// When it ends (expiration handler `expirationWarning` before), and its expiration event.
    var end: Millis
    var expiration: EventID?
    var expired = false
    /// The launch handler returned: until then nothing else of the task's reaches the app (an
    /// expiry waits in `expiryWaiting`, the object stays alive; SPEC 13).
    var launchReturned = false
    var expiryWaiting = false
    /// Continued tasks: the last progress (`completed`) and when it was made.
    var progress: Int64 = 0
    var progressAt: Millis = 0
    /// Where its handlers run (`register`'s queue; nil: the scheduler's serial queue).
    var queue: DispatchTarget?
    /// When it launched.
    var launchedAt: Millis = 0
}

final class BGScheduler: Subsystem, GrantBehaviour {
    enum Kind: UInt8 { case evaluate, expire, noProgress }
    /// Pending requests in submission order (they survive termination).
    var pending: [PendingBGRequest] = []
    /// This process's launch handlers by identifier.
    var registered: [String: ScriptRef] = [:]
    /// The queue a launch handler was registered with, by identifier (none: the scheduler's).
    var handlerQueues: [String: DispatchTarget] = [:]
    var running: [RunningBGTask] = []
    /// Whether this process's didFinishLaunching returned (registration closes then).
    var launchFinished = false
    /// The scheduler's serial queue in this process (handlers registered without a queue run on it).
    var queueIndex: Int?
    /// The next evaluation event.
    var evaluation: (time: Millis, id: EventID)?
    /// Tasks launched, by identifier (the summary).
    var launched: [String: Int] = [:]
    /// Continued requests waiting for the running one to end (strategy "queue").
    var continuedQueue: [BGTaskRequest] = []
    /// An evaluation is running (a launch it makes can submit and evaluate again: that one waits
    /// and the running one goes round again).
    var evaluating = false
    var evaluateAgain = false
    /// At most 10 launches at one instant (InstantThrottle).
    var launches = InstantThrottle(limit: 10)
    /// Task objects of tasks that ended before their launch handler returned, by grant serial:
    /// released when it returns (the handler always receives its task).
    var heldObjects: [(serial: Int, object: ScriptRef)] = []

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        switch event.kind(Kind.self) {
        case .evaluate:
            evaluation = nil
            world.evaluateBGRequests()
        case .expire:
            world.expireBGTask(serial: event.a, early: false)
        case .noProgress:
            world.checkContinuedProgress(serial: event.a)
        }
    }

    /// The expiration handler runs on the scheduler's queue, not the main thread.
    func needsMainThread(_ event: Event) -> Bool { false }

    func appStopped(_ world: World) { world.evaluateBGRequests() }

    func processEnding(_ pid: Int, in world: World) {
        for fn in registered.values { world.host.release(fn) }
        registered.removeAll()
        handlerQueues.removeAll()
        for t in running where t.pid == pid {
            world.queue.cancel(t.expiration)
            world.host.release(t.object)
        }
        running.removeAll { $0.pid == pid }
        for h in heldObjects { world.host.release(h.object) }
        heldObjects.removeAll()
        launchFinished = false
        queueIndex = nil
    }

    func pendingLines(in world: World) -> [String] {
        pending.map { p in
            let r = p.request
            return "bgtask     \(r.identifier) (\(r.kind.rawValue)) pending\(r.earliestBeginDate.map { ", not before \(Time.stamp($0))" } ?? "")\(p.launchAt.map { ", launches at \(Time.stamp($0))" } ?? "")"
        } + running.map { "bgtask     \($0.identifier) running\($0.kind == .continued ? " (continued)" : ", ends \(Time.stamp($0.end))")" }
          + continuedQueue.map { "bgtask     \($0.identifier) (continued) queued" }
    }

    // MARK: - The task grant

    func invalid(_ value: CompletionValue, of grant: Grant, in world: World) -> (ViolationCode, String)? { nil }

    func completed(_ grant: Grant, with value: CompletionValue, in world: World) {
        guard let i = running.firstIndex(where: { $0.key == grant.key }) else { return }
        let t = running.remove(at: i)
        world.queue.cancel(t.expiration)
        release(t, in: world)
        let success: Bool
        if case .string(let s) = value { success = s == "true" } else { success = false }
        world.log("bgtask", .task, "\(t.identifier) completed (\(success ? "success" : "failure")) after \(Time.human(world.now - grant.began))",
                  detail: .grantEnded(kind: "bgtask", id: grant.key.serial, outcome: success ? "success" : "failure"))
        if t.kind == .continued { world.startQueuedContinued() }
        world.evaluateBGRequests()
    }

    /// Releases an ended task's object, or keeps it until its launch handler returns.
    func release(_ t: RunningBGTask, in world: World) {
        if t.launchReturned { world.host.release(t.object) } else { heldObjects.append((t.key.serial, t.object)) }
    }

    func missed(_ grant: Grant, in world: World) -> String {
        let t = running.first { $0.key == grant.key }
        return "the BGTask \(t?.identifier ?? "#\(grant.key.serial)") was not completed (setTaskCompleted) by its end, \(Time.human(world.now - grant.began)) after it launched"
    }

    func abandoned(_ grant: Grant, in world: World) {
        guard let i = running.firstIndex(where: { $0.key == grant.key }) else { return }
        let t = running.remove(at: i)
        world.queue.cancel(t.expiration)
        release(t, in: world)
        world.log("bgtask", .task, "\(t.identifier) ended without completion",
                  detail: .grantEnded(kind: "bgtask", id: grant.key.serial, outcome: "missed"))
        if t.kind == .continued && world.isRunning { world.startQueuedContinued() }
        world.evaluateBGRequests()
    }
}

extension World {
    // MARK: - API

    /// Whether the profile has the BackgroundTasks framework; the message of the crash otherwise.
    public func backgroundTasksMissing(_ what: String) -> String? {
        os.hasBackgroundTasks ? nil : "\(what): the \(os.rawValue) profile has no BackgroundTasks framework (iOS 13 and later): the app crashes (unrecognized selector)"
    }

    /// `BGTaskScheduler.register(identifier, launchHandler [, queue])`: nil, or the crash it
    /// causes. `queue`: where the task's handlers run (nil: the scheduler's serial queue).
    public func registerBGTask(_ identifier: String, _ handler: ScriptRef, queue: DispatchTarget? = nil) -> (ViolationCode, String)? {
        // Continued-processing handlers (a pattern, or an identifier a permitted pattern covers)
        // may be registered at any time (ios26).
        let continued = os == .ios26 && (identifier.hasSuffix(".*") || permittedPattern(covering: identifier) != nil)
        if bgTasks.launchFinished && !continued {
            return (.bgtaskRegistration, "All launch handlers must be registered before application finishes launching (BGTaskScheduler.register(\"\(identifier)\") was called after didFinishLaunching returned: register in didFinishLaunching)")
        }
        if !app.permittedIdentifiers.contains(identifier) && !(continued && permittedPattern(covering: identifier) != nil) {
            return (.bgtaskRegistration, "No task with identifier \(identifier) is permitted (add it to app{ permittedIdentifiers = { ... } }, the BGTaskSchedulerPermittedIdentifiers of Info.plist)")
        }
        if bgTasks.registered[identifier] != nil {
            return (.bgtaskRegistration, "Launch handler for task with identifier \(identifier) has already been registered (register each identifier once per process)")
        }
        bgTasks.registered[identifier] = handler
        if let queue { bgTasks.handlerQueues[identifier] = queue }
        return nil
    }

    /// A permitted identifier `prefix.*` that covers `identifier` (continued tasks' wildcards).
    func permittedPattern(covering identifier: String) -> String? {
        app.permittedIdentifiers.first { $0.hasSuffix(".*") && identifier.hasPrefix(String($0.dropLast(1))) }
    }

    /// The launch handler for `identifier`: registered for it, or for a pattern that covers it.
    func bgHandler(_ identifier: String) -> ScriptRef? { bgRegistration(identifier).flatMap { bgTasks.registered[$0] } }

    /// What the launch handler for `identifier` was registered for: the identifier, or a pattern.
    func bgRegistration(_ identifier: String) -> String? {
        if bgTasks.registered[identifier] != nil { return identifier }
        return bgTasks.registered.keys.sorted().first { $0.hasSuffix(".*") && identifier.hasPrefix(String($0.dropLast(1))) }
    }

    /// `BGTaskScheduler.submit(request)`: accepted, refused (and why), or the app crashed.
    public func submitBGTask(_ request: BGTaskRequest) -> BGSubmitOutcome {
        if request.kind == .continued { return submitContinued(request).map { .refused($0) } ?? .accepted }
        guard device.backgroundRefresh else { return refuse(request, .unavailable) }
        guard app.permittedIdentifiers.contains(request.identifier), app.backgroundModes.contains(request.kind.mode ?? "") else {
            return refuse(request, .notPermitted)
        }
        // A submit before this process registered the identifier's launch handler (from another
        // thread at launch, say) is an exception in BGTaskScheduler (SPEC 13).
        guard bgHandler(request.identifier) != nil else {
            crash(.bgtaskUnregistered, at: request.submittedAt ?? app.location,
                  "No launch handler registered for task with identifier \(request.identifier): BGTaskScheduler.submit was called before this process registered it; call BGTaskScheduler.register in didFinishLaunching, before any submit")
            return .crashed
        }
        let others = bgTasks.pending.filter { $0.request.kind == request.kind && $0.request.identifier != request.identifier }.count
        guard others < (request.kind == .appRefresh ? 1 : 10) else { return refuse(request, .tooManyPendingTaskRequests) }
        bgTasks.pending.removeAll { $0.request.identifier == request.identifier }  // a resubmit replaces it
        bgTasks.pending.append(PendingBGRequest(request: request))
        log("bgtask", .task, "submitted \(request.kind.requestName) \(request.identifier)\(request.earliestBeginDate.map { ", not before \(Time.stamp($0))" } ?? "")")
        evaluateBGRequests()
        return .accepted
    }

    /// A refused submit (SPEC 13.1): the app may catch the error, but the work it asked for will
    /// not run, so it is the warning `bgtask-submit-refused` at the submit's line (on the timeline
    /// too, every one of them).
    private func refuse(_ request: BGTaskRequest, _ error: BGSubmitError) -> BGSubmitOutcome {
        let kind = request.kind.requestName
        let why: String
        switch error {
        case .unavailable:
            why = "background refresh is off on this device (Settings › General › Background App Refresh), so no request can be scheduled"
        case .notPermitted:
            why = app.permittedIdentifiers.contains(request.identifier)
                ? "the app's background modes (UIBackgroundModes) lack \"\(request.kind.mode ?? "")\""
                : "\(request.identifier) is not in permittedIdentifiers (BGTaskSchedulerPermittedIdentifiers)"
        case .tooManyPendingTaskRequests:
            let pending = bgTasks.pending.filter { $0.request.kind == request.kind }.map(\.request.identifier)
            let limit = request.kind == .appRefresh ? "1 app-refresh request" : "10 processing requests"
            why = "iOS keeps at most \(limit) pending, and \(pending.count == 1 ? "this one is" : "these are") pending: \(pending.joined(separator: ", "))"
        case .immediateRunIneligible:
            why = "a continued-processing task is running"
        }
        violate(.bgtaskSubmitRefused, at: request.submittedAt ?? app.location,
                "BGTaskScheduler.submit refused \(kind) \(request.identifier) (\(error.rawValue)): \(why); the work it asks for will not run")
        return .refused(error)
    }

    /// `BGTaskScheduler.cancel(identifier)`.
    public func cancelBGTask(_ identifier: String) {
        bgTasks.pending.removeAll { $0.request.identifier == identifier }
    }

    /// `BGTaskScheduler.cancelAll()`.
    public func cancelAllBGTasks() { bgTasks.pending.removeAll() }

    /// Tasks launched by identifier, in identifier order (the summary).
    public var bgTasksLaunched: [(identifier: String, count: Int)] {
        bgTasks.launched.keys.sorted().map { ($0, bgTasks.launched[$0]!) }
    }

    /// `BGTaskScheduler.pendingTaskRequests()`.
    public var pendingBGRequests: [BGTaskRequest] { bgTasks.pending.map(\.request) }

    /// Whether a request with this identifier is pending / a task with it runs (the debug actions).
    public func hasPendingBGRequest(_ identifier: String) -> Bool {
        identifier == "*" ? !bgTasks.pending.isEmpty : bgTasks.pending.contains { $0.request.identifier == identifier }
    }
    /// Whether `system.launchTask(identifier)` would launch a request whose identifier has no
    /// task running: iOS never runs two tasks of one identifier at once, so explore does not
    /// inject a launch that only the debugger command could make.
    public func hasLaunchableBGRequest(_ identifier: String) -> Bool {
        guard let r = bgTasks.pending.first(where: { identifier == "*" || $0.request.identifier == identifier }) else { return false }
        return !bgTasks.running.contains { $0.identifier == r.request.identifier }
    }
    public func hasRunningBGTask(_ identifier: String, continued: Bool = false) -> Bool {
        runningBGTask(identifier, continued: continued) != nil
    }

    /// The running task with this identifier (`"*"`: the one launched first); only continued
    /// tasks when `continued`.
    func runningBGTask(_ identifier: String, continued: Bool = false) -> RunningBGTask? {
        bgTasks.running.first { (identifier == "*" || $0.identifier == identifier) && (!continued || $0.kind == .continued) }
    }

    /// `task:setTaskCompleted(success)`: false when the call ended the app.
    public func completeBGTask(_ key: GrantKey, success: Bool, at location: SourceLocation?) -> Bool {
        completeGrant(key, with: .string(success ? "true" : "false"), at: location)
    }

}

// When iOS launches the requests (the device's idle windows and charging, eligibility, launching,
// expiring, continued processing) is BGTasks+Launching.swift.

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension BGScheduler {
    func copyState(from o: BGScheduler) {
        pending = o.pending; registered = o.registered; handlerQueues = o.handlerQueues; running = o.running; launchFinished = o.launchFinished
        queueIndex = o.queueIndex; evaluation = o.evaluation; launched = o.launched; continuedQueue = o.continuedQueue
        evaluating = o.evaluating; evaluateAgain = o.evaluateAgain; launches = o.launches; heldObjects = o.heldObjects
    }
}

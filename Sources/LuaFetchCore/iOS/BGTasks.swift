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
    private func release(_ t: RunningBGTask, in world: World) {
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
        guard device.backgroundRefresh else { return .refused(.unavailable) }
        guard app.permittedIdentifiers.contains(request.identifier), app.backgroundModes.contains(request.kind.mode ?? "") else {
            return .refused(.notPermitted)
        }
        // A submit before this process registered the identifier's launch handler (from another
        // thread at launch, say) is an exception in BGTaskScheduler (SPEC 13).
        guard bgHandler(request.identifier) != nil else {
            crash(.bgtaskUnregistered, at: request.submittedAt ?? app.location,
                  "No launch handler registered for task with identifier \(request.identifier): BGTaskScheduler.submit was called before this process registered it; call BGTaskScheduler.register in didFinishLaunching, before any submit")
            return .crashed
        }
        let others = bgTasks.pending.filter { $0.request.kind == request.kind && $0.request.identifier != request.identifier }.count
        guard others < (request.kind == .appRefresh ? 1 : 10) else { return .refused(.tooManyPendingTaskRequests) }
        bgTasks.pending.removeAll { $0.request.identifier == request.identifier }  // a resubmit replaces it
        bgTasks.pending.append(PendingBGRequest(request: request))
        log("bgtask", .task, "submitted \(request.kind.requestName) \(request.identifier)\(request.earliestBeginDate.map { ", not before \(Time.stamp($0))" } ?? "")")
        evaluateBGRequests()
        return .accepted
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

    // MARK: - The device

    /// The device is idle (and charging) in its daily windows, never while the app is in the
    /// foreground; `system.setDeviceIdle` / `setCharging` override the windows.
    public var deviceIdle: Bool { device.idle ?? (!isForeground && inIdleWindow) }
    public var deviceCharging: Bool { device.charging ?? inIdleWindow }
    var inIdleWindow: Bool {
        let t = now % Time.day
        return device.idleWindows.contains { $0.contains(t) }
    }

    /// The next start or end of an idle window after now.
    var nextIdleBoundary: Millis? {
        let dayStart = now - now % Time.day
        var best: Millis?
        for day in [dayStart, dayStart + Time.day] {
            for w in device.idleWindows {
                for t in [day + w.lowerBound, day + w.upperBound] where t > now {
                    if best == nil || t < best! { best = t }
                }
            }
        }
        return best
    }

    // MARK: - Launching

    /// Why a pending request cannot launch now (nil: it can).
    func bgIneligibility(_ r: BGTaskRequest) -> String? {
        if isForeground { return "the app is in the foreground" }
        if bgTasks.running.contains(where: { $0.identifier == r.identifier }) { return "a task with this identifier is running" }
        if let mode = r.kind.mode, !app.backgroundModes.contains(mode) { return "\"\(mode)\" is not in backgroundModes" }
        if forceQuitBlocked && !(r.kind == .processing && os == .ios26) { return "the app was force-quit" }
        switch r.kind {
        case .continued:
            break
        case .appRefresh:
            if !device.backgroundRefresh { return "Background App Refresh is off" }
            if device.lowPowerMode { return "Low Power Mode is on" }
        case .processing:
            if !deviceIdle { return "the device is not idle" }
            if r.requiresExternalPower && !deviceCharging { return "the device is not charging" }
            if r.requiresNetworkConnectivity && !device.network { return "there is no network" }
        }
        return nil
    }

    /// Launches what is due and eligible, and schedules the next look.
    func evaluateBGRequests() {
        guard started, fatal == nil, config.fetchPolicy != .manual else { return }
        guard !bgTasks.evaluating else { bgTasks.evaluateAgain = true; return }
        bgTasks.evaluating = true
        defer { bgTasks.evaluating = false }
        repeat {
            bgTasks.evaluateAgain = false
            evaluateBGRequestsOnce()
        } while bgTasks.evaluateAgain && fatal == nil
    }

    private func evaluateBGRequestsOnce() {
        var next: Millis?
        func want(_ t: Millis) { if t > now, next == nil || t < next! { next = t } }
        var i = 0
        while i < bgTasks.pending.count {
            let p = bgTasks.pending[i]
            if let begin = p.request.earliestBeginDate, begin > now { want(begin); i += 1; continue }
            if bgIneligibility(p.request) != nil {
                // Idle and charging follow the windows unless overridden, each on its own: look
                // again at the next window boundary while either follows them (SPEC 13).
                if p.request.kind == .processing, device.idle == nil || device.charging == nil, let b = nextIdleBoundary { want(b) }
                i += 1
                continue
            }
            if bgTasks.launches.isFull(at: now) {
                want(now + bgTasks.launches.wait(at: now))
                i += 1
                continue
            }
            if config.fetchPolicy == .adaptive {
                if p.launchAt == nil {
                    let delay = Millis((Double(budgets.refreshDelay ?? 0) * bgRandom.unit()).rounded())
                    bgTasks.pending[i].launchAt = now + delay
                }
                if let at = bgTasks.pending[i].launchAt, at > now { want(at); i += 1; continue }
            }
            launchBGRequest(at: i)
        }
        if let next, bgTasks.evaluation?.time != next {
            if let old = bgTasks.evaluation { queue.cancel(old.id) }
            bgTasks.evaluation = (next, schedule(Event(.bgTasks, BGScheduler.Kind.evaluate), at: next))
        }
    }

    /// `system.launchTask(identifier)`: LLDB's private launch command, ignoring every condition.
    public func systemLaunchTask(_ identifier: String) {
        log("system", .action, "launches the BGTask \(identifier == "*" ? "submitted first" : identifier) (debugger command)")
        guard let i = bgTasks.pending.firstIndex(where: { identifier == "*" || $0.request.identifier == identifier }) else {
            log("system", .info, "(no pending request \(identifier))")
            return
        }
        launchBGRequest(at: i)
    }

    /// `system.expireTask(identifier)`: expires the running task now.
    public func systemExpireTask(_ identifier: String) {
        log("system", .action, "expires the BGTask \(identifier == "*" ? "launched first" : identifier) (debugger command)")
        guard let t = runningBGTask(identifier) else {
            log("system", .info, "(no BGTask \(identifier) is running)")
            return
        }
        expireBGTask(serial: t.key.serial, early: true)
    }

    /// Takes the request off the pending list and launches it (at most once).
    func launchBGRequest(at index: Int) {
        launchBGTask(bgTasks.pending.remove(at: index).request)
    }

    func launchBGTask(_ request: BGTaskRequest) {
        bgTasks.launches.note(at: now)
        bgTasks.launched[request.identifier, default: 0] += 1
        stats.bgTasksLaunched += 1
        let allowed: Millis
        switch request.kind {
        case .appRefresh: allowed = budgets.refreshTask ?? 30 * Time.second
        case .processing: allowed = budgets.processingTask ?? 300 * Time.second
        case .continued: allowed = Time.maxRun  // no limit: it runs while it makes progress
        }
        deliverGrant(.bgTask, allowed: allowed, launch: .backgroundTask, wakeNote: "woken for the BGTask \(request.identifier)",
                     announce: { [unowned self] key in
                         log("bgtask", .task, "launches \(request.identifier) (\(request.kind.rawValue)\(request.kind == .continued ? "" : ", \(Time.human(allowed))"))",
                             detail: .grantBegan(kind: "bgtask", id: key.serial, name: request.identifier))
                     },
                     unhandled: { _ in },
                     call: { [unowned self] key in startBGTask(request, key: key, allowed: allowed) })
    }

    /// Calls the registered launch handler with the task, on the scheduler's queue.
    private func startBGTask(_ request: BGTaskRequest, key: GrantKey, allowed: Millis) -> Bool {
        guard let handler = bgHandler(request.identifier) else {
            crash(.bgtaskUnregistered, at: request.submittedAt ?? app.location,
                  "No launch handler registered for task with identifier \(request.identifier) (submitted here): this process never registered it; register it with BGTaskScheduler.register before didFinishLaunching returns")
            return false
        }
        let object = host.makeTaskObject(identifier: request.identifier, key: key)
        if let i = grants.index(key) { grants.pending[i].location = host.location(of: handler) ?? request.submittedAt }
        let end = grants.pending.first { $0.key == key }?.deadline ?? now + allowed
        let warning = request.kind == .continued ? nil
            : schedule(Event(.bgTasks, BGScheduler.Kind.expire, pid: 0, a: key.serial), at: max(now, end - budgets.expirationWarning))
        let queue = bgRegistration(request.identifier).flatMap { bgTasks.handlerQueues[$0] }
        bgTasks.running.append(RunningBGTask(key: key, identifier: request.identifier, kind: request.kind, object: object, pid: pid,
                                             end: end, expiration: warning, progressAt: now, queue: queue, launchedAt: now))
        if request.kind == .continued, let limit = budgets.continuedNoProgress {
            schedule(Event(.bgTasks, BGScheduler.Kind.noProgress, a: key.serial), at: now + limit)
        }
        return runBGHandler(handler, Invocation(.ref(object)), on: queue, release: false, launchOf: key.serial)
    }

    /// Runs a launch or expiration handler where it was registered to run: the scheduler's serial
    /// queue of this process (nil), the main thread, a new background thread, or the app's queue.
    /// On the main thread the launch handler is the launch's own call (the main thread is free:
    /// `deliverGrant` waited for it) and the expiration handler a block of the main queue. False
    /// when the app did not survive a call on the main thread.
    @discardableResult
    func runBGHandler(_ fn: ScriptRef, _ invocation: Invocation, on target: DispatchTarget?, release: Bool, launchOf: Int = 0) -> Bool {
        switch target {
        case nil:
            let q = bgTasks.queueIndex ?? makeQueue(label: "com.apple.BGTaskScheduler")
            bgTasks.queueIndex = q
            queueAsync(q, fn, invocation, release: release, launchOf: launchOf)
        case .queue(let q)?:
            queueAsync(q, fn, invocation, release: release, launchOf: launchOf)
        case .global?:
            startThread(queue: nil, ThreadBlock(fn: fn, invocation: invocation, release: release, launchOf: launchOf))
        case .main?:
            guard launchOf != 0 else { dispatchMain(fn); return true }
            let survived = callApp(fn, invocation)
            if release { host.release(fn) }
            bgLaunchHandlerReturned(serial: launchOf)
            return survived
        }
        return true
    }

    /// A task's launch handler returned (Threads.swift): an expiry that fell due before it now
    /// reaches the expiration handler it set, and an ended task's object is released.
    func bgLaunchHandlerReturned(serial: Int) {
        if let i = bgTasks.heldObjects.firstIndex(where: { $0.serial == serial }) {
            host.release(bgTasks.heldObjects.remove(at: i).object)
        }
        guard let i = bgTasks.running.firstIndex(where: { $0.key.serial == serial }) else { return }
        bgTasks.running[i].launchReturned = true
        guard bgTasks.running[i].expiryWaiting else { return }
        bgTasks.running[i].expiryWaiting = false
        let t = bgTasks.running[i]
        log("bgtask", .task, "\(t.identifier)'s launch handler returned: calling its expiration handler")
        callExpirationHandler(t)
    }

    /// The task's expiration: at its time, or early (the person uses the device, `expireTask`).
    /// The expiration handler runs (and is cleared); without one, the task is marked complete
    /// and unsuccessful now. An early expiry ends the task `expirationWarning` later.
    func expireBGTask(serial: Int, early: Bool) {
        guard let i = bgTasks.running.firstIndex(where: { $0.key.serial == serial }), !bgTasks.running[i].expired else { return }
        bgTasks.running[i].expired = true
        queue.cancel(bgTasks.running[i].expiration)
        let t = bgTasks.running[i]
        if early {
            let end = now + budgets.expirationWarning
            bgTasks.running[i].end = end
            moveGrantDeadline(t.key, to: end)
        }
        // Nothing of the launch's instant reaches the task before its launch handler returns
        // (SPEC 13). A later expiry goes to the handlers' queue at once: a serial queue (the
        // scheduler's, an app's) or the main thread runs it after the launch handler anyway; a
        // global (concurrent) queue runs it beside a launch handler that is still running.
        guard t.launchReturned || (t.queue == .global && now > t.launchedAt) else {
            bgTasks.running[i].expiryWaiting = true
            log("bgtask", .task, "\(t.identifier) expires\(early ? " early" : ""): its expiration handler is called when the launch handler returns (the task ends \(Time.stamp(bgTasks.running[i].end)))")
            return
        }
        log("bgtask", .task, "\(t.identifier) expires\(early ? " early" : ""): calling its expiration handler (the task ends \(Time.stamp(bgTasks.running[i].end)))")
        callExpirationHandler(t)
    }

    /// Runs the expiration handler the app set on the task (and clears it); without one, the
    /// task is marked complete and unsuccessful now.
    private func callExpirationHandler(_ t: RunningBGTask) {
        if let handler = host.takeExpirationHandler(of: t.object) {
            runBGHandler(handler, .none, on: t.queue, release: true)
        } else {
            log("bgtask", .task, "\(t.identifier) has no expiration handler: marked complete (unsuccessful)")
            _ = completeGrant(t.key, with: .string("false"), at: nil)
            settle()
        }
    }

    /// A processing task is expired as soon as the person uses the device.
    func expireProcessingTasksForUserActivity() {
        for t in bgTasks.running where t.kind == .processing && !t.expired {
            expireBGTask(serial: t.key.serial, early: true)
        }
    }

    // MARK: - Continued processing (ios26)

    /// A continued request starts at once from the foreground when none runs; otherwise it waits
    /// ("queue") or is refused ("fail").
    func submitContinued(_ request: BGTaskRequest) -> BGSubmitError? {
        guard app.permittedIdentifiers.contains(request.identifier) || permittedPattern(covering: request.identifier) != nil else {
            return .notPermitted
        }
        guard isForeground else { return .immediateRunIneligible }
        if bgTasks.running.contains(where: { $0.kind == .continued }) || !bgTasks.continuedQueue.isEmpty {
            guard request.queues else { return .immediateRunIneligible }
            bgTasks.continuedQueue.append(request)
            log("bgtask", .task, "submitted \(request.kind.requestName) \(request.identifier): queued behind the running one")
            return nil
        }
        log("bgtask", .task, "submitted \(request.kind.requestName) \(request.identifier) (\"\(request.title)\")")
        launchBGTask(request)
        return nil
    }

    /// The running continued task ended: the next queued one starts.
    func startQueuedContinued() {
        guard !bgTasks.running.contains(where: { $0.kind == .continued }), !bgTasks.continuedQueue.isEmpty, isRunning else { return }
        launchBGTask(bgTasks.continuedQueue.removeFirst())
    }

    /// `task:updateProgress(completed, total)`: a rise of `completed` is progress.
    public func continuedProgress(_ key: GrantKey, completed: Int64, total: Int64) {
        guard let i = bgTasks.running.firstIndex(where: { $0.key == key }), bgTasks.running[i].kind == .continued else { return }
        guard completed > bgTasks.running[i].progress else { return }
        bgTasks.running[i].progress = completed
        bgTasks.running[i].progressAt = now
        if let limit = budgets.continuedNoProgress {
            schedule(Event(.bgTasks, BGScheduler.Kind.noProgress, a: key.serial), at: now + limit)
        }
    }

    /// `continuedNoProgress` after the last progress: the task is expired early.
    func checkContinuedProgress(serial: Int) {
        guard let t = bgTasks.running.first(where: { $0.key.serial == serial }), !t.expired,
              let limit = budgets.continuedNoProgress, now - t.progressAt >= limit else { return }
        log("bgtask", .task, "\(t.identifier) made no progress for \(Time.human(limit))")
        expireBGTask(serial: serial, early: true)
    }

    /// `user.cancelTask(identifier)`: the person cancels a continued task in the system's UI.
    public func userCancelTask(_ identifier: String) {
        log("user", .action, "cancels the task \(identifier == "*" ? "started first" : identifier)")
        guard let t = runningBGTask(identifier, continued: true) else {
            log("user", .info, "(no continued task \(identifier) is running)")
            return
        }
        expireBGTask(serial: t.key.serial, early: true)
    }

    /// A force quit cancels queued continued requests.
    func dropQueuedContinued() { bgTasks.continuedQueue.removeAll() }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension BGScheduler {
    func copyState(from o: BGScheduler) {
        pending = o.pending; registered = o.registered; handlerQueues = o.handlerQueues; running = o.running; launchFinished = o.launchFinished
        queueIndex = o.queueIndex; evaluation = o.evaluation; launched = o.launched; continuedQueue = o.continuedQueue
        evaluating = o.evaluating; evaluateAgain = o.evaluateAgain; launches = o.launches; heldObjects = o.heldObjects
    }
}

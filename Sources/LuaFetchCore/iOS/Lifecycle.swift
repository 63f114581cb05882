// The app lifecycle state machine (SPEC 4.1, 6.1, 6.2): launches, Home, return to the foreground,
// interruptions, force quit, memory purge, suspension, termination, and notifications, with the
// delegate calls of each transition in iOS order. Part of World.

extension DelegateMethod {
    /// The NotificationCenter name posted after this delegate method.
    public var notificationName: String {
        switch self {
        case .didFinishLaunching: return "UIApplicationDidFinishLaunchingNotification"
        case .didBecomeActive: return "UIApplicationDidBecomeActiveNotification"
        case .willResignActive: return "UIApplicationWillResignActiveNotification"
        case .didEnterBackground: return "UIApplicationDidEnterBackgroundNotification"
        case .willEnterForeground: return "UIApplicationWillEnterForegroundNotification"
        case .willTerminate: return "UIApplicationWillTerminateNotification"
        }
    }
}

/// The lifecycle's own events.
final class LifecycleEvents: Subsystem {
    enum Kind: UInt8 { case interruptionEnds }
    func needsMainThread(_ event: Event) -> Bool { true }
    func mainWaitLimit(_ event: Event) -> MainWaiter.Limit? { .hang("the end of the call (didBecomeActive)") }
    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        world.interruptionEnds(pid: event.a, token: event.b)
    }
}

extension World {
    // MARK: - State changes

    /// Moves to `new`, accounting background time and logging the change.
    func setState(_ new: AppState, _ note: String = "") {
        guard new != state else { return }
        if state == .background, let since = stats.backgroundSince {
            stats.backgroundTime += now - since
            stats.backgroundSince = nil
        }
        if new == .background { stats.backgroundSince = now } else { debuggerHeldSuspension = false }
        state = new
        log("app", .state, Text.build { t in
            t.add("● "); t.add(new.rawValue)
            if !note.isEmpty { t.add(" ("); t.add(note); t.add(")") }
        }, detail: .state(new))
        if new == .suspended { milestone(.suspended) }
    }

    /// Calls a delegate method (if the app defines it), then posts its notification; a `limit`
    /// covers both (observers run inside their transition's limit, SPEC 12.3). A launch first
    /// makes the process's delegate (`app{ delegate = function ... }`, SPEC 12.1) inside the same
    /// limit. Returns false if the app did not survive.
    @discardableResult
    func delegate(_ method: DelegateMethod, launch: LaunchReason? = nil, limit: Millis? = nil) -> Bool {
        let saved = callbackLimit
        if let limit {
            callbackLimit = ((transitionStart ?? now) + limit, method, limit)
            transitionStart = nil
        }
        defer { callbackLimit = saved }
        if limit == nil, [.willResignActive, .willEnterForeground, .didBecomeActive].contains(method) {
            return boundedByTransition(method.rawValue) { delegateCall(method, launch: launch) }
        }
        return delegateCall(method, launch: launch)
    }

    /// A transition's call without a limit of its own (and its observers): while it runs, a
    /// blocked main thread may hold it until the transition's due time + `mainThreadHang`, then
    /// `main-thread-hang` (SPEC 12.2, third amendment).
    func boundedByTransition(_ call: String, _ body: () -> Bool) -> Bool {
        let saved = transitionHang
        transitionHang = ((transitionDue ?? now) + budgets.mainThreadHang, call)
        defer { transitionHang = saved }
        return body()
    }

    /// Runs a transition: its calls without limits of their own share one bound, counted from
    /// when it fell due (now, or when it began to wait for the main thread).
    func transition(_ body: () -> Void) {
        let outer = transitionDue
        if outer == nil { transitionDue = now }
        body()
        transitionDue = outer
    }

    private func delegateCall(_ method: DelegateMethod, launch: LaunchReason?) -> Bool {
        if method == .didFinishLaunching, let factory = app.factory {
            guard makeProcessDelegate(factory) else { return false }
        }
        if app.scenes, let sceneMethod = SceneMethod(replacing: method) {
            // UIKit calls the scene delegate instead, and still posts the notification (SPEC 16).
            guard sceneCall(sceneMethod) else { return false }
        } else if let fn = handler(method) {
            guard callApp(fn, method == .didFinishLaunching ? Invocation(.app, .table([("reason", .string((launch ?? .user).rawValue))])) : Invocation(.app)) else {
                return false
            }
        }
        let before = observing
        observing = method.notificationName
        postSystem(method.notificationName)
        observing = before
        if method == .didFinishLaunching { bgTasks.launchFinished = true }  // registration closes (SPEC 13)
        return isRunning
    }

    /// The running process's delegate method (from `app{}` itself, or made by its `delegate`).
    func handler(_ method: DelegateMethod) -> ScriptRef? {
        app.factory == nil ? app.delegate[method] : processDelegate.methods[method]
    }

    /// The running process's delegate method for a grant kind (performFetch).
    func grantHandler(_ kind: GrantKind) -> ScriptRef? {
        app.factory == nil ? app.grantHandlers[kind] : processDelegate.grantHandlers[kind]
    }

    /// Calls `app{ delegate = function(app) ... end }` as app code at the start of a process.
    func makeProcessDelegate(_ factory: ScriptRef) -> Bool {
        var made: ProcessDelegate?
        let survived = runApp {
            switch host.makeDelegate(factory) {
            case .success(let d): made = d; return .returned(truthy: true)
            case .failure(let f): return .failed(f)
            }
        }
        guard survived, let made else {
            if let made { for r in made.refs { host.release(r) } }
            return false
        }
        processDelegate = made
        checkFetchConfigured(made.grantHandlers[.fetch])
        return true
    }

    /// performFetch without the fetch mode: reported once per run.
    func checkFetchConfigured(_ performFetch: ScriptRef?) {
        guard let performFetch, !app.hasFetchMode, !warnedFetchNotConfigured else { return }
        warnedFetchNotConfigured = true
        violate(.fetchNotConfigured, at: app.factory == nil ? app.location : host.location(of: performFetch),
                "performFetch is defined but \"fetch\" is not in backgroundModes: iOS will never call it; add backgroundModes = { \"fetch\" } to app{}")
    }

    /// Forgets the process's delegate (its process ended).
    func dropProcessDelegate() {
        for r in processDelegate.refs { host.release(r) }
        processDelegate = ProcessDelegate()
    }

    /// Starts a new process (pid) in `reason`'s state, without calling the delegate.
    func startProcess(_ reason: LaunchReason) {
        pid += 1
        launchReason = reason
        parked.removeAll()
        sceneConnected = false
        sceneState = .unattached
        if reason == .user {
            forceQuitBlocked = false
            stats.userLaunches += 1
            setState(.inactive, "launched by the user")
        } else {
            stats.backgroundLaunches += 1
            setState(.background, "launched into the background: \(reason.rawValue)")
            beginEpisode(budget: budgets.backgroundTaskLaunched ?? budgets.backgroundTask)
            milestone(.backgroundLaunch)
        }
        warnSceneLifecycle()
    }

    // MARK: - User actions (SPEC 6.1)

    /// `user.launch()` / `user.open()`: launch, or bring the app to the foreground.
    public func userLaunch() {
        log("user", .action, "taps the app icon")
        expireProcessingTasksForUserActivity()
        switch state {
        case .notRunning:
            startProcess(.user)
            guard delegate(.didFinishLaunching, launch: .user, limit: budgets.launch) else { return }
            // The rest of the launch has no limit of its own: its calls share mainThreadHang from here.
            transition {
                if app.scenes {
                    // The scene connects after didFinishLaunching: willConnect, willEnterForeground.
                    guard connectScene(), delegate(.willEnterForeground) else { return }
                }
                setState(.active)
                delegate(.didBecomeActive)
            }
        case .background, .suspended:
            // In the foreground from the moment the person opened it: never suspended while the
            // move's calls run or wait, and its background time stops (SPEC 12.2).
            movingToForeground = true
            endEpisode()
            if mainBlock != nil {
                // The process runs code again at once (the main thread's work goes on); the
                // transition's calls wait for the main thread (SPEC 12.2).
                if state == .suspended { resumeFrozenProcess("resumed") }
                _ = waitForMain(.hang("the return to the foreground (willEnterForeground)"), note: "the return to the foreground") { [unowned self] in
                    if state == .background { comeToForeground() } else { movingToForeground = false }
                }
                return
            }
            comeToForeground()
        case .active, .inactive:
            log("user", .info, "(the app is already in the foreground)")
        }
    }

    func comeToForeground() {
        movingToForeground = true
        defer { movingToForeground = false }
        let wasSuspended = state == .suspended
        if wasSuspended { setState(.background, "resumed") }
        endEpisode()
        transition {
            if app.scenes && !sceneConnected {
                guard connectScene() else { return }  // the first open of a background-launched process
            }
            guard delegate(.willEnterForeground) else { return }
            setState(.active)
            guard delegate(.didBecomeActive) else { return }
            deliverAfterResume()
        }
    }

    /// `user.home()`: press Home (or swipe up) with the app in the foreground.
    public func userHome() {
        log("user", .action, "goes to the Home screen")
        guard isForeground else {
            log("user", .info, "(the app is not in the foreground)")
            return
        }
        if waitForMain(.hang("Home (willResignActive)"), note: "Home", { [unowned self] in
            guard isForeground else { return }
            transition { enterBackground() }
            settle()
            evaluateBGRequests()
        }) { return }
        transition { enterBackground() }
        settle()
        evaluateBGRequests()
    }

    /// A suspended process whose main thread was frozen in the middle of its work runs code again.
    func resumeFrozenProcess(_ note: String) {
        setState(.background, note)
        threads.appResumed(self)
        dispatchBook.appResumed(self)
    }

    /// active → background (SPEC 4.1), or termination without multitasking.
    func enterBackground(thenTerminate: Bool = false) {
        interruption.active = false
        guard device.multitasking else {
            setState(.background, "no multitasking: the app exits")
            terminate(reason: "no multitasking", notify: true)
            return
        }
        if state == .active {
            setState(.inactive)
            guard delegate(.willResignActive) else { return }
        }
        setState(.background)
        beginEpisode(budget: budgets.backgroundTask)
        guard delegate(.didEnterBackground, limit: budgets.didEnterBackground) else { return }
    }

    /// `user.forceQuit()`: swipe the app away in the app switcher.
    public func userForceQuit() {
        log("user", .action, "force-quits the app in the app switcher")
        defer { forceQuitBlocked = true }
        dropQueuedContinued()
        cancelTransfersForForceQuit()
        guard state != .notRunning else { return }
        if mainBlock != nil && state != .suspended {
            let limit: MainWaiter.Limit = isForeground ? .hang("the force quit (willResignActive)") : .own(.willTerminate, budgets.willTerminate)
            _ = waitForMain(limit, note: "the force quit") { [unowned self] in forceQuitNow() }
            return
        }
        forceQuitNow()
    }

    func forceQuitNow() {
        guard state != .notRunning else { return }
        if isForeground {
            enterBackground()
            guard isRunning else { return }
        }
        terminate(reason: "force quit", notify: state == .background)
    }

    /// `user.interrupt(seconds)`: an incoming call; willResignActive now, didBecomeActive later.
    /// The call ends `seconds` after it began, even when willResignActive waited for a blocked
    /// main thread (the person hangs up on their own clock; SPEC 6.1).
    public func userInterrupt(for duration: Millis) {
        log("user", .action, "gets a phone call (\(Time.human(duration)))")
        guard state == .active else {
            log("user", .info, "(the app is not active: nothing to interrupt)")
            return
        }
        let ends = now + duration
        if waitForMain(.hang("the call (willResignActive)"), note: "the call", { [unowned self] in
            guard state == .active else { return }
            interrupt(until: ends)
        }) { return }
        interrupt(until: ends)
    }

    func interrupt(until ends: Millis) {
        interruption = (interruption.token + 1, true)
        setState(.inactive, "interrupted")
        // The call's end is an event of its own: it runs after willResignActive even when it
        // is already due (it then waits behind it, SPEC 12.2).
        let token = interruption.token
        transition { _ = delegate(.willResignActive) }
        guard isRunning, interruption.token == token else { return }
        schedule(Event(.lifecycle, LifecycleEvents.Kind.interruptionEnds, a: pid, b: token), at: ends)
    }

    func interruptionEnds(pid owner: Int, token: Int) {
        guard owner == pid, interruption.active, interruption.token == token, state == .inactive else { return }
        interruption.active = false
        log("user", .action, "ends the call")
        setState(.active)
        transition { _ = delegate(.didBecomeActive) }
    }

    // MARK: - System actions (SPEC 6.2)

    /// `system.memoryPressure()`: a suspended app is purged without notice.
    public func systemMemoryPressure() {
        log("system", .action, "memory pressure")
        guard state == .suspended else {
            log("system", .info, "(the app is not suspended: nothing to purge)")
            return
        }
        terminate(reason: "purged under memory pressure", notify: false)
    }

    public func systemSetLowPowerMode(_ on: Bool) {
        changeDevice { $0.lowPowerMode = on }
        log("system", .action, "Low Power Mode \(on ? "on" : "off")")
        evaluateBGRequests()
    }

    public func systemSetBackgroundRefresh(_ on: Bool) {
        changeDevice { $0.backgroundRefresh = on }
        log("system", .action, "Background App Refresh \(on ? "on" : "off")")
        evaluateBGRequests()
    }

    /// `system.setNetwork(on)`: airplane mode off or on (SPEC 13).
    public func systemSetNetwork(_ on: Bool) {
        changeDevice { $0.network = on }
        log("system", .action, "network \(on ? "on" : "off (airplane mode)")")
        resumeWaitingTransfers()
        evaluateBGRequests()
    }

    /// `system.setCharging(on)` / `system.setDeviceIdle(on)`: nil follows the idle windows again.
    public func systemSetCharging(_ on: Bool?) {
        changeDevice { $0.charging = on }
        log("system", .action, "charging \(on.map { $0 ? "on" : "off" } ?? "as the idle windows say")")
        evaluateBGRequests()
    }

    public func systemSetDeviceIdle(_ on: Bool?) {
        changeDevice { $0.idle = on }
        log("system", .action, "device idle \(on.map { $0 ? "on" : "off" } ?? "as the idle windows say")")
        evaluateBGRequests()
    }

    // MARK: - Suspension and termination

    /// Suspends a background app that nothing keeps running (SPEC 4.3): called when handlers return.
    func settle() {
        // Code on the main thread holds off suspension, unless it is blocked outside a callback
        // with its own limit (SPEC 12.2); an app on its way to the foreground is never suspended.
        guard state == .background, !movingToForeground,
              appDepth == 0 || (mainBlock != nil && callbackLimit == nil && threads.current == 0),
              fatal == nil else { return }
        var kept = false, onlyBlocks = true
        for s in subsystems where s.keepsAppRunning(self) {
            kept = true
            if s !== appTime && s !== threads { onlyBlocks = false; break }
        }
        if kept {
            // SPEC 12.4: only blocks submitted for this instant keep it: they run first, or (the
            // other order) the process is suspended first and they run when it next runs code.
            guard onlyBlocks, !debugger,
                  chooseOther("the app is suspended before the blocks its last handler submitted for now") else {
                debuggerHeldSuspension = false
                return
            }
            racedSuspension = now
        }
        if debugger {
            // Never suspended; what suspension would have caused is still reported, once (SPEC 12.5).
            guard !debuggerHeldSuspension else { return }
            debuggerHeldSuspension = true
            log("app", .info, "(not suspended: the debugger is attached)")
            container.appSuspending(self)
            return
        }
        for s in subsystems {
            s.appSuspending(self)
            guard state == .background else { return }  // a subsystem ended the process instead
        }
        setState(.suspended)
        stats.suspensions += 1
        for s in subsystems { s.appStopped(self) }
    }

    /// Delivers what waited while the app was suspended, after a transition's delegate calls:
    /// lost connections first, then parked timers and blocks in time order (each timer once).
    func deliverAfterResume() {
        for s in subsystems { s.appResumed(self) }
        let due = parked
        parked.removeAll()
        let raced = racedSuspension
        racedSuspension = nil
        for qe in due {
            guard isRunning else { return }
            inRacedBlock = qe.time == raced
            deliver(qe.event, at: qe.time, .afterResume)
            inRacedBlock = false
        }
    }

    /// Ends the process. `notify` calls willTerminate first (a running app being quit).
    func terminate(reason: String, notify: Bool) {
        guard state != .notRunning else { return }
        if notify && isRunning {
            let before = pid
            delegate(.willTerminate, limit: budgets.willTerminate)
            guard pid == before, state != .notRunning else { return }
        }
        if appDepth > 0 { stopRequested = true }
        interruption.active = false
        movingToForeground = false
        racedSuspension = nil
        // The process's main-thread work that waited dies with it (with what was parked).
        for w in mainWaiting where w.event.pid != 0 { parked.append(QueuedEvent(time: w.due, event: w.event)) }
        mainWaiting.removeAll { $0.event.pid != 0 }
        for s in subsystems { s.processEnding(pid, in: self) }
        parked.removeAll()
        observers.removeAll { $0.pid == pid }
        dropProcessDelegate()
        sceneConnected = false
        sceneState = .unattached
        setState(.notRunning, reason)
        stats.terminations += 1
        for s in subsystems { s.appStopped(self) }
    }

    // MARK: - Notifications

    /// `notifications.observe(name, fn)`: top-level and world observers stay for the run; app
    /// observers belong to the process.
    public func observe(_ name: String, _ fn: ScriptRef) {
        observers.append((name, fn, context == .app ? pid : nil))
    }

    /// `notifications.post(name, info)` from scenario code. Returns false if the app died. Takes
    /// ownership of `info` (released once every observer saw it). App observers run on the
    /// posting thread; when world code posts while the main thread is blocked, they wait for it.
    @discardableResult
    public func post(_ name: String, info: ScriptRef?) -> Bool {
        let before = pid
        var waiting: [ScriptRef] = []
        defer {
            if waiting.isEmpty {
                if let info { host.release(info) }
            } else {
                let myPid = pid
                let deliver = { [unowned self] in
                    for fn in waiting {
                        guard pid == myPid, isRunning else { break }
                        callApp(fn, Invocation(.string(name), info.map(ScriptValue.ref) ?? .null))
                    }
                    if let info { host.release(info) }
                }
                if !waitForMain(nil, deliver) { deliver() }
            }
        }
        for o in observers where o.name == name {
            if let owner = o.pid {
                guard owner == pid, isRunning else { continue }
                if mainBlock != nil && context != .app { waiting.append(o.fn); continue }
                guard callApp(o.fn, Invocation(.string(name), info.map(ScriptValue.ref) ?? .null)) else { continue }
            } else {
                callWorld(o.fn, Invocation(.string(name), info.map(ScriptValue.ref) ?? .null))
                if fatal != nil { return false }
            }
        }
        return pid == before && (context != .app || isRunning)
    }

    func postSystem(_ name: String) {
        guard !observers.isEmpty else { return }
        post(name, info: nil)
    }
}

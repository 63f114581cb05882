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
        if isForeground != (new == .inactive || new == .active) {
            if isForeground { stats.foregroundExits += 1 } else { stats.foregroundEntries += 1 }
        }
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

}

// What the person and the system do to the app (SPEC 6.1, 6.2) is Lifecycle+Actions.swift's;
// suspension, termination and notifications are Lifecycle+Suspension.swift's.

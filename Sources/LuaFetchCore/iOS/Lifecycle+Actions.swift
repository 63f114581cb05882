// The person's and the system's actions on the app's lifecycle (SPEC 6.1, 6.2): launching,
// coming to the foreground, Home, force quit, interruptions, memory pressure, Low Power Mode,
// Background App Refresh, the network, charging and idleness. Uses the state changes and delegate
// calls of Lifecycle.swift and the World's clock.

extension World {
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
            // move's calls run or wait, and its background time stops (SPEC 12.2). The person
            // tapped its icon: a process the system launched in the background after a force quit
            // is launched by the user now, and the app is eligible for background work again.
            forceQuitBlocked = false
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
        // Blocked from now: nothing launches into the process as it ends, nor after it.
        forceQuitBlocked = true
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

}

// When iOS launches BackgroundTasks requests (SPEC 13): the device (idle windows, charging),
// eligibility, evaluating the pending requests, launching or waking the app for a task, running
// its launch handler on its queue, expiring tasks (and the user's activity), and iOS 26's
// continued processing tasks with their progress. Uses BGScheduler's state (BGTasks.swift), the
// grant book (Grants.swift) and the World's clock.

extension World {
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

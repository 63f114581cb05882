// Suspension and termination of the app (settling into the suspended state when no subsystem
// keeps it running, what is delivered after a resume, ending the process) and notifications
// (NotificationCenter's observers, posting, the system's own notifications). Uses the
// subsystems' answers (Subsystem.swift) and Lifecycle.swift's delegate calls.

extension World {
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
        // The requests the process's end frees (a BGTask it abandons) are looked at once it is
        // gone (appStopped): none launches into the ending process.
        let evaluating = bgTasks.evaluating
        bgTasks.evaluating = true
        for s in subsystems { s.processEnding(pid, in: self) }
        bgTasks.evaluating = evaluating
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
        let number = observerNames[name] ?? observerNames.count
        observerNames[name] = number
        observers.append((number, fn, context == .app ? pid : nil))
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
        host.charge(hostWork: observers.count / 4)  // the walk over every observer (names compared)
        let number = observerNames[name] ?? -1
        for o in observers where o.name == number {
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

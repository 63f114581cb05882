// Background tasks (SPEC 4.3): beginBackgroundTask / endBackgroundTask, one budget per app per
// background episode, expiration handlers at deadline − expirationWarning in begin order, the
// watchdog at the deadline, maxTasks and taskHeldWarning. A subsystem of World.

/// One `beginBackgroundTask` that has not ended yet.
struct BackgroundTask {
    let id: Int
    let name: String?
    let handler: ScriptRef?
    let began: Millis
    let location: SourceLocation?
    var heldWarned = false
    var heldEvent: EventID?
    /// Where its expiration handler returned with the task still open: the code responsible for
    /// it stopped there, so reports about the task name that line, with `location` as context.
    var handlerReturned: SourceLocation?

    /// The line a report about the task names.
    var reported: SourceLocation? { handlerReturned ?? location }

    /// What a report naming `reported` adds: the begin line, when it names the handler's.
    var context: String {
        guard handlerReturned != nil else { return "" }
        return " (its expiration handler returned at this line without ending it\(location.map { "; the task began at \($0)" } ?? ""))"
    }
}

/// A stretch of background running with one budget: from Home, or from a background launch/wake.
struct Episode {
    let id: Int
    let budget: Millis
    var deadline: Millis?
    var warningEvent: EventID?
    var deadlineEvent: EventID?
}

final class TaskBook: Subsystem {
    enum Kind: UInt8 { case expirationWarning, deadline, held, racedExpiration, racedDeadline }
    @exclusivity(unchecked) var open: [BackgroundTask] = []  // in begin order
    var nextID = 1
    var episode: Episode?
    var nextEpisode = 0

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        switch event.kind(Kind.self) {
        case .expirationWarning: world.expirationWarning(event.a)
        case .deadline: world.taskDeadline(event.a)
        case .held: world.taskHeldCheck(event.a)
        case .racedExpiration: world.racedExpiration(event.a)
        case .racedDeadline: world.racedDeadline(event.a)
        }
    }

    func keepsAppRunning(_ world: World) -> Bool { !open.isEmpty }

    func appSuspending(_ world: World) { world.endEpisode() }

    func processEnding(_ pid: Int, in world: World) {
        world.endEpisode()
        world.dropTasks()
    }

    /// Expiration handlers run on the main thread; the deadline does not wait for it.
    func needsMainThread(_ event: Event) -> Bool {
        let kind = event.kind(Kind.self)
        return kind == .expirationWarning || kind == .racedExpiration
    }

    func pendingLines(in world: World) -> [String] {
        var out = open.map { t in
            "task       #\(t.id)\(t.name.map { " \"\($0)\"" } ?? "") began \(Time.stamp(t.began))\(t.location.map { " at \($0)" } ?? "")"
        }
        if let deadline = episode?.deadline, world.state == .background {
            out.append("deadline   \(Time.stamp(deadline)) (expiration handlers at \(Time.stamp(deadline - world.budgets.expirationWarning)))")
        }
        return out
    }

    func pendingAtEnd(in world: World) -> (parts: [String], location: SourceLocation?) {
        guard !open.isEmpty else { return ([], nil) }
        return (["\(open.count) background task\(open.count == 1 ? "" : "s") open (#\(open.map { String($0.id) }.joined(separator: ", #")))"],
                open.first?.location)
    }
}

extension World {
    // MARK: - API

    /// `app:beginBackgroundTask([name,] handler)`: an id ≥ 1, or 0 (UIBackgroundTaskInvalid).
    public func beginBackgroundTask(name: String?, handler: ScriptRef?, at location: SourceLocation?) -> Int {
        guard device.multitasking else {
            log("task", .task, "beginBackgroundTask → UIBackgroundTaskInvalid (the device has no multitasking)")
            return 0
        }
        if state == .background, let deadline = tasks.episode?.deadline, now >= deadline - budgets.expirationWarning {
            log("task", .task, "beginBackgroundTask → UIBackgroundTaskInvalid (the background time is spent)")
            return 0
        }
        if let max = budgets.maxTasks, tasks.open.count + 1 > max {
            crash(.tooManyTasks, at: location,
                  "more than \(max) background tasks open at once; iOS terminated the app: end each task you begin")
            return 0
        }
        let id = tasks.nextID
        tasks.nextID += 1
        var task = BackgroundTask(id: id, name: name, handler: handler, began: now, location: location)
        if let held = budgets.taskHeldWarning {
            task.heldEvent = schedule(Event(.tasks, TaskBook.Kind.held, a: id), at: now + held, phase: .late)
        }
        tasks.open.append(task)
        stats.tasksBegun += 1
        log("task", .task, "begin #\(id)\(name.map { " \"\($0)\"" } ?? "")\(location.map { " at \($0)" } ?? "")",
            detail: .taskBegan(id: id, name: name))
        if state == .background, tasks.episode?.deadline == nil { startBudgetClock() }
        milestone(.taskBegan, until: state == .background ? tasks.episode?.deadline : nil)
        if inRacedBlock && state == .background {
            // SPEC 12.4, the other order: begun in a block that ran after the suspension it raced,
            // the task's expiration handler is called at once and it alone must end within
            // expirationWarning.
            schedule(Event(.tasks, TaskBook.Kind.racedExpiration, pid: pid, a: id), at: now)
            schedule(Event(.tasks, TaskBook.Kind.racedDeadline, pid: pid, a: id), at: now + budgets.expirationWarning, phase: .deadline)
        }
        return id
    }

    /// `app:endBackgroundTask(id)`.
    public func endBackgroundTask(_ id: Int, at location: SourceLocation?) {
        guard let index = tasks.open.firstIndex(where: { $0.id == id }) else {
            violate(.taskUnknown, at: location,
                    "endBackgroundTask(\(id)): no background task exists with identifier \(id), or it has already been ended")
            return
        }
        let task = tasks.open.remove(at: index)
        queue.cancel(task.heldEvent)
        if let h = task.handler { host.release(h) }
        log("task", .task, "end #\(id) after \(Time.human(now - task.began))", detail: .taskEnded(id: id))
    }

    /// `app.backgroundTimeRemaining` in seconds; `.infinity` in the foreground (DBL_MAX in iOS).
    public var backgroundTimeRemaining: SecondsValue {
        guard state == .background else { return .infinity }
        if let deadline = tasks.episode?.deadline { return Time.seconds(max(0, deadline - now)) }
        return Time.seconds(tasks.episode?.budget ?? budgets.backgroundTask)
    }

    // MARK: - Budget clock

    func beginEpisode(budget: Millis) {
        endEpisode()
        tasks.nextEpisode += 1
        tasks.episode = Episode(id: tasks.nextEpisode, budget: budget)
        if !tasks.open.isEmpty { startBudgetClock() }
    }

    func startBudgetClock() {
        guard var ep = tasks.episode, ep.deadline == nil else { return }
        let deadline = now + ep.budget
        ep.deadline = deadline
        ep.warningEvent = schedule(Event(.tasks, TaskBook.Kind.expirationWarning, a: ep.id), at: deadline - budgets.expirationWarning)
        ep.deadlineEvent = schedule(Event(.tasks, TaskBook.Kind.deadline, a: ep.id), at: deadline, phase: .deadline)
        tasks.episode = ep
        milestone(.backgroundTime, until: deadline)
        log("task", .task, "background time: \(Time.human(ep.budget)) (deadline \(Time.stamp(deadline)))",
            detail: .budget(deadline: deadline, budget: ep.budget))
    }

    func endEpisode() {
        guard let ep = tasks.episode else { return }
        queue.cancel(ep.warningEvent)
        queue.cancel(ep.deadlineEvent)
        tasks.episode = nil
    }

    // MARK: - Events

    func expirationWarning(_ episode: Int) {
        guard tasks.episode?.id == episode, state == .background else { return }
        log("task", .task, "background time almost spent: calling expiration handlers")
        for task in tasks.open {
            guard let handler = task.handler else { continue }
            guard tasks.open.contains(where: { $0.id == task.id }) else { continue }
            guard callExpirationHandler(handler, of: task.id) else { return }
        }
        settle()
    }

    func racedExpiration(_ id: Int) {
        guard let task = tasks.open.first(where: { $0.id == id }), state == .background else { return }
        log("task", .task, "task #\(id) was begun after the suspension it raced: its expiration handler is called at once")
        guard let handler = task.handler, callExpirationHandler(handler, of: id) else { return }
        settle()
    }

    /// Calls a task's expiration handler; when it returns with its task still open, the task's
    /// reports name the line where it returned (`handlerReturned`). False when the app did not survive.
    private func callExpirationHandler(_ handler: ScriptRef, of id: Int) -> Bool {
        var returned: SourceLocation?
        guard runApp({ let r = host.invokeNotingReturn(handler, .none); returned = r.returned; return r.outcome }) else { return false }
        guard let i = tasks.open.firstIndex(where: { $0.id == id }) else { return true }
        if let returned { tasks.open[i].handlerReturned = returned }
        let task = tasks.open[i]
        violate(.taskNotEndedInHandler, at: task.reported,
                "the expiration handler of task #\(id) returned without ending it\(returned == nil ? "" : " at this line\(task.location.map { " (the task began at \($0))" } ?? "")"): call endBackgroundTask in the handler")
        return true
    }

    func racedDeadline(_ id: Int) {
        guard let task = tasks.open.first(where: { $0.id == id }), state == .background else { return }
        watchdogTerminate(.taskExpired, at: task.reported,
                          "background task #\(id)\(task.name.map { " \"\($0)\"" } ?? "") was begun after the app had been suspended (the race of beginBackgroundTask shortly before suspension) and was still open \(Time.human(budgets.expirationWarning)) later\(task.context); the watchdog terminated the app: begin the task before the work is dispatched")
    }

    func taskDeadline(_ episode: Int) {
        guard tasks.episode?.id == episode, state == .background, !tasks.open.isEmpty else { return }
        expireTasks()
    }

    /// The watchdog at the deadline: the app is terminated for its open tasks.
    func expireTasks() {
        guard let first = tasks.open.first else { return }
        let budget = tasks.episode?.budget ?? budgets.backgroundTask
        let others = tasks.open.count > 1 ? " (and \(tasks.open.count - 1) more)" : ""
        // What happened, then how to fix it: the most common newcomer violation says both.
        watchdogTerminate(.taskExpired, at: first.reported,
              "background task #\(first.id)\(first.name.map { " \"\($0)\"" } ?? "")\(others) was still open when the \(Time.human(budget)) of background time ran out\(first.context); the watchdog terminated the app. "
              + ViolationCode.taskExpired.fix)
    }

    /// `taskHeldWarning` after a task began, in any state (SPEC 12.3): logged once per task.
    func taskHeldCheck(_ id: Int) {
        guard let i = tasks.open.firstIndex(where: { $0.id == id }), !tasks.open[i].heldWarned else { return }
        tasks.open[i].heldWarned = true
        let t = tasks.open[i]
        violate(.taskHeldTooLong, at: t.reported,
                "background task #\(t.id)\(t.name.map { " \"\($0)\"" } ?? "") has been open for \(Time.human(budgets.taskHeldWarning ?? 0))\(t.context); in the background this risks termination: end it as soon as its work is done")
    }

    func dropTasks() {
        for t in tasks.open {
            queue.cancel(t.heldEvent)
            if let h = t.handler { host.release(h) }
        }
        tasks.open.removeAll()
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension TaskBook {
    func copyState(from o: TaskBook) { open = o.open; nextID = o.nextID; episode = o.episode; nextEpisode = o.nextEpisode }
}

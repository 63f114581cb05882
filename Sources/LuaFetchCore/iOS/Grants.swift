// Grants: whatever the system gives the app to run for a while with a completion to call before a
// deadline (a background fetch today; BGTasks, pushes and URL-session events are further kinds).
// One book holds every pending grant; while any is pending the app is not suspended; a missed
// deadline terminates the app with the kind's code; a second completion or a bad value crashes it;
// a process that ends abandons its grants. Each kind is one row of `GrantKind.info` and one
// `GrantBehaviour` (what its completion means), found by `World.behaviour(of:)`. Part of World.

/// The kinds of grant. Adding one: a case, its row in `info`, its behaviour in `World.behaviour(of:)`
/// (docs/DEVELOPING.md walks through it).
public enum GrantKind: UInt8, CaseIterable, Sendable {
    case fetch, bgTask, push, sessionEvents

    /// Everything generic code says about a kind.
    public var info: GrantKindInfo {
        switch self {
        case .fetch:
            return GrantKindInfo(name: "fetch", handler: "performFetch", noun: "fetch completion",
                                 noCompletion: .fetchNoCompletion, doubleCompletion: .fetchDoubleCompletion)
        case .sessionEvents:
            return GrantKindInfo(name: "session", handler: "handleEventsForBackgroundURLSession", noun: "URL session events completion",
                                 noCompletion: .sessionNoCompletion, doubleCompletion: nil)
        case .push:
            return GrantKindInfo(name: "push", handler: "didReceiveRemoteNotification", noun: "push completion",
                                 noCompletion: .pushNoCompletion, doubleCompletion: .pushDoubleCompletion)
        case .bgTask:
            return GrantKindInfo(name: "bgtask", handler: nil, noun: "BGTask not completed", nounPlural: "BGTasks not completed",
                                 noCompletion: .bgtaskNoCompletion, doubleCompletion: .bgtaskDoubleCompletion)
        }
    }
}

/// The table row of one grant kind.
public struct GrantKindInfo: Sendable {
    /// Its timeline actor and the word before its number ("fetch #3").
    public let name: String
    /// The app delegate method through which the grant reaches the app, if it has one
    /// (`performFetch`): `app{}` accepts it like the lifecycle's methods.
    public let handler: String?
    /// What `pending-at-end` counts ("2 fetch completions not called").
    public let noun: String
    /// Its plural, when it is not `noun` + "s" + " not called".
    public var nounPlural: String? = nil
    /// The violation when the deadline passes without a completion.
    public let noCompletion: ViolationCode
    /// The violation when the completion is called a second time (nil: a second call is ignored).
    public let doubleCompletion: ViolationCode?
}

/// Names one grant: its kind and its number within the kind.
public struct GrantKey: Hashable, Sendable {
    public let kind: GrantKind
    public let serial: Int
    public init(kind: GrantKind, serial: Int) { self.kind = kind; self.serial = serial }
}

/// What app code passed to a completion: a string, or anything else shown as Lua shows it
/// (`nil`, `42`, `table`).
public enum CompletionValue: Sendable {
    case string(String)
    case other(String)

    /// As it reads in a message: `"newData"`, `nil`, `42`.
    public var shown: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .other(let s): return s
        }
    }
}

/// Where the code holding a grant's completion handler was last (`World.completionHeld`).
public enum HeldAt: Sendable {
    /// It returned there without calling the handler (a return statement, or the end of the
    /// outermost function that held it).
    case returned
    /// A background thread holding it waits there (work, a lock, q:sync).
    case waits
    /// It was running there when the time ran out.
    case running
}

/// One pending grant.
struct Grant {
    let key: GrantKey
    let pid: Int
    let began: Millis
    var deadline: Millis
    /// Where the kind's delegate method was defined, until code holding the completion handler
    /// returns or waits somewhere (`held` says which).
    var location: SourceLocation?
    var held: HeldAt?
    /// Where the kind's delegate method (a BGTask's launch handler) was defined, once `location`
    /// moved to where code holding the completion stopped: the context a missed completion names.
    var origin: SourceLocation?
    /// Kind-specific (fetch: whether it was scheduled, as 1).
    let detail: Int
    var deadlineEvent: EventID?
}

/// What a kind's completion means.
protocol GrantBehaviour: AnyObject {
    /// Whether `value` is a valid completion; nil, or the crash it causes.
    func invalid(_ value: CompletionValue, of grant: Grant, in world: World) -> (ViolationCode, String)?
    /// The app completed the grant in time.
    func completed(_ grant: Grant, with value: CompletionValue, in world: World)
    /// What the app failed to do when the deadline passed (the consequence is added).
    func missed(_ grant: Grant, in world: World) -> String
    /// The process ended with the grant pending.
    func abandoned(_ grant: Grant, in world: World)
}

final class GrantBook: Subsystem {
    enum Kind: UInt8 { case deadline }
    /// In the order they began.
    @exclusivity(unchecked) var pending: [Grant] = []
    /// Grants that ended (so a second completion is one); loose and lapsed grants are in from
    /// the start (their own sets answer first), so only pending grants hold the marks back.
    private var completed = GrantKeySet()
    private var serials: [GrantKind: Int] = [:]

    func nextKey(_ kind: GrantKind) -> GrantKey {
        let n = (serials[kind] ?? 0) + 1
        serials[kind] = n
        return GrantKey(kind: kind, serial: n)
    }

    func index(_ key: GrantKey) -> Int? { pending.firstIndex { $0.key == key } }

    /// Grants whose deadline passed in the foreground: a late completion is ignored.
    private var lapsed: Set<GrantKey> = []

    /// Grants nothing waits for (a push handled in the foreground): their completion is checked.
    private var loose: Set<GrantKey> = []

    func beginLoose(_ kind: GrantKind) -> GrantKey {
        let key = nextKey(kind)
        loose.insert(key)
        completed.insert(key)
        return key
    }

    /// Takes a loose grant (true when `key` was one).
    func takeLoose(_ key: GrantKey) -> Bool { loose.remove(key) != nil }

    func markCompleted(_ key: GrantKey, lapsed: Bool = false) {
        if lapsed { self.lapsed.insert(key) }
        completed.insert(key)
    }
    func wasCompleted(_ key: GrantKey) -> Bool { completed.contains(key) }
    func hasLapsed(_ key: GrantKey) -> Bool { lapsed.contains(key) }

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        let key = GrantKey(kind: GrantKind(rawValue: UInt8(event.a))!, serial: event.b)
        if index(key) != nil { world.missGrant(key) }
    }

    func keepsAppRunning(_ world: World) -> Bool { !pending.isEmpty }

    func processEnding(_ pid: Int, in world: World) {
        let gone = pending
        pending.removeAll()
        for g in gone {
            world.queue.cancel(g.deadlineEvent)
            completed.insert(g.key)
            world.behaviour(of: g.key.kind).abandoned(g, in: world)
        }
    }

    func needsMainThread(_ event: Event) -> Bool { false }  // a deadline does not wait for the main thread

    func pendingLines(in world: World) -> [String] {
        pending.map { g in
            let name = g.key.kind.info.name
            return "\(name.padding(10)) #\(g.key.serial) started \(Time.stamp(g.began)), completion due by \(Time.stamp(g.deadline))"
        }
    }

    func pendingAtEnd(in world: World) -> (parts: [String], location: SourceLocation?) {
        var parts: [String] = []
        for kind in GrantKind.allCases {
            let n = pending.filter { $0.key.kind == kind }.count
            guard n > 0 else { continue }
            parts.append(kind.info.nounPlural.map { n == 1 ? "1 \(kind.info.noun)" : "\(n) \($0)" } ?? "\(n) \(kind.info.noun)\(n == 1 ? "" : "s") not called")
        }
        return (parts, pending.first?.location)
    }
}

extension World {
    /// The behaviour of each grant kind.
    func behaviour(of kind: GrantKind) -> GrantBehaviour {
        switch kind {
        case .fetch: return fetch
        case .bgTask: return bgTasks
        case .push: return pushBehaviour
        case .sessionEvents: return sessions
        }
    }

    /// Starts a grant for the current process that must be completed within `allowed`.
    func beginGrant(_ kind: GrantKind, allowed: Millis, at location: SourceLocation?, detail: Int = 0) -> GrantKey {
        let key = grants.nextKey(kind)
        let event = schedule(Event(.grants, GrantBook.Kind.deadline, a: Int(kind.rawValue), b: key.serial),
                             at: now + allowed, phase: .deadline)
        grants.pending.append(Grant(key: key, pid: pid, began: now, deadline: now + allowed, location: location,
                                    detail: detail, deadlineEvent: event))
        milestone(.grant, until: now + allowed)
        return key
    }

    /// Gives the app a grant of `kind` the way iOS does: launches a not-running app into the
    /// background for it (`launch`; nil: a not-running app gets nothing and false is returned),
    /// wakes a suspended one with a fresh background budget, starts the grant's deadline,
    /// `announce`s it, calls the kind's delegate method with `(app, completionHandler)` (or
    /// `unhandled` when the app has none), then delivers what waited and lets the app settle.
    @discardableResult
    func deliverGrant(_ kind: GrantKind, allowed: Millis, launch: LaunchReason?, wakeNote: String, detail: Int = 0,
                      announce: (GrantKey) -> Void, unhandled: @escaping (GrantKey) -> Void,
                      call: ((GrantKey) -> Bool)? = nil) -> Bool {
        var launching = false
        let woken = state == .suspended
        switch state {
        case .notRunning:
            guard let launch else { return false }
            startProcess(launch)
            launching = true
        case .suspended:
            stats.wakes += 1
            if mainBlock != nil { resumeFrozenProcess(wakeNote) } else { setState(.background, wakeNote) }
            beginEpisode(budget: budgets.backgroundTaskLaunched ?? budgets.backgroundTask)
        case .background, .active, .inactive:
            break
        }
        let key = beginGrant(kind, allowed: allowed, at: grantHandler(kind).flatMap(host.location(of:)) ?? app.location, detail: detail)
        announce(key)
        if mainBlock != nil, !launching {
            // The call waits for the main thread; the completion limit counts from now (SPEC 12.2).
            _ = waitForMain(nil, note: "the \(kind.info.handler ?? kind.info.name) call") { [unowned self] in
                guard grants.index(key) != nil, isRunning else { return }
                guard handOver(kind, key, unhandled: unhandled, call: call) else { return }
                deliverAfterResume()
                settle()
            }
            return true
        }
        if launching, let launch {
            guard delegate(.didFinishLaunching, launch: launch, limit: budgets.launch) else { return true }
            // A delegate made at launch (SPEC 12.1) names the handler only now.
            if let fn = grantHandler(kind), let i = grants.index(key) { grants.pending[i].location = host.location(of: fn) ?? app.location }
        }
        // SPEC 12.4: the wake's delegate call, or first what fell due while the app was suspended.
        if woken, !parked.isEmpty, chooseOther("what fell due while suspended runs before \(kind.info.handler ?? kind.info.name)") {
            deliverAfterResume()
            guard isRunning, grants.index(key) != nil else { settle(); return true }
        }
        guard handOver(kind, key, unhandled: unhandled, call: call) else { return true }
        deliverAfterResume()
        settle()
        return true
    }

    /// Gives the app its grant: `call` (BGTasks), or the kind's delegate method with
    /// `(app, completionHandler)`, or `unhandled`. False when the app did not survive.
    private func handOver(_ kind: GrantKind, _ key: GrantKey, unhandled: (GrantKey) -> Void, call: ((GrantKey) -> Bool)?) -> Bool {
        if let call { return call(key) }
        if let fn = grantHandler(kind) { return callApp(fn, Invocation(.app, .completion(key))) }
        unhandled(key)
        return isRunning
    }

    /// Moves a grant's deadline (an early expiry).
    func moveGrantDeadline(_ key: GrantKey, to time: Millis) {
        guard let i = grants.index(key) else { return }
        queue.cancel(grants.pending[i].deadlineEvent)
        grants.pending[i].deadline = time
        grants.pending[i].deadlineEvent = schedule(Event(.grants, GrantBook.Kind.deadline, a: Int(key.kind.rawValue), b: key.serial),
                                                   at: time, phase: .deadline)
    }

    /// The app called the completion of `key` with `value`. Returns false when the call
    /// terminated the app.
    public func completeGrant(_ key: GrantKey, with value: CompletionValue, at location: SourceLocation?) -> Bool {
        guard let index = grants.index(key) else {
            if grants.takeLoose(key) {
                if let (code, message) = behaviour(of: key.kind).invalid(value, of: Grant(key: key, pid: pid, began: now, deadline: now, location: location, detail: 0), in: self) {
                    grants.markCompleted(key)
                    crash(code, at: location, message)
                    return false
                }
                grants.markCompleted(key)
                return true
            }
            if grants.hasLapsed(key) {
                grants.markCompleted(key)  // late: ignored, but a second call is still a second call
                return true
            }
            if grants.wasCompleted(key) {
                let info = key.kind.info
                guard let doubleCompletion = info.doubleCompletion else { return true }
                if doubleCompletion.severity == .warning {
                    violate(doubleCompletion, at: location, "the \(info.name) #\(key.serial) was completed a second time: complete it exactly once")
                    return true
                }
                crash(doubleCompletion, at: location,
                      "the completionHandler of \(info.name) #\(key.serial) was called a second time (NSInternalInconsistencyException): call it exactly once")
                return false
            }
            return true  // a grant of a process that is gone
        }
        let behaviour = behaviour(of: key.kind)
        if let (code, message) = behaviour.invalid(value, of: grants.pending[index], in: self) {
            crash(code, at: location, message)
            return false
        }
        let g = grants.pending.remove(at: index)
        grants.markCompleted(key)
        queue.cancel(g.deadlineEvent)
        behaviour.completed(g, with: value, in: self)
        return true
    }

    /// Whether the grant `key` still waits for its completion.
    public func isGrantPending(_ key: GrantKey) -> Bool { grants.index(key) != nil }

    /// Code that held the completion handler of the pending grant `key` returned at `location`
    /// without calling it (or waits there): a missed completion is reported at this line, the
    /// last path that could have called it (SPEC 5), instead of where the delegate method begins.
    public func completionHeld(_ key: GrantKey, lastAt location: SourceLocation, _ held: HeldAt) {
        guard let i = grants.index(key) else { return }
        if grants.pending[i].held == nil { grants.pending[i].origin = grants.pending[i].location }
        grants.pending[i].location = location
        grants.pending[i].held = held
    }

    /// The completion was not called in time: the watchdog ends the app, unless the app is in
    /// the foreground (SPEC 12.3): then it is reported and the grant no longer keeps the app running.
    func missGrant(_ key: GrantKey) {
        guard let index = grants.index(key) else { return }
        // Code holding the handler still running (blocked past the deadline): its line.
        if let running = host.runningLine(forCompletionOf: key) { completionHeld(key, lastAt: running, .running) }
        let g = grants.pending[index]
        var what = behaviour(of: key.kind).missed(g, in: self)
        // A BGTask is held as its task object, and completed by setTaskCompleted; its launch
        // handler is named as the context (the line the report moved from).
        let task = key.kind == .bgTask
        let holder = task ? "the code holding the task" : "the code holding it"
        switch g.held {
        case .returned?: what += ": \(holder) returned at this line without \(task ? "completing" : "calling") it"
        case .waits?: what += ": \(holder) was still waiting at this line"
        case .running?: what += ": \(holder) was still running at this line"
        case nil: break
        }
        if task, g.held != nil, let origin = g.origin, origin != g.location { what += " (its launch handler: \(origin))" }
        /// The grant is over without its completion: a late one is then ignored.
        func lapse() {
            grants.pending.remove(at: index)
            grants.markCompleted(key, lapsed: true)
            behaviour(of: key.kind).abandoned(g, in: self)
        }
        if key.kind.info.noCompletion.severity == .warning {
            // Only a warning (session events): the grant no longer keeps the app running.
            violate(key.kind.info.noCompletion, at: g.location, what + "; the app may now be suspended")
            lapse()
            settle()
            return
        }
        guard isForeground || debugger else {
            watchdogTerminate(key.kind.info.noCompletion, at: g.location, what + "; the watchdog terminated the app")
            return
        }
        if debugger && !isForeground {
            watchdogTerminate(key.kind.info.noCompletion, at: g.location, what)
            lapse()
            return
        }
        violate(key.kind.info.noCompletion, at: g.location,
                what + "; the app is in the foreground, so iOS does not terminate it, but the completion no longer keeps the app running")
        lapse()
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension GrantBook {
    func copyState(from o: GrantBook) {
        pending = o.pending; completed = o.completed; serials = o.serials; lapsed = o.lapsed; loose = o.loose
    }
}

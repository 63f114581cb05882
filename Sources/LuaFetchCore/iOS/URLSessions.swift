// Background URL sessions (SPEC 15): `urlSession.background(identifier, delegate)` and its
// download and upload tasks, which the system carries on while the app is suspended or not
// running (a force quit cancels them). Finished transfers reach the delegate at once while the
// app runs and holds the session; otherwise, once all of a session's transfers are done, the app
// is woken or launched (`"backgroundURLSession"`) for `handleEventsForBackgroundURLSession`, a
// grant of kind `.sessionEvents` whose completion keeps it running for at most `sessionEvents`
// (then only the warning `session-no-completion`). The delegate's calls run on the session's
// serial background queue. Transfers live with the system (they survive processes); the delegate
// belongs to the process that created the session. Uses Network.swift for the exchange.
//
// A session holds only what its semantics need (issue 29): transfers by id until they are
// delivered, the finished ones in the order they finished, those waiting for the network, and
// counts; the task objects and responses handed to delegate calls are let go once the calls ran.
// So every operation is near-constant per transfer, and the memory they take counts against the
// cap (World.hostBytes).

/// The kinds of background transfer.
public enum TransferKind: String, Sendable { case download, upload }

/// One download or upload of a background session, until the app is told it finished.
struct TransferTask {
    typealias Kind = TransferKind
    let id: Int
    let kind: Kind
    let summary: String
    var request: Int?
    var finished = false
    var response: ServedResponse?
    var status: Int?
    var error: String?
    /// Waits for the network to come back (airplane mode at the start).
    var waiting: (method: String, url: ParsedURL, value: ScriptRef)?
}

/// A background session as the system keeps it.
struct BackgroundSession {
    /// Transfers not yet delivered, by id.
    var tasks: [Int: TransferTask] = [:]
    var nextTask = 0
    var finishCount = 0
    /// The handleEvents call was made for the finished transfers (delivery follows).
    var handling = false
    /// How many of `tasks` have not finished.
    var unfinished = 0
    /// Finished transfers not yet delivered, in the order they finished.
    var ready: [Int] = []
    /// Transfers that waited for the network, in the order they started.
    var waiting: [Int] = []
}

final class URLSessionBook: Subsystem, GrantBehaviour {
    var sessions: [String: BackgroundSession] = [:]
    /// This process's sessions: their delegate tables and serial queues.
    var delegates: [String: (delegate: ScriptRef, queue: Int)] = [:]
    /// Transfers finished (all time), for the summary.
    var finished = 0
    /// Task objects and responses handed to queued delegate calls, by reference, with how many
    /// of those calls have not run yet: released when the last one ran, or the process ends.
    var held: [Int: Int] = [:]
    /// Host memory the sessions' transfers take (counted against the cap, World.hostBytes).
    @exclusivity(unchecked) var hostBytes = 0
    /// At most 10 wakes and launches for sessions at one instant (InstantThrottle); the sessions
    /// that wait for the next try.
    var wakes = InstantThrottle(limit: 10)
    var deferred: Set<String> = []

    enum Kind: UInt8 { case retryWakes }

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        let waiting = deferred.sorted()
        deferred.removeAll()
        for identifier in waiting { world.wakeForSessionIfDue(identifier) }
    }

    func processEnding(_ pid: Int, in world: World) {
        for key in delegates.keys.sorted() { world.host.release(delegates[key]!.delegate) }
        delegates.removeAll()
        for r in held.keys.sorted() { world.host.release(ScriptRef(id: r)) }
        held.removeAll()
        for key in sessions.keys.sorted() { sessions[key]!.handling = false }
    }

    /// What a transfer costs the host until it is delivered: its record, its entry, its request.
    static func bytes(of t: TransferTask) -> Int { MemoryLayout<TransferTask>.stride + 160 + t.summary.utf8.count }

    func pendingLines(in world: World) -> [String] {
        sessions.keys.sorted().flatMap { key in
            sessions[key]!.tasks.keys.sorted().map { sessions[key]!.tasks[$0]! }.map { t in
                "transfer   \(key) #\(t.id) \(t.kind.rawValue) \(t.summary)\(t.finished ? " finished (\(t.error ?? "\(t.status ?? 0)")), not delivered yet" : t.waiting != nil ? " waits for the network" : " in progress")"
            }
        }
    }

    // MARK: - The events grant

    func invalid(_ value: CompletionValue, of grant: Grant, in world: World) -> (ViolationCode, String)? { nil }

    func completed(_ grant: Grant, with value: CompletionValue, in world: World) {
        world.log("session", .net, "events of the session completed after \(Time.human(world.now - grant.began))",
                  detail: .grantEnded(kind: "session", id: grant.key.serial, outcome: "completed"))
    }

    func missed(_ grant: Grant, in world: World) -> String {
        "handleEventsForBackgroundURLSession's completionHandler was not called within \(Time.human(world.budgets.sessionEvents ?? 0))"
    }

    func abandoned(_ grant: Grant, in world: World) {
        world.log("session", .net, "events of the session ended without completion",
                  detail: .grantEnded(kind: "session", id: grant.key.serial, outcome: "missed"))
    }
}

extension World {
    // MARK: - API

    /// `urlSession.background(identifier, delegate)`: registers the process's delegate for the
    /// session (the first call wins) and delivers what waited for it. Returns false when the
    /// profile has no background sessions.
    public func openSession(_ identifier: String, delegate: ScriptRef) -> Bool {
        if sessions.delegates[identifier] != nil { host.release(delegate); return true }
        let q = makeQueue(label: "background session \(identifier)")
        sessions.delegates[identifier] = (delegate, q)
        if sessions.sessions[identifier] == nil { sessions.sessions[identifier] = BackgroundSession() }
        // A session recreated after handleEvents (or after a force quit) gets what waited.
        if sessions.sessions[identifier]!.handling || !sessions.sessions[identifier]!.ready.isEmpty {
            deliverSessionEvents(identifier, finishing: sessions.sessions[identifier]!.handling)
        }
        return true
    }

    /// Whether this process holds the session (its objects call back with it).
    public func holdsSession(_ identifier: String) -> Bool { sessions.delegates[identifier] != nil }

    /// `session:download(urlOrRequest)` / `session:upload(request)`: the task's id.
    public func startTransfer(_ identifier: String, kind: TransferKind, method: String, url: ParsedURL, value: ScriptRef,
                              at location: SourceLocation?) -> Int {
        sessions.sessions[identifier]!.nextTask += 1
        let id = sessions.sessions[identifier]!.nextTask
        var task = TransferTask(id: id, kind: kind, summary: "\(method) \(url.host)\(url.path)")
        log("session", .net, "\(identifier) #\(id) \(kind.rawValue) \(method) \(url.scheme)://\(url.host)\(url.path) (carried by the system)")
        if device.network {
            task.request = sendTransfer(identifier, id, method: method, url: url, value: value, at: location)
        } else {
            task.waiting = (method, url, value)
            sessions.sessions[identifier]!.waiting.append(id)
        }
        sessions.hostBytes += URLSessionBook.bytes(of: task)
        sessions.sessions[identifier]!.tasks[id] = task
        sessions.sessions[identifier]!.unfinished += 1
        return id
    }

    private func sendTransfer(_ identifier: String, _ task: Int, method: String, url: ParsedURL, value: ScriptRef, at location: SourceLocation?) -> Int {
        let id = send(method: method, url: url, timeout: .max, callback: ScriptRef(id: -1), value: value, at: location)
        net.requests[id]?.transfer = (identifier, task)
        return id
    }

    /// Transfers that waited for the network start when it comes back, in the order they began.
    func resumeWaitingTransfers() {
        guard device.network else { return }
        for key in sessions.sessions.keys.sorted() where !sessions.sessions[key]!.waiting.isEmpty {
            let ids = sessions.sessions[key]!.waiting
            sessions.sessions[key]!.waiting.removeAll()
            for id in ids {
                guard let w = sessions.sessions[key]!.tasks[id]?.waiting else { continue }
                sessions.sessions[key]!.tasks[id]!.waiting = nil
                sessions.sessions[key]!.tasks[id]!.request = sendTransfer(key, id, method: w.method, url: w.url, value: w.value, at: nil)
            }
        }
    }

    /// `task:cancel()`: the transfer ends with "cancelled".
    public func cancelTransfer(_ identifier: String, _ task: Int) {
        guard let t = sessions.sessions[identifier]?.tasks[task], !t.finished else { return }
        if let r = t.request { abandonRequest(r) }
        transferFinished(session: identifier, task: task, response: nil, status: nil, error: "cancelled")
    }

    /// A force quit cancels every transfer; the app learns it when it next creates the session.
    func cancelTransfersForForceQuit() {
        for key in sessions.sessions.keys.sorted() where sessions.sessions[key]!.unfinished > 0 {
            let s = sessions.sessions[key]!
            host.charge(hostWork: s.tasks.count)
            for id in s.tasks.keys.sorted() where !s.tasks[id]!.finished {
                if let r = s.tasks[id]!.request { abandonRequest(r) }
                markTransfer(key, id, response: nil, status: nil, error: "cancelled")
            }
        }
    }

    // MARK: - Finishing

    private func markTransfer(_ identifier: String, _ task: Int, response: ServedResponse?, status: Int?, error: String?) {
        guard var s = sessions.sessions.removeValue(forKey: identifier) else { return }
        defer { sessions.sessions[identifier] = s }
        guard var t = s.tasks[task] else { return }
        s.finishCount += 1
        if t.finished {
            // Finished again (a cancelled transfer that waited for the network was sent after
            // all): it is delivered in its new place.
            s.ready.removeAll { $0 == task }
        } else {
            s.unfinished -= 1
        }
        s.ready.append(task)
        t.finished = true
        t.response = response
        t.status = status
        t.error = error
        s.tasks[task] = t
        sessions.finished += 1
        stats.transfers += 1
        log("session", .net, "\(identifier) #\(task) finished: \(error ?? "\(status ?? 404)")")
    }

    /// A transfer ended (the network, a cancel): delivered at once to a running process that holds
    /// the session; otherwise, when the session has no transfer left, the app is woken or
    /// launched for handleEventsForBackgroundURLSession.
    func transferFinished(session identifier: String, task: Int, response: ServedResponse?, status: Int?, error: String?) {
        markTransfer(identifier, task, response: response, status: status, error: error)
        if isRunning && holdsSession(identifier) && !sessions.sessions[identifier]!.handling {
            deliverSessionEvents(identifier, finishing: false)
            return
        }
        wakeForSessionIfDue(identifier)
    }

    /// Wakes or launches the app for a session whose transfers all finished, unless it runs (the
    /// events then wait for the session) or was force-quit; at most 10 such wakes at one instant.
    func wakeForSessionIfDue(_ identifier: String) {
        guard let s = sessions.sessions[identifier], s.unfinished == 0, state != .notRunning || !forceQuitBlocked else { return }
        guard !isRunning, !s.ready.isEmpty else { return }
        if sessions.wakes.isFull(at: now) {
            if sessions.deferred.isEmpty {
                schedule(Event(.sessions, URLSessionBook.Kind.retryWakes), at: now + sessions.wakes.wait(at: now))
            }
            sessions.deferred.insert(identifier)
            return
        }
        sessions.wakes.note(at: now)
        wakeForSession(identifier)
    }

    /// Wakes or launches the app for a session's events.
    func wakeForSession(_ identifier: String) {
        sessions.sessions[identifier]!.handling = true
        deliverGrant(.sessionEvents, allowed: budgets.sessionEvents ?? 30 * Time.second, launch: .backgroundURLSession,
                     wakeNote: "woken for the background session \(identifier)",
                     announce: { [unowned self] key in
                         log("session", .net, "\(identifier): all transfers finished; handleEventsForBackgroundURLSession",
                             detail: .grantBegan(kind: "session", id: key.serial, name: identifier))
                     },
                     unhandled: { _ in },
                     call: { [unowned self] key in
                         if let fn = grantHandler(.sessionEvents) {
                             guard callApp(fn, Invocation(.app, .string(identifier), .completion(key))) else { return false }
                         } else {
                             log("session", .net, "the app does not implement handleEventsForBackgroundURLSession")
                             _ = completeGrant(key, with: .string(""), at: nil)
                         }
                         if holdsSession(identifier), sessions.sessions[identifier]?.handling == true {
                             deliverSessionEvents(identifier, finishing: true)
                         }
                         return isRunning
                     })
    }

    /// The delegate's calls for every finished, undelivered task in the order they finished:
    /// didFinishDownloading (downloads that got a response) and didComplete; then, after a wake,
    /// didFinishEvents. On the session's serial queue. A delivered task is forgotten; its object
    /// and response are held until the calls given them ran (`letGo`).
    func deliverSessionEvents(_ identifier: String, finishing: Bool) {
        guard let (delegate, q) = sessions.delegates[identifier], var s = sessions.sessions.removeValue(forKey: identifier) else { return }
        for id in s.ready {
            guard let t = s.tasks.removeValue(forKey: id) else { continue }
            sessions.hostBytes -= URLSessionBook.bytes(of: t)
            let taskValue = host.makeTransferObject(session: identifier, task: t.id)
            var taskUses = 0
            if t.kind == .download, t.error == nil, let response = t.response,
               let fn = host.field("didFinishDownloading", of: delegate) {
                queueAsync(q, fn, Invocation(.ref(taskValue), .ref(response.value)), holds: true)
                taskUses += 1
                hold(response.value, uses: 1)
            } else if let response = t.response {
                host.release(response.value)
            }
            if let fn = host.field("didComplete", of: delegate) {
                queueAsync(q, fn, Invocation(.ref(taskValue), t.error.map { .string($0) } ?? .null), holds: true)
                taskUses += 1
            }
            hold(taskValue, uses: taskUses)
        }
        s.ready.removeAll()
        if finishing {
            s.handling = false
            if let fn = host.field("didFinishEvents", of: delegate), let session = host.sessionObject(identifier) {
                queueAsync(q, fn, Invocation(.ref(session)))
            }
        }
        sessions.sessions[identifier] = s
    }

    /// Keeps a reference handed to `uses` queued delegate calls (none: released now).
    private func hold(_ ref: ScriptRef, uses: Int) {
        guard uses > 0 else { host.release(ref); return }
        sessions.held[ref.id, default: 0] += uses
    }

    /// A queued delegate call ran (or was dropped): the references it was given are let go once
    /// no other call waits for them.
    func letGo(_ invocation: Invocation) {
        for i in 0..<invocation.count {
            guard case .ref(let r) = invocation[i], let n = sessions.held[r.id] else { continue }
            if n > 1 { sessions.held[r.id] = n - 1 } else { sessions.held[r.id] = nil; host.release(r) }
        }
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension URLSessionBook {
    func copyState(from o: URLSessionBook) {
        sessions = o.sessions; delegates = o.delegates; finished = o.finished; held = o.held; hostBytes = o.hostBytes; wakes = o.wakes
        deferred = o.deferred
    }
}

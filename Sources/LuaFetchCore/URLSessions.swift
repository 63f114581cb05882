// Background URL sessions (SPEC 15): `urlSession.background(identifier, delegate)` and its
// download and upload tasks, which the system carries on while the app is suspended or not
// running (a force quit cancels them). Finished transfers reach the delegate at once while the
// app runs and holds the session; otherwise, once all of a session's transfers are done, the app
// is woken or launched (`"backgroundURLSession"`) for `handleEventsForBackgroundURLSession`, a
// grant of kind `.sessionEvents` whose completion keeps it running for at most `sessionEvents`
// (then only the warning `session-no-completion`). The delegate's calls run on the session's
// serial background queue. Transfers live with the system (they survive processes); the delegate
// belongs to the process that created the session. Uses Network.swift for the exchange.

/// One download or upload of a background session.
/// The kinds of background transfer.
public enum TransferKind: String, Sendable { case download, upload }

struct TransferTask {
    typealias Kind = TransferKind
    let id: Int
    let kind: Kind
    let summary: String
    var request: Int?
    var finished = false
    var finishOrder = 0
    var response: ServedResponse?
    var status: Int?
    var error: String?
    var delivered = false
    /// Waits for the network to come back (airplane mode at the start).
    var waiting: (method: String, url: ParsedURL, value: ScriptRef)?
}

/// A background session as the system keeps it.
struct BackgroundSession {
    var tasks: [TransferTask] = []
    var nextTask = 0
    var finishCount = 0
    /// The handleEvents call was made for the finished transfers (delivery follows).
    var handling = false
}

final class URLSessionBook: Subsystem, GrantBehaviour {
    var sessions: [String: BackgroundSession] = [:]
    /// This process's sessions: their delegate tables and serial queues.
    var delegates: [String: (delegate: ScriptRef, queue: Int)] = [:]
    /// Transfers finished (all time), for the summary.
    var finished = 0
    /// Task objects and responses handed to queued delegate calls: released when the process ends.
    var held: [ScriptRef] = []
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
        for r in held { world.host.release(r) }
        held.removeAll()
        for key in sessions.keys.sorted() { sessions[key]!.handling = false }
    }

    func pendingLines(in world: World) -> [String] {
        sessions.keys.sorted().flatMap { key in
            sessions[key]!.tasks.filter { !$0.delivered }.map { t in
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
        if sessions.sessions[identifier]!.handling || sessions.sessions[identifier]!.tasks.contains(where: { $0.finished && !$0.delivered }) {
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
        }
        sessions.sessions[identifier]!.tasks.append(task)
        return id
    }

    private func sendTransfer(_ identifier: String, _ task: Int, method: String, url: ParsedURL, value: ScriptRef, at location: SourceLocation?) -> Int {
        let id = send(method: method, url: url, timeout: .max, callback: ScriptRef(id: -1), value: value, at: location)
        net.requests[id]?.transfer = (identifier, task)
        return id
    }

    /// Transfers that waited for the network start when it comes back.
    func resumeWaitingTransfers() {
        guard device.network else { return }
        for key in sessions.sessions.keys.sorted() {
            for i in sessions.sessions[key]!.tasks.indices {
                guard let w = sessions.sessions[key]!.tasks[i].waiting else { continue }
                sessions.sessions[key]!.tasks[i].waiting = nil
                sessions.sessions[key]!.tasks[i].request = sendTransfer(key, sessions.sessions[key]!.tasks[i].id, method: w.method, url: w.url, value: w.value, at: nil)
            }
        }
    }

    /// `task:cancel()`: the transfer ends with "cancelled".
    public func cancelTransfer(_ identifier: String, _ task: Int) {
        guard let i = sessions.sessions[identifier]?.tasks.firstIndex(where: { $0.id == task }),
              !sessions.sessions[identifier]!.tasks[i].finished else { return }
        if let r = sessions.sessions[identifier]!.tasks[i].request { abandonRequest(r) }
        transferFinished(session: identifier, task: task, response: nil, status: nil, error: "cancelled")
    }

    /// A force quit cancels every transfer; the app learns it when it next creates the session.
    func cancelTransfersForForceQuit() {
        for key in sessions.sessions.keys.sorted() {
            for t in sessions.sessions[key]!.tasks where !t.finished {
                if let r = t.request { abandonRequest(r) }
                markTransfer(key, t.id, response: nil, status: nil, error: "cancelled")
            }
        }
    }

    // MARK: - Finishing

    private func markTransfer(_ identifier: String, _ task: Int, response: ServedResponse?, status: Int?, error: String?) {
        guard let i = sessions.sessions[identifier]?.tasks.firstIndex(where: { $0.id == task }) else { return }
        sessions.sessions[identifier]!.finishCount += 1
        sessions.sessions[identifier]!.tasks[i].finished = true
        sessions.sessions[identifier]!.tasks[i].finishOrder = sessions.sessions[identifier]!.finishCount
        sessions.sessions[identifier]!.tasks[i].response = response
        sessions.sessions[identifier]!.tasks[i].status = status
        sessions.sessions[identifier]!.tasks[i].error = error
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
        guard !(sessions.sessions[identifier]?.tasks.contains { !$0.finished } ?? true), state != .notRunning || !forceQuitBlocked else { return }
        guard !isRunning, sessions.sessions[identifier]?.tasks.contains(where: { $0.finished && !$0.delivered }) == true else { return }
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
    /// didFinishEvents. On the session's serial queue.
    func deliverSessionEvents(_ identifier: String, finishing: Bool) {
        guard let (delegate, q) = sessions.delegates[identifier], var s = sessions.sessions[identifier] else { return }
        let order = s.tasks.indices.filter { s.tasks[$0].finished && !s.tasks[$0].delivered }
            .sorted { s.tasks[$0].finishOrder < s.tasks[$1].finishOrder }
        for i in order {
            s.tasks[i].delivered = true
            let t = s.tasks[i]
            let taskValue = host.makeTransferObject(session: identifier, task: t.id)
            if t.kind == .download, t.error == nil, let response = t.response,
               let fn = host.field("didFinishDownloading", of: delegate) {
                queueAsync(q, fn, Invocation(.ref(taskValue), .ref(response.value)))
            }
            if let fn = host.field("didComplete", of: delegate) {
                queueAsync(q, fn, Invocation(.ref(taskValue), t.error.map { .string($0) } ?? .null))
            }
            sessions.held.append(taskValue)
            if let response = t.response { sessions.held.append(response.value) }
        }
        s.tasks.removeAll { $0.delivered }
        if finishing {
            s.handling = false
            if let fn = host.field("didFinishEvents", of: delegate), let session = host.sessionObject(identifier) {
                queueAsync(q, fn, Invocation(.ref(session)))
            }
        }
        sessions.sessions[identifier] = s
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension URLSessionBook {
    func copyState(from o: URLSessionBook) {
        sessions = o.sessions; delegates = o.delegates; finished = o.finished; held = o.held; wakes = o.wakes; deferred = o.deferred
    }
}

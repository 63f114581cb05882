// The network and fake servers (SPEC 4.5, 7): servers with latency, jitter and failure rate,
// routes (a handler, one response, or a list served in order), outages, unmatched requests,
// unknown hosts, timeouts, and the suspension rule (a request in flight when the app is suspended
// gets "connectionLost" on resume). Randomness comes from the seeded network stream. A subsystem of
// World.

/// A fake server: `server "host" { latency, jitter, failureRate }`.
public final class FakeServer {
    public let host: String
    public var latency: Millis
    public var jitter: Millis
    public var failureRate: Double
    var routes: [Route] = []
    var outages: [(from: Millis, to: Millis)] = []

    init(host: String, latency: Millis, jitter: Millis, failureRate: Double) {
        self.host = host; self.latency = latency; self.jitter = jitter; self.failureRate = failureRate
    }

    struct Route {
        let method: String
        let path: String
        let responder: Responder
        var served = 0
        var pattern: String { "\(method) \(path)" }
    }

    enum Responder { case handler(ScriptRef), responses([ScriptRef]) }
}

/// One request the app sent.
struct Request {
    enum Phase { case inFlight, lost, done }
    let id: Int
    let pid: Int
    let method: String
    let host: String
    let path: String
    let sent: Millis
    let callback: ScriptRef
    let value: ScriptRef
    var phase = Phase.inFlight
    var error: NetworkError?
    var status: Int?
    var arrival: EventID?
    var done: EventID?
    /// When the response reaches the app (before the body's transfer time), and the timeout.
    var doneAt: Millis = 0
    var timeout: Millis = .max
    /// A background URL session's transfer (SPEC 15): the system carries it; its end goes to the
    /// session, not to an app callback.
    var transfer: (session: String, task: Int)?
}

final class NetworkState: Subsystem {
    enum Kind: UInt8 { case arrives, done }
    var servers: [String: FakeServer] = [:]  // lookup only; `order` is for iteration
    var order: [String] = []
    @exclusivity(unchecked) var requests: [Int: Request] = [:]
    /// What a server answered, kept for the app's callback (none: not yet, or no route), by request.
    var responses: [Int: ServedResponse] = [:]
    var nextID = 0

    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World) {
        switch event.kind(Kind.self) {
        case .arrives: world.requestArrives(event.a)
        case .done: world.requestDone(event.a)
        }
    }

    /// A response reaches the app's callback on the main thread; the server answers at its time.
    func needsMainThread(_ event: Event) -> Bool { event.kind(Kind.self) == .done }
    func appSuspending(_ world: World) { world.loseInFlightRequests() }
    func appResumed(_ world: World) { world.deliverLostRequests() }
    func processEnding(_ pid: Int, in world: World) { world.dropRequests() }
    func pendingLines(in world: World) -> [String] {
        world.inFlightRequests.map { "request    #\($0.id) \($0.summary)" }
    }
}

/// A URL split for routing.
public struct ParsedURL: Sendable {
    public var scheme: String
    public var host: String
    public var path: String
    public var query: String?

    /// Parses `scheme://host[:port]/path?query`; nil when it is not such a URL. Works on the
    /// UTF-8 bytes (every delimiter is ASCII), so a request does not walk its URL by Character.
    public init?(_ url: String) {
        let b = Array(url.utf8)
        let n = b.count
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/"), question = UInt8(ascii: "?"), hash = UInt8(ascii: "#")
        var at = -1
        var k = 0
        while k + 2 < n {
            if b[k] == colon && b[k + 1] == slash && b[k + 2] == slash { at = k; break }
            k += 1
        }
        guard at > 0 else { return nil }
        func text(_ from: Int, _ to: Int) -> String { String(decoding: b[from..<to], as: UTF8.self) }
        let hostStart = at + 3
        var hostEnd = hostStart
        while hostEnd < n, b[hostEnd] != slash, b[hostEnd] != question, b[hostEnd] != hash { hostEnd += 1 }
        var hostStop = hostEnd
        if let c = b[hostStart..<hostEnd].lastIndex(of: colon) { hostStop = c }
        guard hostStop > hostStart, !b[hostStart..<hostStop].contains(UInt8(ascii: " ")) else { return nil }
        scheme = text(0, at)
        if b[hostStart..<hostStop].allSatisfy({ $0 < 0x80 }) {
            host = String(decoding: b[hostStart..<hostStop].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
        } else {
            host = text(hostStart, hostStop).lowercased()
        }
        var tailEnd = n
        if let h = b[hostEnd..<n].firstIndex(of: hash) { tailEnd = h }
        if let q = b[hostEnd..<tailEnd].firstIndex(of: question) {
            query = text(q + 1, tailEnd)
            tailEnd = q
        }
        path = tailEnd == hostEnd ? "/" : text(hostEnd, tailEnd)
    }
}

extension World {
    // MARK: - Servers

    /// Declares a server (top-level code). Returns nil if the host is declared already.
    public func declareServer(host: String, latency: Millis, jitter: Millis, failureRate: Double) -> FakeServer? {
        let key = host.lowercased()
        guard net.servers[key] == nil else { return nil }
        let s = FakeServer(host: key, latency: latency, jitter: jitter, failureRate: failureRate)
        net.servers[key] = s
        net.order.append(key)
        return s
    }

    public var serverNames: [String] { net.order }

    public func addRoute(_ server: FakeServer, method: String, path: String, handler: ScriptRef?, responses: [ScriptRef]) {
        let responder: FakeServer.Responder = handler.map { .handler($0) } ?? .responses(responses)
        server.routes.append(.init(method: method.uppercased(), path: path, responder: responder))
    }

    public func addOutage(_ server: FakeServer, from: Millis, to: Millis) {
        server.outages.append((from, to))
    }

    /// `system.serverOutage(seconds)`: every fake server is down from now for `duration` (as
    /// `srv:down(now, now + duration)` on each); explore injects it as `outage=SECONDS`.
    public func systemServerOutage(for duration: Millis) {
        log("system", .action, "every server goes down for \(Time.human(duration))")
        for key in net.order { net.servers[key]?.outages.append((now, now + duration)) }
    }

    /// Whether an outage would change anything now: some server is up.
    var outageInjectable: Bool {
        net.order.contains { key in !(net.servers[key]?.outages.contains { $0.from <= now && now <= $0.to } ?? true) }
    }

    // MARK: - Requests

    /// `http.request`: sends a request now; the callback runs later in virtual time.
    public func send(method: String, url: ParsedURL, timeout: Millis, callback: ScriptRef, value: ScriptRef, at location: SourceLocation?) -> Int {
        net.nextID += 1
        let id = net.nextID
        stats.requests += 1
        var r = Request(id: id, pid: pid, method: method.uppercased(), host: url.host, path: url.path,
                        sent: now, callback: callback, value: value)
        log("net", .net, Text.build { t in
                t.add("#"); t.add(id); t.add(" → "); t.add(r.method); t.add(" "); t.add(url.scheme); t.add("://")
                t.add(url.host); t.add(url.path)
                if let q = url.query { t.add("?"); t.add(q) }
            },
            detail: .requestSent(id: id, host: url.host, method: r.method, path: url.path))
        // Draw from the network stream for every request, so one outcome never shifts the next.
        let u = networkRandom.symmetric()
        let roll = networkRandom.unit()
        guard let server = net.servers[url.host] else {
            let hint = closest(url.host, among: net.order).map { "; did you mean \($0)?" } ?? ""
            violate(.unmatchedRequest, at: location,
                    "\(r.method) \(url.host)\(url.path): no server declares host \(url.host)\(hint) (the request fails with cannotFindHost)")
            r.error = .cannotFindHost
            r.done = schedule(Event(.network, NetworkState.Kind.done, a: id), at: now)
            net.requests[id] = r
            return id
        }
        r.timeout = timeout
        if !device.network || server.outages.contains(where: { $0.from <= now && now <= $0.to }) {
            r.error = .notConnected
            r.done = schedule(Event(.network, NetworkState.Kind.done, a: id), at: now)
            net.requests[id] = r
            return id
        }
        let rtt = max(0, server.latency + Millis((Double(server.jitter) * u).rounded()))
        // When the app hears back: the response, the lost connection or the timeout.
        let heard: Millis
        if roll < server.failureRate {
            r.error = .connectionLost
            heard = now + rtt
        } else if rtt > timeout {
            r.error = .timeout
            r.arrival = schedule(Event(.network, NetworkState.Kind.arrives, a: id), at: now + min(rtt / 2, timeout))
            heard = now + timeout
        } else {
            r.arrival = schedule(Event(.network, NetworkState.Kind.arrives, a: id), at: now + rtt / 2)
            heard = now + rtt
            r.doneAt = heard
        }
        r.done = schedule(Event(.network, NetworkState.Kind.done, a: id), at: heard)
        net.requests[id] = r
        milestone(.request, until: heard)
        return id
    }

    /// The request reaches its server: the route answers, in world time.
    func requestArrives(_ id: Int) {
        guard var r = net.requests[id], let server = net.servers[r.host] else { return }
        r.arrival = nil
        net.requests[id] = r
        let pattern = "\(r.method) \(r.path)"
        // The route of that method and path; else a route for any path of the method
        // ("GET *"), else one for any request ("*").
        guard let index = server.routes.firstIndex(where: { $0.pattern == pattern })
                ?? server.routes.firstIndex(where: { $0.method == r.method && $0.path == "*" })
                ?? server.routes.firstIndex(where: { $0.method == "*" }) else {
            let hint = closest(pattern, among: server.routes.map(\.pattern)).map { "; did you mean \($0)?" } ?? ""
            violate(.unmatchedRequest, at: host.location(of: r.callback),
                    "\(pattern) matched no route of \(server.host)\(hint) (answered 404)")
            log(server.host, .server, "\(pattern) → 404 (no route)", detail: .served(host: server.host, route: pattern, status: 404))
            r.status = 404
            net.requests[id] = r
            if r.phase == .done { finishRequest(id) }
            return
        }
        let route = server.routes[index]
        server.routes[index].served += 1
        let result: Result<ServedResponse, ScriptFailure>
        let saved = (context, serverRunning)
        (context, serverRunning) = (.server, server.host)
        switch route.responder {
        case .handler(let fn):
            result = host.respond(with: fn, isHandler: true, request: r.value, requestID: id)
        case .responses(let list):
            result = host.respond(with: list[min(route.served, list.count - 1)], isHandler: false, request: r.value, requestID: id)
        }
        (context, serverRunning) = saved
        switch result {
        case .failure(let f):
            failWorld(f)
        case .success(let response):
            r.status = response.status
            log(server.host, .server, Text.build { t in t.add(pattern); t.add(" → "); t.add(response.status) }, detail: .served(host: server.host, route: pattern, status: response.status))
            if response.transfer > 0, r.phase == .inFlight, r.error == nil, r.done != nil {
                // The body takes `transfer` on the wire; the timeout covers it too.
                queue.cancel(r.done)
                let end = r.doneAt + response.transfer
                if end - r.sent > r.timeout {
                    r.error = .timeout
                    r.done = schedule(Event(.network, NetworkState.Kind.done, a: id), at: r.sent + r.timeout)
                } else {
                    r.done = schedule(Event(.network, NetworkState.Kind.done, a: id), at: end)
                }
            }
            if r.error == nil && r.phase == .inFlight {
                net.responses[id] = response
            } else {
                host.release(response.value)  // timed out or lost: the app never sees it
            }
            net.requests[id] = r
            if r.phase == .done { finishRequest(id) }
        }
    }

    /// The response (or error) reaches the app.
    func requestDone(_ id: Int) {
        guard var r = net.requests[id], r.phase == .inFlight else { return }
        if let t = r.transfer {
            r.phase = .done
            net.requests[id] = r
            let response = net.responses.removeValue(forKey: id)
            if let e = r.error { stats.networkErrors[e.rawValue, default: 0] += 1 } else { stats.responses[r.status ?? 404, default: 0] += 1 }
            transferFinished(session: t.session, task: t.task, response: response, status: r.status, error: r.error?.rawValue)
            if net.requests[id]?.arrival == nil { finishRequest(id) }
            return
        }
        guard r.pid == pid, isRunning else {
            if r.pid != pid || state == .notRunning { finishRequest(id) }
            return
        }
        r.phase = .done
        net.requests[id] = r
        if let e = r.error {
            stats.networkErrors[e.rawValue, default: 0] += 1
            log("net", .net, "#\(id) ✗ \(e.rawValue)", detail: .requestDone(id: id, status: nil, error: e.rawValue))
        } else {
            let status = r.status ?? 404
            stats.responses[status, default: 0] += 1
            log("net", .net, Text.build { t in t.add("#"); t.add(id); t.add(" ← "); t.add(status); t.add(" after "); t.add(human: now - r.sent) },
                detail: .requestDone(id: id, status: status, error: nil))
        }
        let response = net.responses.removeValue(forKey: id)
        if let e = r.error {
            if let response { host.release(response.value) }
            callApp(r.callback, Invocation(.null, .string(e.rawValue)))
        } else if let response {
            callApp(r.callback, Invocation(.ref(response.value), .null))
            host.release(response.value)
        } else {
            callApp(r.callback, Invocation(.table([("status", .integer(404)), ("headers", .table([]))]), .null))
        }
        if net.requests[id]?.arrival == nil { finishRequest(id) }
        settle()
    }

    func finishRequest(_ id: Int) {
        guard let r = net.requests.removeValue(forKey: id) else { return }
        if let response = net.responses.removeValue(forKey: id) { host.release(response.value) }
        host.release(r.callback)
        host.release(r.value)
    }

    /// Every request in number order; the sort and the lookups its callers make are charged to the
    /// run (it runs at every suspension and resume, over background transfers too): 32 units a
    /// request (issue 40: at 2, a scenario whose requests piled up while the person switched apps
    /// every millisecond ran 40 s of CPU, mostly sorting them).
    var requestIDsInOrder: [Int] {
        host.charge(hostWork: 32 * net.requests.count)
        return net.requests.keys.sorted()
    }

    /// At suspension: every request of the process in flight loses its connection. The server
    /// still receives one already on its way (server code runs in world time).
    func loseInFlightRequests() {
        for id in requestIDsInOrder where net.requests[id]!.pid == pid && net.requests[id]!.phase == .inFlight && net.requests[id]!.transfer == nil {
            net.requests[id]!.phase = .lost
            queue.cancel(net.requests[id]!.done)
        }
    }

    /// On resume: lost requests get "connectionLost" (after the transition's delegate calls).
    func deliverLostRequests() {
        for id in requestIDsInOrder where net.requests[id]?.phase == .lost && net.requests[id]?.pid == pid {
            guard isRunning, let r = net.requests[id] else { return }
            net.requests[id]!.phase = .done
            stats.networkErrors[NetworkError.connectionLost.rawValue, default: 0] += 1
            log("net", .net, "#\(id) ✗ connectionLost (the app was suspended while it was in flight)",
                detail: .requestDone(id: id, status: nil, error: "connectionLost"))
            if let response = net.responses.removeValue(forKey: id) { host.release(response.value) }
            callApp(r.callback, Invocation(.null, .string(NetworkError.connectionLost.rawValue)))
            if net.requests[id]?.arrival == nil { finishRequest(id) }
        }
    }

    func dropRequests() {
        for id in requestIDsInOrder where net.requests[id]!.pid == pid && net.requests[id]!.transfer == nil {
            abandonRequest(id)
        }
    }

    /// Nobody will hear how request `id` ends: its end is cancelled; it is forgotten now, or when
    /// the server has answered (the server still receives one on its way).
    func abandonRequest(_ id: Int) {
        guard net.requests[id] != nil else { return }
        queue.cancel(net.requests[id]!.done)
        net.requests[id]!.phase = .done
        if net.requests[id]!.arrival == nil { finishRequest(id) }
    }

    public var inFlightRequests: [(id: Int, summary: String)] {
        requestIDsInOrder.compactMap { id in
            guard let r = net.requests[id] else { return nil }
            return (id, "\(r.method) \(r.host)\(r.path) sent \(Time.stamp(r.sent))\(r.phase == .lost ? " (connection lost)" : "")")
        }
    }
}

// Warm runs (WorldState.swift): every stored property, so a World can be put back as it was.
extension NetworkState {
    /// Servers are objects the scripting layer's server objects hold: a server this book already
    /// has takes the other's settings in place (so those objects see them); a copy never shares one.
    func copyState(from o: NetworkState) {
        var kept: [String: FakeServer] = [:]
        for (key, s) in o.servers {
            let mine = servers[key] ?? FakeServer(host: s.host, latency: s.latency, jitter: s.jitter, failureRate: s.failureRate)
            mine.latency = s.latency; mine.jitter = s.jitter; mine.failureRate = s.failureRate
            mine.routes = s.routes; mine.outages = s.outages
            kept[key] = mine
        }
        servers = kept
        order = o.order; requests = o.requests; responses = o.responses; nextID = o.nextID
    }
}

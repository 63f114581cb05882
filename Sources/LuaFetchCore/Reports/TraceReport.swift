// The `--trace FILE` report: Chrome Trace Event Format JSON (opens in Perfetto and
// chrome://tracing). The app's states are slices on one track, each background task and each
// fetch a slice on lanes chosen so slices never overlap on a track, the background budget a slice,
// requests a slice per server on network lanes, violations instant events. Built from the
// timeline's structured details; timestamps in microseconds of virtual time.

public enum TraceReport {
    /// The most timeline entries a trace keeps (the run records only entries with structure, and
    /// stops recording past this; `otherData.truncated` then says how many were left out), so a
    /// month of requests cannot grow the trace, or luafetch's memory, without bound.
    public static let maxEntries = 200_000

    struct Slice {
        var name: String
        var category: String
        var start: Millis
        var end: Millis
        var args: [(String, JSON)]
        /// The timeline entries that opened and closed it (-1: none; the page links them).
        var from = -1, to = -1
    }

    /// The run's intervals and instants, from the timeline's structured details: what the trace
    /// and the HTML page draw.
    struct Shape {
        var states: [Slice] = [], budgets: [Slice] = [], sceneSlices: [Slice] = []
        var tasks: [Slice] = [], fetches: [Slice] = []
        var grantSlices: [String: [Slice]] = [:]
        var requests: [String: [Slice]] = [:]
        var instants: [(Millis, String, [(String, JSON)])] = []
    }

    static func shape(_ world: World) -> Shape {
        let end = world.now
        var states: [Slice] = []
        var tasks: [Slice] = [], fetches: [Slice] = [], budgets: [Slice] = []
        var grantSlices: [String: [Slice]] = [:], openGrants: [String: Slice] = [:]
        var sceneSlices: [Slice] = [], openScene: (String, Millis, Int)?
        var requests: [String: [Slice]] = [:]
        var instants: [(Millis, String, [(String, JSON)])] = []
        var openState: (AppState, Millis, Int)?
        var openTasks: [Int: Slice] = [:], openFetches: [Int: Slice] = [:], openRequests: [Int: (String, Slice)] = [:]
        var openBudget: Slice?
        func closeProcess(at t: Millis, _ index: Int) {
            for id in openTasks.keys.sorted() {
                var s = openTasks[id]!; s.end = t; s.to = index; s.args.append(("ended", .string("terminated"))); tasks.append(s)
            }
            for id in openFetches.keys.sorted() { var s = openFetches[id]!; s.end = t; s.to = index; fetches.append(s) }
            for key in openGrants.keys.sorted() { var s = openGrants[key]!; s.end = t; s.to = index; grantSlices[s.category, default: []].append(s) }
            openTasks.removeAll(); openFetches.removeAll(); openGrants.removeAll()
        }
        for (index, e) in world.timeline.enumerated() {
            if let i = e.violation {
                let v = world.violations[i]
                instants.append((e.time, v.code.rawValue, [("severity", .string(v.severity.rawValue)), ("message", .string(v.message)),
                                                          ("location", .opt(v.location?.description)), ("exception", .opt(v.exceptionCode))]))
            }
            switch e.detail {
            case .state(let s)?:
                if let (old, since, opened) = openState, old != .notRunning {
                    states.append(Slice(name: old.rawValue, category: "state", start: since, end: e.time, args: [], from: opened, to: index))
                }
                openState = (s, e.time, index)
                if s != .background, var b = openBudget { b.end = min(b.end, e.time); b.to = index; budgets.append(b); openBudget = nil }
                if s == .notRunning {
                    closeProcess(at: e.time, index)
                    if let (old, since, opened) = openScene, old != "unattached" {
                        sceneSlices.append(Slice(name: old, category: "scene", start: since, end: e.time, args: [], from: opened, to: index))
                    }
                    openScene = nil
                }
            case .budget(let deadline, let budget)?:
                openBudget = Slice(name: "background time (\(Time.human(budget)))", category: "budget", start: e.time, end: deadline,
                                   args: [("budget_ms", .int(budget)), ("deadline_ms", .int(deadline))], from: index)
            case .taskBegan(let id, let name)?:
                openTasks[id] = Slice(name: "task #\(id)\(name.map { " \($0)" } ?? "")", category: "task", start: e.time, end: e.time,
                                      args: [("id", .int(id))], from: index)
            case .taskEnded(let id)?:
                if var s = openTasks.removeValue(forKey: id) { s.end = e.time; s.to = index; tasks.append(s) }
            case .fetchStarted(let id, let scheduled)?:
                openFetches[id] = Slice(name: "fetch #\(id)", category: "fetch", start: e.time, end: e.time,
                                        args: [("scheduled", .bool(scheduled)), ("budget_ms", .int(world.budgets.fetch ?? 0))], from: index)
            case .fetchEnded(let id, let result)?:
                if var s = openFetches.removeValue(forKey: id) {
                    s.end = e.time; s.to = index; s.args.append(("result", .string(result))); fetches.append(s)
                }
            case .scene(let s)?:
                if let (old, since, opened) = openScene, old != "unattached" {
                    sceneSlices.append(Slice(name: old, category: "scene", start: since, end: e.time, args: [], from: opened, to: index))
                }
                openScene = (s, e.time, index)
            case .grantBegan(let kind, let id, let name)?:
                openGrants["\(kind) \(id)"] = Slice(name: "\(kind) #\(id) \(name)", category: kind, start: e.time, end: e.time, args: [("id", .int(id))],
                                                    from: index)
            case .grantEnded(let kind, let id, let outcome)?:
                if var s = openGrants.removeValue(forKey: "\(kind) \(id)") {
                    s.end = e.time
                    s.to = index
                    s.args.append(("outcome", .string(outcome)))
                    grantSlices[kind, default: []].append(s)
                }
            case .requestSent(let id, let host, let method, let path)?:
                openRequests[id] = (host, Slice(name: "\(method) \(path)", category: "request", start: e.time, end: e.time, args: [("id", .int(id))],
                                                from: index))
            case .requestDone(let id, let status, let error)?:
                if let (host, s0) = openRequests.removeValue(forKey: id) {
                    var s = s0
                    s.end = e.time
                    s.to = index
                    s.args.append(("result", status.map { .int($0) } ?? .opt(error)))
                    requests[host, default: []].append(s)
                }
            default: break
            }
        }
        if let (s, since, opened) = openState, s != .notRunning {
            states.append(Slice(name: s.rawValue, category: "state", start: since, end: end, args: [], from: opened))
        }
        if var b = openBudget { b.end = min(b.end, end); budgets.append(b) }
        closeProcess(at: end, -1)
        for id in openRequests.keys.sorted() {
            var (host, s) = openRequests[id]!
            s.end = end
            requests[host, default: []].append(s)
        }

        if let (s, since, opened) = openScene, s != "unattached" {
            sceneSlices.append(Slice(name: s, category: "scene", start: since, end: end, args: [], from: opened))
        }
        return Shape(states: states, budgets: budgets, sceneSlices: sceneSlices, tasks: tasks, fetches: fetches,
                     grantSlices: grantSlices, requests: requests, instants: instants)
    }

    /// The whole trace as one JSON document.
    public static func build(_ world: World) -> String {
        let shape = shape(world)
        let (states, budgets, sceneSlices, tasks, fetches) = (shape.states, shape.budgets, shape.sceneSlices, shape.tasks, shape.fetches)
        let (grantSlices, requests, instants) = (shape.grantSlices, shape.requests, shape.instants)

        var events: [JSON] = []
        func meta(_ pid: Int, _ tid: Int?, _ name: String) {
            var f: [(String, JSON)] = [("name", .string(tid == nil ? "process_name" : "thread_name")), ("ph", .string("M")), ("pid", .int(pid))]
            if let tid { f.append(("tid", .int(tid))) }
            f.append(("args", .object([("name", .string(name))])))
            events.append(.object(f))
        }
        func emit(_ slices: [Slice], pid: Int, tid: Int) {
            for s in slices.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
                events.append(.object([("name", .string(s.name)), ("cat", .string(s.category)), ("ph", .string("X")),
                                       ("ts", .int(s.start * 1000)), ("dur", .int(max(0, s.end - s.start) * 1000)),
                                       ("pid", .int(pid)), ("tid", .int(tid)), ("args", .object(s.args))]))
            }
        }
        meta(1, nil, "app: \(world.config.name)")
        meta(1, 1, "state")
        emit(states, pid: 1, tid: 1)
        meta(1, 2, "background time")
        emit(budgets, pid: 1, tid: 2)
        if !sceneSlices.isEmpty { meta(1, 3, "scene"); emit(sceneSlices, pid: 1, tid: 3) }
        var tid = 10
        for (i, lane) in lanes(tasks).enumerated() { meta(1, tid, trackName("background tasks", i)); emit(lane, pid: 1, tid: tid); tid += 1 }
        tid = 100
        for (i, lane) in lanes(fetches).enumerated() { meta(1, tid, trackName("fetches", i)); emit(lane, pid: 1, tid: tid); tid += 1 }
        tid = 200
        for kind in grantSlices.keys.sorted() {
            for (i, lane) in lanes(grantSlices[kind]!).enumerated() {
                meta(1, tid, trackName(laneName(grantKind: kind), i)); emit(lane, pid: 1, tid: tid); tid += 1
            }
        }
        meta(2, nil, "network")
        tid = 1
        for host in requests.keys.sorted() {
            for (i, lane) in lanes(requests[host]!).enumerated() {
                meta(2, tid, trackName(host, i))
                emit(lane, pid: 2, tid: tid)
                tid += 1
            }
        }
        for (t, name, args) in instants {
            events.append(.object([("name", .string(name)), ("cat", .string("violation")), ("ph", .string("i")), ("s", .string("g")),
                                   ("ts", .int(t * 1000)), ("pid", .int(1)), ("tid", .int(1)), ("args", .object(args))]))
        }
        return JSON.object([("traceEvents", .array(events)), ("displayTimeUnit", .string("ms")),
                            ("otherData", .object([("scenario", .string(world.config.name)), ("seed", .int(world.seed)),
                                                   ("os", .string(world.os.rawValue))]
                                                  + (world.timelineDropped > 0 ? [("truncated", .int(world.timelineDropped))] : [])))]).text
    }

    /// A track's name: the lane's name as the page shows it, numbered from its second track on
    /// (slices that overlap need more than one), as `api.example.test 2`.
    static func trackName(_ lane: String, _ index: Int) -> String { index == 0 ? lane : "\(lane) \(index + 1)" }

    /// The lane of a grant kind's slices, as the page and the trace name it.
    static func laneName(grantKind kind: String) -> String {
        switch kind {
        case "push": return "pushes"
        case "bgtask": return "BGTasks"
        case "session": return "URL-session events"
        default: return kind + "s"
        }
    }

    /// Splits slices into lanes where none overlap (first fit, in start order).
    static func lanes(_ slices: [Slice]) -> [[Slice]] {
        var lanes: [[Slice]] = []
        var ends: [Millis] = []
        for s in slices.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
            if let i = ends.firstIndex(where: { $0 <= s.start }) {
                lanes[i].append(s); ends[i] = s.end
            } else {
                lanes.append([s]); ends.append(s.end)
            }
        }
        return lanes
    }
}

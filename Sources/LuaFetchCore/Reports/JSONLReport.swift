// The `--format jsonl` report: one JSON object per line: a header, one `event` per timeline entry
// (with structured fields for states, tasks, fetches, requests and violations), and a final
// `summary`. Times are integer milliseconds of virtual time. The schema, versioned as
// "luafetch.jsonl/2", is documented in docs/JSONL.md and docs/jsonl.schema.json.

public enum JSONLReport {
    public static let schema = "luafetch.jsonl/2"

    public static func header(_ world: World, version: String) -> String {
        JSON.object([
            ("type", .string("header")), ("schema", .string(schema)), ("version", .string(version)),
            ("scenario", .string(world.config.name)), ("file", .string(world.file)),
            ("os", .string(world.os.rawValue)), ("seed", .int(world.seed)),
            ("fetchPolicy", .string(world.config.fetchPolicy.rawValue)),
        ]).text
    }

    /// Writes the event line of `e` with `w`.
    public static func write(_ e: TimelineEntry, in world: World, to w: JSONWriter) {
        w.open()
        w.field("type", constant: "event"); w.field("t", e.time); w.field("actor", e.actor); w.field("kind", constant: e.kind.name)
        w.field("message", e.message)
        if let i = e.violation {
            let v = world.violations[i]
            w.object("violation") { o in
                o.field("code", v.code.rawValue); o.field("severity", v.severity.rawValue); o.field("t", v.time)
                o.field("location", v.location?.plain)
                if let sw = v.location?.swift { o.field("swift", sw.description) }
                o.field("exception", v.exceptionCode)
                o.field("message", v.message); o.field("traceback", v.traceback)
                if let needs = v.needs { o.field("needs", needs) }
            }
        }
        switch e.detail {
        case .state(let s)?: w.field("state", s.rawValue)
        case .taskBegan(let id, let name)?: w.field("task", id); w.field("name", name); w.field("phase", constant: "begin")
        case .taskEnded(let id)?: w.field("task", id); w.field("phase", constant: "end")
        case .budget(let deadline, let budget)?: w.field("deadline", deadline); w.field("budget", budget)
        case .fetchStarted(let id, let scheduled)?: w.field("fetch", id); w.field("phase", constant: "begin"); w.field("scheduled", scheduled)
        case .fetchEnded(let id, let result)?: w.field("fetch", id); w.field("phase", constant: "end"); w.field("result", result)
        case .requestSent(let id, let host, let method, let path)?:
            w.field("request", id); w.field("phase", constant: "begin"); w.field("host", host); w.field("method", method); w.field("path", path)
        case .requestDone(let id, let status, let error)?:
            w.field("request", id); w.field("phase", constant: "end"); w.field("status", status); w.field("error", error)
        case .served(let host, let route, let status)?:
            w.field("host", host); w.field("route", route); w.field("status", status)
        case .grantBegan(let kind, let id, let name)?:
            w.field("grant", kind); w.field("id", id); w.field("phase", constant: "begin"); w.field("name", name)
        case .grantEnded(let kind, let id, let outcome)?:
            w.field("grant", kind); w.field("id", id); w.field("phase", constant: "end"); w.field("outcome", outcome)
        case .scene(let s)?:
            w.field("scene", s)
        case .pushDropped(let id, let reason)?:
            w.field("grant", constant: "push"); w.field("id", id); w.field("phase", constant: "dropped"); w.field("reason", reason)
        case nil: break
        }
        w.close()
    }

    static func violation(_ v: Violation) -> JSON {
        var fields: [(String, JSON)] = [("code", .string(v.code.rawValue)), ("severity", .string(v.severity.rawValue)), ("t", .int(v.time)),
                                         ("location", .opt(v.location?.plain))]
        if let sw = v.location?.swift { fields.append(("swift", .string(sw.description))) }
        fields += [("exception", .opt(v.exceptionCode)), ("message", .string(v.message)), ("traceback", .opt(v.traceback))]
        if let needs = v.needs { fields.append(("needs", .string(needs))) }
        return .object(fields)
    }

    public static func summary(_ world: World, reproduce: String? = nil) -> String {
        let s = world.stats
        var bg = s.backgroundTime
        if let since = s.backgroundSince { bg += world.now - since }
        let expected = world.expectedCodes
        return JSON.object([
            ("type", .string("summary")), ("t", .int(world.now)), ("events", .int(s.events)), ("exit", .int(Int(world.exitCode))),
            ("reproduce", .opt(reproduce)),
            ("launches", .object([("user", .int(s.userLaunches)), ("background", .int(s.backgroundLaunches))])),
            ("wakes", .int(s.wakes)), ("suspensions", .int(s.suspensions)), ("terminations", .int(s.terminations)),
            ("backgroundTime", .int(bg)), ("tasksBegun", .int(s.tasksBegun)),
            ("fetches", .object([("total", .int(s.fetches))] + FetchResult.allCases.map { ($0.rawValue, JSON.int(s.fetchResults[$0] ?? 0)) }
                                + [("missed", .int(s.fetchesMissed)), ("skipped", .int(s.fetchesSkipped))])),
            ("bgtasks", .object([("launched", .int(s.bgTasksLaunched)),
                                 ("byIdentifier", .object(world.bgTasksLaunched.map { ($0.identifier, JSON.int($0.count)) }))])),
            ("pushes", .object([("total", .int(s.pushes)), ("delivered", .int(s.pushesDelivered)), ("dropped", .int(s.pushesDropped))])),
            ("transfers", .int(s.transfers)),
            ("requests", .object([("total", .int(s.requests)),
                                  ("byStatus", .object(s.responses.keys.sorted().map { (String($0), JSON.int(s.responses[$0]!)) })),
                                  ("errors", .object(s.networkErrors.keys.sorted().map { ($0, JSON.int(s.networkErrors[$0]!)) }))])),
            ("expectations", .array(world.expectationResults.map { r in
                var fields: [(String, JSON)] = [("description", .string(r.description)), ("passed", .bool(r.passed)), ("t", .int(r.time)),
                                                 ("location", .opt(r.location?.plain))]
                if let sw = r.location?.swift { fields.append(("swift", .string(sw.description))) }
                fields.append(("detail", .opt(r.detail)))
                return .object(fields)
            })),
            ("cutAt", world.cutAt.map { .int($0) } ?? .null), ("unchecked", .int(world.uncheckedExpectations)),
            ("violations", .array(world.violations.map { v in
                guard case .object(var f) = violation(v) else { return .null }
                f.append(("expected", .bool(expected.contains(v.code))))
                return .object(f)
            })),
        ]).text
    }
}

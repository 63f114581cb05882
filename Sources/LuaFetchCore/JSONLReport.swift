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

    public static func event(_ e: TimelineEntry, in world: World) -> String {
        var fields: [(String, JSON)] = [("type", .string("event")), ("t", .int(e.time)), ("actor", .string(e.actor)),
                                        ("kind", .string(e.kind.rawValue)), ("message", .string(e.message))]
        if let i = e.violation { fields.append(("violation", violation(world.violations[i]))) }
        switch e.detail {
        case .state(let s)?: fields.append(("state", .string(s.rawValue)))
        case .taskBegan(let id, let name)?: fields += [("task", .int(id)), ("name", .opt(name)), ("phase", .string("begin"))]
        case .taskEnded(let id)?: fields += [("task", .int(id)), ("phase", .string("end"))]
        case .budget(let deadline, let budget)?: fields += [("deadline", .int(deadline)), ("budget", .int(budget))]
        case .fetchStarted(let id, let scheduled)?: fields += [("fetch", .int(id)), ("phase", .string("begin")), ("scheduled", .bool(scheduled))]
        case .fetchEnded(let id, let result)?: fields += [("fetch", .int(id)), ("phase", .string("end")), ("result", .string(result))]
        case .requestSent(let id, let host, let method, let path)?:
            fields += [("request", .int(id)), ("phase", .string("begin")), ("host", .string(host)), ("method", .string(method)), ("path", .string(path))]
        case .requestDone(let id, let status, let error)?:
            fields += [("request", .int(id)), ("phase", .string("end")), ("status", status.map { .int($0) } ?? .null), ("error", .opt(error))]
        case .served(let host, let route, let status)?:
            fields += [("host", .string(host)), ("route", .string(route)), ("status", .int(status))]
        case .grantBegan(let kind, let id, let name)?:
            fields += [("grant", .string(kind)), ("id", .int(id)), ("phase", .string("begin")), ("name", .string(name))]
        case .grantEnded(let kind, let id, let outcome)?:
            fields += [("grant", .string(kind)), ("id", .int(id)), ("phase", .string("end")), ("outcome", .string(outcome))]
        case .scene(let s)?:
            fields.append(("scene", .string(s)))
        case .pushDropped(let id, let reason)?:
            fields += [("grant", .string("push")), ("id", .int(id)), ("phase", .string("dropped")), ("reason", .string(reason))]
        case nil: break
        }
        return JSON.object(fields).text
    }

    static func violation(_ v: Violation) -> JSON {
        .object([("code", .string(v.code.rawValue)), ("severity", .string(v.severity.rawValue)), ("t", .int(v.time)),
                 ("location", .opt(v.location?.description)), ("exception", .opt(v.exceptionCode)),
                 ("message", .string(v.message)), ("traceback", .opt(v.traceback))])
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
                .object([("description", .string(r.description)), ("passed", .bool(r.passed)), ("t", .int(r.time)),
                         ("location", .opt(r.location?.description)), ("detail", .opt(r.detail))])
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

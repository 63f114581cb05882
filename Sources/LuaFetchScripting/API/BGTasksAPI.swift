// The BackgroundTasks framework in Lua (SPEC 13): `BGTaskScheduler.register(identifier, handler
// [, queue])` (the queue its handlers run on: "main", "global", a queue object; nil: the
// scheduler's), `submit/cancel/cancelAll/pendingTaskRequests`, the request constructors `BGAppRefreshTaskRequest(identifier)`
// and `BGProcessingTaskRequest(identifier)` (plain tables the app fills in, read back with an
// option spec at submit), and the task object a launch handler gets (`task.identifier`,
// `task.expirationHandler = fn`, `task:setTaskCompleted(success)`). App code only; under profiles
// without the framework every call is the app's crash. Uses the World's scheduler.
import LuaFetchCore

extension ScenarioRuntime {
    static let requestTypes = ["BGAppRefreshTaskRequest", "BGProcessingTaskRequest", "BGContinuedProcessingTaskRequest"]

    /// What `submit` reads from a request table.
    static let bgRequestSpec = OptionSpec(what: "BGTaskScheduler.submit", unknownIn: "the request", fields: [
        Field("type", .choice(requestTypes, noun: "request type", listed: true), must: "must be a string"),
        Field("identifier", .string, must: "must be a string"),
        Field("earliestBeginDate", .number, must: "must be a time in seconds, like now() + hours(1)",
              valid: { Time.millis(fromSeconds: $0) != nil }),
        Field("requiresNetworkConnectivity", .boolean, must: "must be true or false"),
        Field("requiresExternalPower", .boolean, must: "must be true or false"),
        Field("title", .string, must: "must be a string"),
        Field("subtitle", .string, must: "must be a string"),
        Field("strategy", .choice(["queue", "fail"], noun: "strategy", listed: true), must: "must be \"queue\" or \"fail\""),
    ])

    /// The options of `BGContinuedProcessingTaskRequest(identifier, { ... })`.
    static let continuedSpec = OptionSpec(what: "BGContinuedProcessingTaskRequest", unknownIn: "the options", fields: [
        Field("title", .string, must: "must be a string"),
        Field("subtitle", .string, must: "must be a string"),
        Field("strategy", .choice(["queue", "fail"], noun: "strategy", listed: true), must: "must be \"queue\" or \"fail\""),
    ])

    /// BGTaskScheduler's functions are app code, on a profile that has them. (A method, not a
    /// function nested in installBGTasksAPI: the host functions would hold the runtime through it,
    /// and a runtime that is never freed keeps its Lua state: `luafetch test` over many files.)
    func bgTasksAvailable(_ c: LuaCall) throws(LuaFailure) {
        try requireApp(c, "")
        if let crash = world.backgroundTasksMissing(c.name) { throw .error(crash) }
    }

    func installBGTasksAPI() {
        for (name, kind) in [("BGAppRefreshTaskRequest", BGTaskKind.appRefresh), ("BGProcessingTaskRequest", .processing)] {
            setGlobal(name) { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                if let crash = world.backgroundTasksMissing(name) { throw .error(crash) }
                let identifier = try c.string(1)
                var fields: [(String, LuaValue)] = [("type", .string(name)), ("identifier", .string(identifier))]
                if kind == .processing {
                    fields += [("requiresNetworkConnectivity", .boolean(false)), ("requiresExternalPower", .boolean(false))]
                }
                return c.returns(.table(fields))
            }
        }
        setGlobal("BGContinuedProcessingTaskRequest") { [unowned self] c throws(LuaFailure) in
            try requireApp(c, "")
            if let crash = world.backgroundTasksMissing("BGContinuedProcessingTaskRequest") { throw .error(crash) }
            guard world.os == .ios26 else {
                throw .error("BGContinuedProcessingTaskRequest: continued processing tasks are new in iOS 26 (run with os = \"ios26\"): the app crashes (unrecognized selector)")
            }
            let identifier = try c.string(1)
            var fields: [(String, LuaValue)] = [("type", .string("BGContinuedProcessingTaskRequest")), ("identifier", .string(identifier)),
                                                ("title", .string("")), ("subtitle", .string("")), ("strategy", .string("queue"))]
            if !c.isNil(2) {
                try c.table(2, hint: " (options, like { title = \"Exporting\", subtitle = \"3 photos\", strategy = \"queue\" })")
                let o = try c.read(2, Self.continuedSpec, refs: lua.keepTop(_:located:))
                for key in ["title", "subtitle", "strategy"] {
                    if let v = o.string(key), let i = fields.firstIndex(where: { $0.0 == key }) { fields[i].1 = .string(v) }
                }
            }
            return c.returns(.table(fields))
        }
        installTable("BGTaskScheduler", methods: [
            ("register", { [unowned self] c throws(LuaFailure) in
                try bgTasksAvailable(c)
                let identifier = try c.string(1)
                try c.function(2, hint: " (the launch handler, function(task) ... end)")
                // The `using:` queue: nil is the scheduler's serial background queue.
                let queue = c.isNil(3) ? nil : try dispatchTarget(c, 3)
                let handler = c.ref(2)
                if let (code, message) = world.registerBGTask(identifier, handler, queue: queue) {
                    release(handler)
                    world.crashApp(code, at: c.location, message)
                    throw .stop
                }
                return c.returns(.boolean(true)) }),
            ("submit", { [unowned self] c throws(LuaFailure) in
                try bgTasksAvailable(c)
                try c.table(1, hint: " (a request from BGAppRefreshTaskRequest(identifier) or BGProcessingTaskRequest(identifier))")
                let o = try c.read(1, Self.bgRequestSpec, refs: lua.keepTop(_:located:))
                guard let type = o.string("type"), let identifier = o.string("identifier") else {
                    throw .error("BGTaskScheduler.submit: the request needs its type and identifier: make it with BGAppRefreshTaskRequest(identifier)")
                }
                let kind: BGTaskKind = type == "BGAppRefreshTaskRequest" ? .appRefresh : type == "BGProcessingTaskRequest" ? .processing : .continued
                var request = BGTaskRequest(identifier: identifier, kind: kind)
                request.title = o.string("title") ?? ""
                request.subtitle = o.string("subtitle") ?? ""
                request.queues = o.string("strategy") != "fail"
                request.submittedAt = c.location
                request.earliestBeginDate = o.number("earliestBeginDate").flatMap(Time.millis(fromSeconds:))
                if request.kind == .processing {
                    request.requiresNetworkConnectivity = o.boolean("requiresNetworkConnectivity") ?? false
                    request.requiresExternalPower = o.boolean("requiresExternalPower") ?? false
                }
                switch world.submitBGTask(request) {
                case .accepted: return c.returns(.boolean(true))
                case .refused(let error): return c.returns(.null, .string(error.rawValue))
                case .crashed: throw .stop
                } }),
            ("cancel", { [unowned self] c throws(LuaFailure) in
                try bgTasksAvailable(c)
                world.cancelBGTask(try c.string(1))
                return 0 }),
            ("cancelAll", { [unowned self] c throws(LuaFailure) in
                try bgTasksAvailable(c)
                world.cancelAllBGTasks()
                return 0 }),
            ("pendingTaskRequests", { [unowned self] c throws(LuaFailure) in
                try bgTasksAvailable(c)
                return c.returns(.list(world.pendingBGRequests.map(Self.requestValue)))
            }),
        ])
        let methods = lua.strictTable("task", methods: [
            ("setTaskCompleted", { [unowned self] c throws(LuaFailure) in
                guard let serial = c.integerField(1, "__task") else {
                    throw c.wrongSelf("a BGTask", dotted: "task:setTaskCompleted is a method: call it with a colon, task:setTaskCompleted(true)")
                }
                try requireApp(c, "")
                let success = try c.boolean(2)
                if !world.completeBGTask(GrantKey(kind: .bgTask, serial: Int(serial)), success: success, at: c.location) { throw .stop }
                return 0 }),
            ("updateProgress", { [unowned self] c throws(LuaFailure) in
                guard let serial = c.integerField(1, "__task") else {
                    throw c.wrongSelf("a BGTask", dotted: "task:updateProgress is a method: call it with a colon, task:updateProgress(completed, total)")
                }
                try requireApp(c, "")
                let completed = try c.integer(2), total = try c.integer(3)
                guard completed >= 0, total >= completed else {
                    throw c.badArgument(2, "0 ≤ completed ≤ total expected, got \(completed) of \(total)")
                }
                world.continuedProgress(GrantKey(kind: .bgTask, serial: Int(serial)), completed: completed, total: total)
                return 0 }),
        ], fields: ["expirationHandler": { .null }],  // readable: nil when none is set, or once it ran
           methodSeparator: ":", completes: false)
        taskMeta = lua.objectMetatable(methods: methods) { c in "BGTask \(c.stringField(1, "identifier") ?? "")" }
        lua.release(methods)
    }

    /// A request as `pendingTaskRequests()` returns it.
    static func requestValue(_ r: BGTaskRequest) -> LuaValue {
        var fields: [(String, LuaValue)] = [("type", .string(r.kind.requestName)),
                                            ("identifier", .string(r.identifier))]
        if let t = r.earliestBeginDate { fields.append(("earliestBeginDate", .seconds(Time.seconds(t)))) }
        if r.kind == .processing {
            fields += [("requiresNetworkConnectivity", .boolean(r.requiresNetworkConnectivity)),
                       ("requiresExternalPower", .boolean(r.requiresExternalPower))]
        }
        return .table(fields)
    }

    // MARK: - ScriptHost: tasks

    public func makeTaskObject(identifier: String, key: GrantKey) -> ScriptRef {
        let object = lua.object([("identifier", .string(identifier)), ("__task", .integer(Int64(key.serial)))], metatable: taskMeta)
        watchTask(object, key: key)  // a missed completion names where code holding the task stopped
        return object
    }

    public func takeExpirationHandler(of task: ScriptRef) -> ScriptRef? {
        lua.takeFunction("expirationHandler", of: task)
    }
}

// Background URL sessions in Lua (SPEC 15): `urlSession.background(identifier, delegate)` returns
// the process's session object (`session.identifier`, `session:download(urlOrRequest)`,
// `session:upload(request)`), whose tasks have `task.id` and `task:cancel()`; the delegate table's
// `didFinishDownloading(task, response)`, `didComplete(task, err)` and `didFinishEvents(session)`
// are called on the session's queue. App code only; not under ios6. Uses the World's sessions.
import LuaFetchCore

extension ScenarioRuntime {
    /// What a session's request may say (as http.request, without callback or timeout).
    static let transferSpec = OptionSpec(what: "session", unknownIn: "the request", fields: [
        Field("method", .string, must: "must be a string like \"GET\" or \"POST\""),
        Field("url", .string, must: "is required and must be a string like \"https://api.example.test/items\""),
        Field("headers", .table, must: "must be a table of strings"),
        Field("body", .any, must: ""),
    ])

    func installURLSessionAPI() {
        installTable("urlSession", methods: [
            ("background", { [unowned self] c throws(LuaFailure) in
                try requireApp(c, "")
                guard world.os.hasFetchAPI else {
                    throw .error("urlSession.background: the \(world.os.rawValue) profile has no background URL sessions (iOS 7 and later): the app crashes (unrecognized selector)")
                }
                let identifier = try c.string(1)
                try c.table(2, hint: " (the delegate: { didFinishDownloading = function(task, response) ... end, didComplete = function(task, err) ... end, didFinishEvents = function(session) ... end })")
                _ = world.openSession(identifier, delegate: c.ref(2))
                return c.returns(.ref(sessionObjectFor(identifier)))
            }),
        ])
        func transfer(_ kind: TransferKind) -> HostBody {
            { [unowned self] c throws(LuaFailure) in
                guard let identifier = c.stringField(1, "identifier"), c.integerField(1, "__session") != nil else {
                    throw c.wrongSelf("a background session", dotted: "session:\(kind.rawValue) is a method: call it with a colon, session:\(kind.rawValue)(...)")
                }
                try requireApp(c, "")
                guard world.holdsSession(identifier) else {
                    throw .error("session:\(kind.rawValue): this session object belongs to a process that ended; get the session again with urlSession.background(\"\(identifier)\", delegate)")
                }
                var method = kind == .download ? "GET" : "POST"
                var urlText: String
                var headers: ScriptRef?, body: ScriptRef?
                var refs: [ScriptRef] = []
                defer { for r in refs { release(r) } }
                if kind == .download && c.isString(2) {
                    urlText = c.text(2)
                } else {
                    try c.table(2, hint: kind == .download ? " (a URL or a request like { url = \"https://...\" })" : " (a request like { url = \"https://...\", body = ... })")
                    let o = try c.read(2, Self.transferSpec) { L, located in let r = lua.keepTop(L, located: located); refs.append(r); return r }
                    guard let u = o.string("url") else { throw .error("session:\(kind.rawValue): url is required and must be a string like \"https://api.example.test/items\"") }
                    urlText = u
                    method = o.string("method")?.uppercased() ?? method
                    headers = o.ref("headers")
                    body = o.ref("body")
                }
                let (url, value) = try requestValue(c, method: method, url: urlText, headers: headers, body: body)
                let id = world.startTransfer(identifier, kind: kind, method: method, url: url, value: value, at: c.location)
                let object = makeTransferObject(session: identifier, task: id)
                defer { release(object) }
                return c.returns(.ref(object))
            }
        }
        let sessionMethods = lua.strictTable("session", methods: [("download", transfer(.download)), ("upload", transfer(.upload))],
                                             methodSeparator: ":", completes: false)
        sessionMeta = lua.objectMetatable(methods: sessionMethods) { c in "background session \(c.stringField(1, "identifier") ?? "")" }
        lua.release(sessionMethods)
        let taskMethods = lua.strictTable("transfer", methods: [
            ("cancel", { [unowned self] c throws(LuaFailure) in
                guard let id = c.integerField(1, "id"), let identifier = c.stringField(1, "session") else {
                    throw c.wrongSelf("a transfer", dotted: "task:cancel is a method: call it with a colon, task:cancel()")
                }
                try requireApp(c, "")
                world.cancelTransfer(identifier, Int(id))
                return 0 }),
        ], methodSeparator: ":", completes: false)
        transferMeta = lua.objectMetatable(methods: taskMethods) { c in "transfer #\(c.integerField(1, "id") ?? 0)" }
        lua.release(taskMethods)
    }

    /// The session object of this process for `identifier` (made once per process).
    func sessionObjectFor(_ identifier: String) -> ScriptRef {
        if let (pid, ref) = sessionObjects[identifier], pid == world.pid { return ref }
        if let (_, old) = sessionObjects[identifier] { release(old) }
        let ref = lua.object([("identifier", .string(identifier)), ("__session", .integer(Int64(world.pid)))], metatable: sessionMeta)
        sessionObjects[identifier] = (world.pid, ref)
        return ref
    }

    // MARK: - ScriptHost: sessions

    public func field(_ name: String, of table: ScriptRef) -> ScriptRef? { lua.functionField(name, of: table) }

    public func makeTransferObject(session: String, task: Int) -> ScriptRef {
        lua.object([("id", .integer(Int64(task))), ("session", .string(session))], metatable: transferMeta)
    }

    public func sessionObject(_ identifier: String) -> ScriptRef? {
        world.holdsSession(identifier) ? sessionObjectFor(identifier) : nil
    }
}

// TypeDefinitions: what `luafetch types` writes for editors and linters. A LuaLS meta file
// (`---@meta`) with every global and API table the runtime declares (their names come from the
// runtime itself: LuaState.declaredNames, so a name added to the API without a definition fails
// TypeDefinitionTests), the delegate callbacks, the option tables (generated from the OptionSpecs
// the runtime reads them with), the objects handed to scenario code and the request/response
// tables; plus a `.luarc.json` and a luacheck standard (`.luacheckrc`) for a scenario folder.
import LuaFetchCore

public enum TypeDefinitions {
    /// A documented API name: its LuaLS signature lines (`---@param`, `---@return`) and doc text.
    struct Doc {
        var doc: String
        var params: [(String, String)] = []
        var returns: String?
        init(_ doc: String, _ params: [(String, String)] = [], returns: String? = nil) {
            self.doc = doc; self.params = params; self.returns = returns
        }
    }

    /// Every global, API table, method and field the runtime declares, documented.
    static let docs: [String: Doc] = [
        // Time
        "seconds": Doc("`n` seconds (an integer when whole).", [("n", "number")], returns: "number"),
        "minutes": Doc("`n` minutes, in seconds.", [("n", "number")], returns: "number"),
        "hours": Doc("`n` hours, in seconds.", [("n", "number")], returns: "number"),
        "days": Doc("`n` days, in seconds.", [("n", "number")], returns: "number"),
        "now": Doc("Virtual seconds since the start (millisecond precision).", returns: "number"),
        "at": Doc("World code at a virtual time; `fn` may be an action itself: `at(minutes(5), user.home)`.", [("time", "number"), ("fn", "function")]),
        "every": Doc("World code every `interval` seconds, first at `interval`.", [("interval", "number"), ("fn", "function")]),
        "typed": Doc("A line typed at the REPL prompt, as `.save` writes it: `fn` runs at `time` after everything else of that millisecond, with the prompt's rights.", [("time", "number"), ("fn", "function")]),
        "after": Doc("App code: `fn` runs on the main thread `seconds` from now (a one-shot timer).", [("seconds", "number"), ("fn", "function")], returns: "luafetch.Timer"),
        "work": Doc("App code: the calling thread computes for `seconds` of virtual time (the main thread blocks; a background block continues later).", [("seconds", "number")]),
        // Declarations
        "scenario": Doc("Declares the scenario: name, os, seed, duration, fetch policy, device, budgets, limits, defaults.", [("options", "luafetch.ScenarioOptions")]),
        "app": Doc("The app: `app{...}` declares its delegate; the same object is the UIApplication handed to every handler."),
        "app.state": Doc("`\"notRunning\"`, `\"inactive\"`, `\"active\"`, `\"background\"` or `\"suspended\"`."),
        "app.backgroundTimeRemaining": Doc("Seconds of background time left (`math.huge` in the foreground)."),
        "app:beginBackgroundTask": Doc("Asks for background time; returns a task id ≥ 1, or `UIBackgroundTaskInvalid` (0). End it with `endBackgroundTask`, at the latest in `expirationHandler`.", [("name", "string|function|nil"), ("expirationHandler", "function|nil")], returns: "integer"),
        "app:endBackgroundTask": Doc("Ends a background task.", [("id", "integer")]),
        "app:setMinimumBackgroundFetchInterval": Doc("Background fetch (iOS 7 and later): `UIApplicationBackgroundFetchIntervalMinimum`, `...Never`, or seconds.", [("interval", "number")]),
        "server": Doc("A fake server: `server \"api.example.test\" { latency = 0.4, jitter = 0.3, failureRate = 0.02 }`.", [("host", "string")], returns: "fun(options: luafetch.ServerOptions): luafetch.Server"),
        "expect": Doc("Expectations, checked at the end of the run (or at a time)."),
        "expect.noViolations": Doc("No violation at all (expected codes aside) by the end."),
        "expect.violation": Doc("At least one violation with `code` (exactly `count` when given); these do not fail the run.", [("code", "string"), ("count", "integer|nil")]),
        "expect.that": Doc("`fn()` is truthy at the end of the run.", [("description", "string"), ("fn", "fun(): boolean")]),
        "expect.at": Doc("`fn()` is truthy at `time`.", [("time", "number"), ("description", "string"), ("fn", "fun(): boolean")]),
        // The person and the system
        "user": Doc("What the person does (world code)."),
        "user.launch": Doc("Tap the app icon: launch it, or bring it to the foreground."),
        "user.open": Doc("Tap the app icon (as `user.launch`)."),
        "user.home": Doc("Leave the app (Home, or swipe up)."),
        "user.forceQuit": Doc("Swipe the app away in the app switcher: terminates it and blocks background launches until the next user launch."),
        "user.interrupt": Doc("A phone call: willResignActive now, didBecomeActive `seconds` later.", [("seconds", "number")]),
        "user.cancelTask": Doc("Cancel a continued task in the system's UI (`\"*\"`: the first running).", [("identifier", "string")]),
        "system": Doc("What iOS and the device do (world code)."),
        "system.backgroundFetch": Doc("Xcode's Simulate Background Fetch (a foreground app is sent to the background first)."),
        "system.launchForFetch": Doc("The scheme option \"Launch due to a background fetch event\"."),
        "system.memoryPressure": Doc("A suspended app is purged without notice."),
        "system.remoteNotification": Doc("A push through APNs; content-available pushes wake or launch the app in the background.", [("userInfo", "table"), ("options", "luafetch.PushOptions|nil")]),
        "system.disconnectScene": Doc("iOS reclaims the app's background scene (`scene.didDisconnect`)."),
        "system.launchTask": Doc("Debugger command: launch a pending BGTask request now (`\"*\"`: the one submitted first).", [("identifier", "string")]),
        "system.expireTask": Doc("Debugger command: expire a running BGTask now (`\"*\"`: the one launched first).", [("identifier", "string")]),
        "system.setLowPowerMode": Doc("Low Power Mode on or off.", [("on", "boolean")]),
        "system.setBackgroundRefresh": Doc("Background App Refresh on or off.", [("on", "boolean")]),
        "system.setNetwork": Doc("Connectivity on or off (airplane mode).", [("on", "boolean")]),
        "system.setCharging": Doc("Charging on or off; nil: as the idle windows say.", [("on", "boolean|nil")]),
        "system.setDeviceIdle": Doc("Device idle on or off; nil: as the idle windows say.", [("on", "boolean|nil")]),
        "system.serverOutage": Doc("Every fake server is down from now for `seconds`.", [("seconds", "number")]),
        "device": Doc("The device, read-only."),
        "device.isMultitaskingSupported": Doc("Whether the device multitasks (`scenario{ device = { multitasking = ... } }`)."),
        "device.backgroundRefresh": Doc("Background App Refresh setting."),
        "device.lowPowerMode": Doc("Low Power Mode."),
        "device.debuggerAttached": Doc("Whether the run is as under Xcode's debugger (`--debugger`)."),
        // Network
        "http": Doc("Requests from the app to fake servers (callbacks run later in virtual time)."),
        "http.get": Doc("GET `url`; `callback(response, err)`.", [("url", "string"), ("callback", "fun(response: luafetch.Response|nil, err: luafetch.NetworkError|nil)")], returns: "integer"),
        "http.request": Doc("A request with a method, headers, a body and a timeout; `callback(response, err)`.", [("request", "luafetch.RequestOptions"), ("callback", "fun(response: luafetch.Response|nil, err: luafetch.NetworkError|nil)")], returns: "integer"),
        "urlSession": Doc("Background URL sessions (docs/RULES.md)."),
        "urlSession.background": Doc("The background session with this identifier (the same object for the same identifier).", [("identifier", "string")], returns: "luafetch.URLSession"),
        // Timers, queues, threads
        "timer": Doc("App-side timers (main thread)."),
        "timer.after": Doc("`fn` once, `seconds` from now.", [("seconds", "number"), ("fn", "function")], returns: "luafetch.Timer"),
        "timer.every": Doc("`fn` every `seconds` until invalidated (not while the app is suspended).", [("seconds", "number"), ("fn", "function")], returns: "luafetch.Timer"),
        "dispatch": Doc("Grand Central Dispatch: queues, locks, groups and semaphores."),
        "dispatch.main": Doc("`fn` on the main queue, as soon as the main thread is free.", [("fn", "function")]),
        "dispatch.global": Doc("`fn` on a background thread of its own.", [("fn", "function")]),
        "dispatch.asyncAfter": Doc("`fn` on a background thread of its own, `seconds` from now (while the app is suspended it waits: it runs when the process next runs code).", [("seconds", "number"), ("fn", "function")]),
        "dispatch.queue": Doc("A serial queue, or with `{ concurrent = true }` a concurrent one.", [("label", "string"), ("options", "luafetch.QueueOptions|nil")], returns: "luafetch.Queue"),
        "dispatch.lock": Doc("A mutex.", returns: "luafetch.Mutex"),
        "dispatch.group": Doc("A dispatch group: enter and leave around work, notify or wait for it all.", returns: "luafetch.Group"),
        "dispatch.semaphore": Doc("A counting semaphore starting at `value` (0 or more).", [("value", "integer")], returns: "luafetch.Semaphore"),
        // Disk
        "defaults": Doc("UserDefaults: property lists that outlive the process."),
        "defaults.get": Doc("The value stored under `key` (a copy), or nil.", [("key", "string")], returns: "any"),
        "defaults.set": Doc("Stores a copy of `value` (a property list) under `key`.", [("key", "string"), ("value", "any")]),
        "sharedContainer": Doc("The app group's shared container."),
        "sharedContainer.lock": Doc("Takes a file lock in the shared container; suspending while holding it is 0xdead10cc.", [("name", "string")], returns: "luafetch.FileLock"),
        // Notifications
        "notifications": Doc("NotificationCenter."),
        "notifications.observe": Doc("`fn(name, info)` for each post of `name`.", [("name", "string"), ("fn", "fun(name: string, info: any)")]),
        "notifications.post": Doc("Posts synchronously to the observers of `name`.", [("name", "string"), ("info", "any")]),
        // BackgroundTasks
        "BGTaskScheduler": Doc("BackgroundTasks (iOS 13 and later)."),
        "BGTaskScheduler.register": Doc("The launch handler for an identifier (before didFinishLaunching returns; the identifier must be permitted); its launch and expiration handlers run on `queue` (nil: the scheduler's serial background queue).", [("identifier", "string"), ("handler", "fun(task: luafetch.BGTask)"), ("queue", "\"main\"|\"global\"|luafetch.Queue|nil")], returns: "boolean"),
        "BGTaskScheduler.submit": Doc("Submits a request; `false, reason` when refused.", [("request", "luafetch.BGTaskRequest")], returns: "boolean, string|nil"),
        "BGTaskScheduler.cancel": Doc("Cancels the pending request with this identifier.", [("identifier", "string")]),
        "BGTaskScheduler.cancelAll": Doc("Cancels every pending request."),
        "BGTaskScheduler.pendingTaskRequests": Doc("The pending requests (copies).", returns: "luafetch.BGTaskRequest[]"),
        "BGAppRefreshTaskRequest": Doc("An app-refresh request (about 30 s of work).", [("identifier", "string")], returns: "luafetch.BGTaskRequest"),
        "BGProcessingTaskRequest": Doc("A processing request (minutes, while the device is idle and charging).", [("identifier", "string")], returns: "luafetch.BGTaskRequest"),
        "BGContinuedProcessingTaskRequest": Doc("A continued-processing request (iOS 26: started from the foreground, with progress).", [("identifier", "string"), ("options", "luafetch.ContinuedProcessingOptions")], returns: "luafetch.BGTaskRequest"),
        // Constants
        "UIBackgroundTaskInvalid": Doc("0: no task."),
        "UIApplicationBackgroundFetchIntervalMinimum": Doc("The smallest interval iOS allows (the profile's fetchFloor)."),
        "UIApplicationBackgroundFetchIntervalNever": Doc("No background fetch."),
        "UIBackgroundFetchResultNewData": Doc("A fetch or push completion: new data."),
        "UIBackgroundFetchResultNoData": Doc("A fetch or push completion: nothing new."),
        "UIBackgroundFetchResultFailed": Doc("A fetch or push completion: failed."),
        "UIApplicationDidFinishLaunchingNotification": Doc("Posted after didFinishLaunching."),
        "UIApplicationDidBecomeActiveNotification": Doc("Posted after didBecomeActive."),
        "UIApplicationWillResignActiveNotification": Doc("Posted after willResignActive."),
        "UIApplicationDidEnterBackgroundNotification": Doc("Posted after didEnterBackground (its observers share its 5 s)."),
        "UIApplicationWillEnterForegroundNotification": Doc("Posted after willEnterForeground."),
        "UIApplicationWillTerminateNotification": Doc("Posted after willTerminate."),
        "UISceneWillConnectNotification": Doc("Posted after the scene's willConnect (`app{ scenes = true }`)."),
        "UISceneWillEnterForegroundNotification": Doc("Posted after the scene's willEnterForeground."),
        "UISceneDidActivateNotification": Doc("Posted after the scene's didBecomeActive."),
        "UISceneWillDeactivateNotification": Doc("Posted after the scene's willResignActive."),
        "UISceneDidEnterBackgroundNotification": Doc("Posted after the scene's didEnterBackground (its observers share its 5 s)."),
        "UISceneDidDisconnectNotification": Doc("Posted after the scene's didDisconnect."),
    ]

    /// The parameters of each delegate callback (app, scene), in LuaLS types.
    static let callbackParams: [String: [(String, String)]] = [
        "didFinishLaunching": [("app", "luafetch.App"), ("launch", "luafetch.Launch")],
        "performFetch": [("app", "luafetch.App"), ("completionHandler", "fun(result: string)")],
        "didReceiveRemoteNotification": [("app", "luafetch.App"), ("userInfo", "table"), ("completionHandler", "fun(result: string)")],
        "handleEventsForBackgroundURLSession": [("app", "luafetch.App"), ("identifier", "string"), ("completionHandler", "fun()")],
    ]

    /// The runtime's strict table each object class is checked against (TypeDefinitionTests).
    static let objectTables: [String: String] = [
        "Timer": "timer", "Server": "server", "Queue": "queue", "Mutex": "lock", "FileLock": "lock", "Group": "group", "Semaphore": "semaphore",
        "BGTask": "task", "URLSession": "session", "Transfer": "transfer", "Scene": "scene",
    ]

    /// Objects handed to scenario code, with their methods and fields.
    static let objects: [(name: String, doc: String, members: [(String, String, String)])] = [
        ("Timer", "A timer (`after`, `timer.after`, `timer.every`).", [("invalidate", "fun(self: luafetch.Timer)", "Stops the timer.")]),
        ("Server", "A fake server.", [
            ("route", "fun(self: luafetch.Server, route: string, response: luafetch.RouteResponse|luafetch.RouteResponse[]|fun(request: luafetch.Request): luafetch.RouteResponse)", "`\"GET /path\"`: a handler, one response, or a list served in order (the last repeats)."),
            ("down", "fun(self: luafetch.Server, from: number, to: number)", "Every request in [from, to] fails with notConnected."),
            ("host", "string", "Its host name."), ("latency", "number", "Seconds a round trip takes."),
            ("jitter", "number", "Up to this many seconds more or less."), ("failureRate", "number", "The share of requests that lose the connection."),
        ]),
        ("Queue", "A dispatch queue (`dispatch.queue`): serial, or concurrent.", [
            ("async", "fun(self: luafetch.Queue, fn: function, options: luafetch.AsyncOptions|nil)", "Runs `fn` on the queue: a serial queue's thread after the blocks before it; on a concurrent queue a thread of its own (a barrier block waits for the running blocks and runs alone)."),
            ("asyncAfter", "fun(self: luafetch.Queue, seconds: number, fn: function)", "Submits `fn` to the queue `seconds` from now (while the app is suspended it waits)."),
            ("sync", "fun(self: luafetch.Queue, fn: function): any", "Runs `fn` on the calling thread once the queue lets it (a serial queue: when free; a concurrent one: unless a barrier is pending or running), returns its results."),
        ]),
        ("Group", "A dispatch group (`dispatch.group()`).", [
            ("enter", "fun(self: luafetch.Group)", "One more piece of work in the group."),
            ("leave", "fun(self: luafetch.Group)", "One piece done; a leave without an enter crashes the app (Dispatch traps)."),
            ("notify", "fun(self: luafetch.Group, fn: function, queue: \"main\"|\"global\"|luafetch.Queue|nil)", "Submits `fn` to `queue` (nil: the main queue) once the group is empty (at once if it is)."),
            ("wait", "fun(self: luafetch.Group, seconds: number|nil): boolean", "Blocks the calling thread until the group is empty (true) or `seconds` passed (false; nil: forever)."),
        ]),
        ("Semaphore", "A counting semaphore (`dispatch.semaphore(value)`).", [
            ("wait", "fun(self: luafetch.Semaphore, seconds: number|nil): boolean", "Takes one (true), blocking the calling thread while there is none, or false when `seconds` passed (nil: forever)."),
            ("signal", "fun(self: luafetch.Semaphore): boolean", "Gives one back: to the first waiting thread (true), or keeps it (false)."),
        ]),
        ("Mutex", "A mutex (`dispatch.lock()`).", [
            ("lock", "fun(self: luafetch.Mutex)", "Waits while another thread holds it."),
            ("unlock", "fun(self: luafetch.Mutex)", "Releases it."),
            ("tryLock", "fun(self: luafetch.Mutex): boolean", "Takes it if it is free."),
        ]),
        ("FileLock", "A lock in the shared container.", [("unlock", "fun(self: luafetch.FileLock)", "Releases it.")]),
        ("BGTask", "A launched BGTask (the launch handler's argument).", [
            ("identifier", "string", "Its identifier."),
            ("expirationHandler", "function|nil", "Called when iOS ends the task early; complete the task in it."),
            ("setTaskCompleted", "fun(self: luafetch.BGTask, success: boolean)", "Ends the task (once)."),
            ("updateProgress", "fun(self: luafetch.BGTask, completed: number, total: number)", "A continued task's progress (iOS 26 expires one that makes none)."),
        ]),
        ("URLSession", "A background URL session.", [
            ("download", "fun(self: luafetch.URLSession, request: luafetch.TransferRequest): luafetch.Transfer", "A download that continues while the app is suspended or not running."),
            ("upload", "fun(self: luafetch.URLSession, request: luafetch.TransferRequest): luafetch.Transfer", "An upload that continues while the app is suspended or not running."),
        ]),
        ("Transfer", "A background transfer.", [("cancel", "fun(self: luafetch.Transfer)", "Cancels it.")]),
        ("Scene", "The app's scene (`app{ scenes = true }`).", [("state", "string", "`\"unattached\"`, `\"inactive\"`, `\"active\"` or `\"background\"`.")]),
        ("Launch", "Why the process was launched (didFinishLaunching's second argument).", [
            ("reason", "string", "`\"user\"`, `\"backgroundFetch\"`, `\"backgroundTask\"`, `\"remoteNotification\"` or `\"backgroundURLSession\"`."),
        ]),
        ("Request", "A request as a route handler sees it.", [
            ("method", "string", "GET, POST, ..."), ("url", "string", "The whole URL."), ("path", "string", "The path."),
            ("query", "table<string, string>", "The query, percent-decoded."), ("headers", "table<string, string>", "Headers."),
            ("body", "any", "The body (a copy)."),
        ]),
        ("Response", "A response (a route's answer; the callback's first argument).", [
            ("status", "integer", "The status (200 by default)."), ("headers", "table<string, string>", "Headers."), ("body", "any", "The body (a copy)."),
        ]),
    ]

    // MARK: - The meta file

    /// The LuaLS meta file for the runtime's declared names.
    public static func meta(version: String) -> String {
        let runtime = ScenarioRuntime(path: "types")
        return meta(names: runtime.lua.declaredNames, version: version)
    }

    static func meta(names declared: [String], version: String) -> String {
        var seen = Set<String>()
        let names = declared.filter { seen.insert($0).inserted }
        var out = """
        ---@meta luafetch
        -- LuaLS definitions of luafetch's scenario API, written by `luafetch types` (luafetch \(version))
        -- from the declarations the runtime uses. Regenerate them rather than editing this file.

        ---@alias luafetch.NetworkError "timeout"|"notConnected"|"connectionLost"|"cannotFindHost"


        """
        out += optionClasses()
        out += objectClasses()
        out += lazyDefinitions
        // Tables (names with members) and plain globals, in declaration order.
        let members = Dictionary(grouping: names.filter { $0.contains(".") || $0.contains(":") }) { name in
            String(name.prefix { $0 != "." && $0 != ":" })
        }
        for name in names where !name.contains(".") && !name.contains(":") {
            let doc = docs[name]
            if let ms = members[name] {
                let cls = name == "app" ? "luafetch.App" : "luafetch.\(name)"
                if let doc { out += "---\(doc.doc)\n" }
                out += "---@class \(cls)\n"
                for m in ms where m.contains(".") {
                    let field = String(m.split(separator: ".", maxSplits: 1)[1])
                    if docs[m]?.params.isEmpty ?? true, docs[m]?.returns == nil, !isFunctionMember(m) {
                        out += "---@field \(field) \(fieldType(m)) \(docs[m]?.doc ?? "")\n"
                    }
                }
                if name == "app" { out += "---@overload fun(options: luafetch.AppOptions)\n" }
                out += "\(name) = {}\n\n"
                for m in ms where isFunctionMember(m) || (docs[m].map { !$0.params.isEmpty || $0.returns != nil } ?? false) {
                    out += function(m, docs[m])
                }
            } else if let doc, !doc.params.isEmpty || doc.returns != nil || isFunction(name) {
                out += function(name, doc)
            } else {
                out += "---\(doc?.doc ?? "")\n\(name) = \(constantValue(name))\n\n"
            }
        }
        return out
    }

    static func isFunction(_ name: String) -> Bool {
        ["scenario", "at", "every", "typed", "after", "work", "now", "seconds", "minutes", "hours", "days", "server",
         "BGAppRefreshTaskRequest", "BGProcessingTaskRequest", "BGContinuedProcessingTaskRequest"].contains(name)
    }

    /// Members that are functions: methods (`:`) and the functions of API tables.
    static func isFunctionMember(_ name: String) -> Bool {
        if name.contains(":") { return true }
        let table = String(name.prefix { $0 != "." })
        return !["app", "device"].contains(table)
    }

    static func fieldType(_ name: String) -> String {
        switch name {
        case "app.state": return "\"notRunning\"|\"inactive\"|\"active\"|\"background\"|\"suspended\""
        case "app.backgroundTimeRemaining": return "number"
        default: return "boolean"
        }
    }

    static func constantValue(_ name: String) -> String {
        if name.hasSuffix("Notification") { return "\"\(name)\"" }
        switch name {
        case "UIBackgroundTaskInvalid": return "0"
        case let n where n.hasPrefix("UIBackgroundFetchResult"): return "\"\(n.dropFirst("UIBackgroundFetchResult".count).prefix(1).lowercased() + n.dropFirst("UIBackgroundFetchResult".count + 1))\""
        default: return "nil ---@type any"
        }
    }

    static func function(_ name: String, _ doc: Doc?) -> String {
        var out = ""
        if let doc { out += "---\(doc.doc)\n" }
        for (p, t) in doc?.params ?? [] { out += "---@param \(p) \(t)\n" }
        if let r = doc?.returns { out += "---@return \(r)\n" }
        out += "function \(name)(\((doc?.params ?? []).map(\.0).joined(separator: ", "))) end\n\n"
        return out
    }

    static func luaType(_ kind: Field.Kind) -> String {
        switch kind {
        case .string: return "string"
        case .boolean: return "boolean"
        case .function: return "function"
        case .number: return "number"
        case .integer: return "integer"
        case .choice(let values, _, _): return values.map { "\"\($0)\"" }.joined(separator: "|")
        case .list(let inner):
            if case .choice = inner { return "(\(luaType(inner)))[]" }
            return "\(luaType(inner))[]"
        case .options: return "table"
        case .table: return "table"
        case .any: return "any"
        }
    }

    /// `---@class` for each option table, generated from the OptionSpec that reads it.
    static func optionClasses() -> String {
        var out = ""
        func emit(_ cls: String, _ doc: String, _ spec: OptionSpec, nested: [String: String] = [:], types: [String: String] = [:]) {
            out += "---\(doc)\n---@class (exact) \(cls)\n"
            for f in spec.fields {
                let type = types[f.name] ?? nested[f.name] ?? luaType(f.kind)
                // "must be a string" restates the type; longer rules ("≥ 0", "like ...") say more.
                let note = f.must.count < 30 && f.must.hasPrefix("must be ") ? "" : " " + f.must
                out += "---@field \(f.name)? \(type)\(note)\n"
            }
            out += "\n"
        }
        func callback(_ name: String, scene: Bool = false) -> String {
            let params = scene ? [("scene", "luafetch.Scene")] : callbackParams[name] ?? [("app", "luafetch.App")]
            return "fun(\(params.map { "\($0.0): \($0.1)" }.joined(separator: ", ")))"
        }
        let scenario = ScenarioRuntime.scenarioSpec
        for f in scenario.fields {
            if case .options(let inner) = f.kind {
                emit("luafetch.Scenario\(f.name.prefix(1).uppercased() + f.name.dropFirst())", "`scenario{ \(f.name) = {...} }`.", inner)
            }
        }
        emit("luafetch.ScenarioOptions", "`scenario{...}`.", scenario, nested: [
            "device": "luafetch.ScenarioDevice", "budgets": "luafetch.ScenarioBudgets", "limits": "luafetch.ScenarioLimits",
        ])
        var delegateTypes: [String: String] = [:]
        for f in ScenarioRuntime.delegateFields where f.name != "scene" { delegateTypes[f.name] = callback(f.name) }
        delegateTypes["scene"] = "luafetch.SceneDelegate"
        delegateTypes["delegate"] = "fun(app: luafetch.App): luafetch.Delegate"
        if case .options(let sceneSpec)? = ScenarioRuntime.delegateFields.first(where: { $0.name == "scene" })?.kind {
            var sceneTypes: [String: String] = [:]
            for f in sceneSpec.fields { sceneTypes[f.name] = callback(f.name, scene: true) }
            emit("luafetch.SceneDelegate", "The scene delegate (`app{ scenes = true }`).", sceneSpec, types: sceneTypes)
        }
        emit("luafetch.Delegate", "What `delegate = function(app) ... end` returns: the delegate's methods.", ScenarioRuntime.delegateSpec, types: delegateTypes)
        emit("luafetch.AppOptions", "`app{...}`: the delegate's methods, or `delegate = function(app) return {...} end`.", ScenarioRuntime.appSpec, types: delegateTypes)
        emit("luafetch.ServerOptions", "`server \"host\" {...}`.", ScenarioRuntime.serverSpec("host"))
        emit("luafetch.RequestOptions", "`http.request{...}`.", ScenarioRuntime.requestSpec)
        emit("luafetch.TransferRequest", "A background session's request (`session:download{...}`).", ScenarioRuntime.transferSpec)
        emit("luafetch.BGTaskRequest", "A BGTask request (`BGAppRefreshTaskRequest(identifier)`, ...): set its fields, then submit it.", ScenarioRuntime.bgRequestSpec)
        emit("luafetch.ContinuedProcessingOptions", "`BGContinuedProcessingTaskRequest(identifier, {...})`.", ScenarioRuntime.continuedSpec)
        emit("luafetch.QueueOptions", "`dispatch.queue(label, {...})`.", ScenarioRuntime.queueOptions)
        emit("luafetch.AsyncOptions", "`q:async(fn, {...})`.", ScenarioRuntime.asyncOptions)
        emit("luafetch.PushOptions", "`system.remoteNotification(userInfo, {...})`.", ScenarioRuntime.pushOptions)
        out += "---A route's answer (`api:route(\"GET /feed\", {...})`, or what its handler returns).\n---@class (exact) luafetch.RouteResponse\n"
        for (name, type, doc) in ScenarioRuntime.responseFields { out += "---@field \(name)? \(type) \(doc)\n" }
        out += "\n"
        return out
    }

    static func objectClasses() -> String {
        var out = ""
        for o in objects {
            out += "---\(o.doc)\n---@class luafetch.\(o.name)\n"
            for (name, type, doc) in o.members { out += "---@field \(name) \(type) \(doc)\n" }
            out += "\n"
        }
        return out
    }

    // MARK: - Editor and linter settings

    /// `.luarc.json` for a scenario folder whose definitions are in `library` (relative).
    public static func luarc(library: String) -> String {
        """
        {
          "runtime.version": "Lua 5.4",
          "workspace.library": ["\(library)"],
          "diagnostics.disable": ["lowercase-global"],
          "completion.callSnippet": "Replace"
        }

        """
    }

    /// The global names of the API (what luacheck reads).
    public static func globals() -> [String] {
        var seen = Set<String>()
        return (ScenarioRuntime(path: "types").lua.declaredNames + lazyGlobals).filter { !$0.contains(".") && !$0.contains(":") && seen.insert($0).inserted }
    }

    /// Globals made on first use (the runtime of imported scenarios, SPEC 18): not among the
    /// runtime's declared names until a scenario reads one.
    public static let lazyGlobals = ["swift", "stubs", "unsupported"]

    /// Their LuaLS definitions.
    static let lazyDefinitions = """
        ---The runtime of scenarios written by `luafetch import` (docs/IMPORT.md): classes, structs and
        ---enums, optionals, Swift's operators, collections, errors, tasks, and the stubs' call sites.
        ---@type table
        swift = {}

        ---What the stubs of an imported scenario do (docs/IMPORT.md): `["Type.member"] = { seconds = 2 }`.
        ---A later call adds to the earlier ones and overrides the names it repeats.
        ---@param specs table<string, {seconds?: number|number[]|"never", result?: any, calls?: integer, blocking?: boolean, lock?: "sharedContainer"}>
        function stubs(specs) end

        ---Swift code `luafetch import` could not translate: a timeline line when it runs, nothing else.
        ---@param what string
        ---@param where string
        function unsupported(what, where) end


        """


    /// A luacheck configuration for a folder of scenarios (`DIR/.luacheckrc`: `luacheck .` inside
    /// it). Its exclusion matches `.luafetch` folders at any depth, so a folder whose subfolders
    /// have their own definitions lints clean too.
    public static func luacheckrc(version: String) -> String {
        return """
        -- luacheck settings for luafetch scenarios, written by `luafetch types` (luafetch \(version)).
        -- The sandbox's standard library is Lua 5.4's (io, debug and os.execute are absent: luacheck
        -- would not know), plus luafetch's API as read-only globals.
        std = "lua54"
        read_globals = {
        \(readGlobals(indent: "  "))
        }
        -- Delegate callbacks take (app, ...) whether or not they use it, and the delegate form
        -- names its argument app too: unused and shadowed callback arguments are the API's shape.
        ignore = { "212", "432" }
        max_line_length = 130
        -- A scenario's top-level code may declare globals (they are its own).
        allow_defined_top = true
        exclude_files = { "**/.luafetch/**" }

        """
    }

    /// The same settings for scenario folders below the folder luacheck runs in: luacheck reads
    /// `.luacheckrc` from its current folder (or the nearest one above), never from the folder it
    /// is given, so `luacheck scenarios` from a project's root needs this file in the root. The
    /// settings apply to the listed folders only (`files[folder]`), so the project's other Lua
    /// files keep their own rules. `luafetch types DIR` adds DIR to the list (`projectFolders`).
    public static func projectLuacheckrc(folders: [String], version: String) -> String {
        let list = folders.map { "\"\(luaEscaped($0))\"" }.joined(separator: ", ")
        return """
        -- luacheck settings written by `luafetch types` (luafetch \(version)) for the luafetch
        -- scenarios in the folders listed below. luacheck reads .luacheckrc from the folder it runs
        -- in, so this file makes `luacheck FOLDER` from here lint them with luafetch's API (each
        -- folder's own .luacheckrc does the same for `luacheck .` inside it). Other Lua files here
        -- keep their own rules.
        local folders = { \(list) }
        local luafetch = {
          -- The sandbox's standard library is Lua 5.4's, plus luafetch's API as read-only globals.
          std = "lua54",
          read_globals = {
        \(readGlobals(indent: "    "))
          },
          -- Unused and shadowed callback arguments are the API's shape (callbacks take app, ...).
          ignore = { "212", "432" },
          max_line_length = 130,
          allow_defined_top = true,
        }
        exclude_files = {}
        for _, folder in ipairs(folders) do
          files[folder] = luafetch
          exclude_files[#exclude_files + 1] = folder .. "/**/.luafetch/**"
        end

        """
    }

    /// The folders a `projectLuacheckrc` lists; nil when `text` is not one (a user's own file, or
    /// the settings of a single folder).
    public static func projectFolders(in text: String) -> [String]? {
        guard text.contains("`luafetch types`"),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("local folders = {") }) else { return nil }
        var out: [String] = [], current: String?, escaped = false
        for ch in line.dropFirst("local folders = {".count) {
            if var c = current {
                if escaped { c.append(ch); escaped = false; current = c }
                else if ch == "\\" { escaped = true }
                else if ch == "\"" { out.append(c); current = nil }
                else { c.append(ch); current = c }
            } else if ch == "\"" {
                current = ""
            }
        }
        return out
    }

    static func readGlobals(indent: String) -> String {
        (globals() + ["log"]).map { "\(indent)\"\($0)\"," }.joined(separator: "\n")
    }

    static func luaEscaped(_ s: String) -> String {
        var out = ""
        for ch in s {
            if ch == "\\" || ch == "\"" { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}

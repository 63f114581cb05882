// The documentation `luafetch types` writes beside each declared name: a LuaLS signature and
// text per API name (Doc), the delegate callbacks' parameters, the object tables and the objects
// handed to scenario code with their members. Pure data; TypeDefinitions.swift writes it out.
import LuaFetchCore

extension TypeDefinitions {
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

}

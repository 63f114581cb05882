---@meta luafetch
-- LuaLS definitions of luafetch's scenario API, written by `luafetch types` (luafetch 0.1.0)
-- from the declarations the runtime uses. Regenerate them rather than editing this file.

---@alias luafetch.NetworkError "timeout"|"notConnected"|"connectionLost"|"cannotFindHost"

---`scenario{ device = {...} }`.
---@class (exact) luafetch.ScenarioDevice
---@field multitasking? boolean
---@field backgroundRefresh? boolean
---@field lowPowerMode? boolean
---@field idleWindows? number[][] must be a list of daily windows in seconds after midnight, like { { hours(1), hours(5) } }

---`scenario{ budgets = {...} }`.
---@class (exact) luafetch.ScenarioBudgets
---@field backgroundTask? number must be a number ≥ 0 (seconds)
---@field backgroundTaskLaunched? number must be a number ≥ 0 (seconds)
---@field expirationWarning? number must be a number ≥ 0 (seconds)
---@field fetch? number must be a number ≥ 0 (seconds)
---@field didEnterBackground? number must be a number ≥ 0 (seconds)
---@field willTerminate? number must be a number ≥ 0 (seconds)
---@field launch? number must be a number ≥ 0 (seconds)
---@field fetchFloor? number must be a number ≥ 0 (seconds)
---@field taskHeldWarning? number must be a number ≥ 0 (seconds)
---@field maxTasks? number must be a number ≥ 0 (seconds; a count for maxTasks)
---@field mainThreadHang? number must be a number ≥ 0 (seconds)
---@field refreshTask? number must be a number ≥ 0 (seconds)
---@field processingTask? number must be a number ≥ 0 (seconds)
---@field refreshDelay? number must be a number ≥ 0 (seconds)
---@field continuedNoProgress? number must be a number ≥ 0 (seconds)
---@field pushCompletion? number must be a number ≥ 0 (seconds)
---@field sessionEvents? number must be a number ≥ 0 (seconds)

---`scenario{ limits = {...} }`.
---@class (exact) luafetch.ScenarioLimits
---@field instructions? number must be a whole number from 1000 to 1000000000000000
---@field events? number must be a whole number from 1 to 1000000000000
---@field memory? number must be a whole number from 1048576 to 4294967296 (bytes)

---`scenario{...}`.
---@class (exact) luafetch.ScenarioOptions
---@field name? string
---@field os? "ios6"|"ios7"|"ios13"|"ios26"
---@field seed? integer
---@field duration? number must be a number of seconds ≥ 0 (e.g. days(2))
---@field fetchPolicy? "adaptive"|"fixed"|"manual"
---@field device? luafetch.ScenarioDevice
---@field budgets? luafetch.ScenarioBudgets
---@field limits? luafetch.ScenarioLimits must be a table like { instructions = 1e9, events = 1e6, memory = 64 * 1024 * 1024 }
---@field defaults? table must be a table of UserDefaults keys and values, like { onboarded = true }
---@field debugger? boolean

---The scene delegate (`app{ scenes = true }`).
---@class (exact) luafetch.SceneDelegate
---@field willConnect? fun(scene: luafetch.Scene)
---@field didBecomeActive? fun(scene: luafetch.Scene)
---@field willResignActive? fun(scene: luafetch.Scene)
---@field willEnterForeground? fun(scene: luafetch.Scene)
---@field didEnterBackground? fun(scene: luafetch.Scene)
---@field didDisconnect? fun(scene: luafetch.Scene)

---What `delegate = function(app) ... end` returns: the delegate's methods.
---@class (exact) luafetch.Delegate
---@field didFinishLaunching? fun(app: luafetch.App, launch: luafetch.Launch)
---@field didBecomeActive? fun(app: luafetch.App)
---@field willResignActive? fun(app: luafetch.App)
---@field didEnterBackground? fun(app: luafetch.App)
---@field willEnterForeground? fun(app: luafetch.App)
---@field willTerminate? fun(app: luafetch.App)
---@field performFetch? fun(app: luafetch.App, completionHandler: fun(result: string))
---@field didReceiveRemoteNotification? fun(app: luafetch.App, userInfo: table, completionHandler: fun(result: string))
---@field handleEventsForBackgroundURLSession? fun(app: luafetch.App, identifier: string, completionHandler: fun())
---@field scene? luafetch.SceneDelegate must be a table of scene delegate methods, like { didEnterBackground = function(scene) ... end }

---`app{...}`: the delegate's methods, or `delegate = function(app) return {...} end`.
---@class (exact) luafetch.AppOptions
---@field backgroundModes? ("fetch"|"remote-notification"|"audio"|"location"|"voip"|"processing"|"bluetooth-central"|"bluetooth-peripheral"|"external-accessory"|"newsstand-content")[] must be a list of strings, like { "fetch" }
---@field delegate? fun(app: luafetch.App): luafetch.Delegate must be a function(app) that returns the delegate's methods
---@field permittedIdentifiers? string[] must be a list of strings (BGTaskSchedulerPermittedIdentifiers)
---@field scenes? boolean
---@field didFinishLaunching? fun(app: luafetch.App, launch: luafetch.Launch)
---@field didBecomeActive? fun(app: luafetch.App)
---@field willResignActive? fun(app: luafetch.App)
---@field didEnterBackground? fun(app: luafetch.App)
---@field willEnterForeground? fun(app: luafetch.App)
---@field willTerminate? fun(app: luafetch.App)
---@field performFetch? fun(app: luafetch.App, completionHandler: fun(result: string))
---@field didReceiveRemoteNotification? fun(app: luafetch.App, userInfo: table, completionHandler: fun(result: string))
---@field handleEventsForBackgroundURLSession? fun(app: luafetch.App, identifier: string, completionHandler: fun())
---@field scene? luafetch.SceneDelegate must be a table of scene delegate methods, like { didEnterBackground = function(scene) ... end }

---`server "host" {...}`.
---@class (exact) luafetch.ServerOptions
---@field latency? number
---@field jitter? number
---@field failureRate? number

---`http.request{...}`.
---@class (exact) luafetch.RequestOptions
---@field method? string must be a string like "GET" or "POST"
---@field url? string is required and must be a string like "https://api.example.test/items"
---@field headers? table
---@field body? any 
---@field timeout? number must be a positive number of seconds

---A background session's request (`session:download{...}`).
---@class (exact) luafetch.TransferRequest
---@field method? string must be a string like "GET" or "POST"
---@field url? string is required and must be a string like "https://api.example.test/items"
---@field headers? table
---@field body? any 

---A BGTask request (`BGAppRefreshTaskRequest(identifier)`, ...): set its fields, then submit it.
---@class (exact) luafetch.BGTaskRequest
---@field type? "BGAppRefreshTaskRequest"|"BGProcessingTaskRequest"|"BGContinuedProcessingTaskRequest"
---@field identifier? string
---@field earliestBeginDate? number must be a time in seconds, like now() + hours(1)
---@field requiresNetworkConnectivity? boolean
---@field requiresExternalPower? boolean
---@field title? string
---@field subtitle? string
---@field strategy? "queue"|"fail"

---`BGContinuedProcessingTaskRequest(identifier, {...})`.
---@class (exact) luafetch.ContinuedProcessingOptions
---@field title? string
---@field subtitle? string
---@field strategy? "queue"|"fail"

---`dispatch.queue(label, {...})`.
---@class (exact) luafetch.QueueOptions
---@field concurrent? boolean

---`q:async(fn, {...})`.
---@class (exact) luafetch.AsyncOptions
---@field barrier? boolean

---`system.remoteNotification(userInfo, {...})`.
---@class (exact) luafetch.PushOptions
---@field contentAvailable? boolean

---A route's answer (`api:route("GET /feed", {...})`, or what its handler returns).
---@class (exact) luafetch.RouteResponse
---@field status? integer The status (200 by default; 100–599).
---@field headers? table<string, string> Headers.
---@field body? any The body (a copy reaches the app).
---@field transfer? number Seconds the body takes on the wire (≥ 0).

---A timer (`after`, `timer.after`, `timer.every`).
---@class luafetch.Timer
---@field invalidate fun(self: luafetch.Timer) Stops the timer.

---A fake server.
---@class luafetch.Server
---@field route fun(self: luafetch.Server, route: string, response: luafetch.RouteResponse|luafetch.RouteResponse[]|fun(request: luafetch.Request): luafetch.RouteResponse) `"GET /path"`: a handler, one response, or a list served in order (the last repeats).
---@field down fun(self: luafetch.Server, from: number, to: number) Every request in [from, to] fails with notConnected.
---@field host string Its host name.
---@field latency number Seconds a round trip takes.
---@field jitter number Up to this many seconds more or less.
---@field failureRate number The share of requests that lose the connection.

---A dispatch queue (`dispatch.queue`): serial, or concurrent.
---@class luafetch.Queue
---@field async fun(self: luafetch.Queue, fn: function, options: luafetch.AsyncOptions|nil) Runs `fn` on the queue: a serial queue's thread after the blocks before it; on a concurrent queue a thread of its own (a barrier block waits for the running blocks and runs alone).
---@field asyncAfter fun(self: luafetch.Queue, seconds: number, fn: function) Submits `fn` to the queue `seconds` from now (while the app is suspended it waits).
---@field sync fun(self: luafetch.Queue, fn: function): any Runs `fn` on the calling thread once the queue lets it (a serial queue: when free; a concurrent one: unless a barrier is pending or running), returns its results.

---A dispatch group (`dispatch.group()`).
---@class luafetch.Group
---@field enter fun(self: luafetch.Group) One more piece of work in the group.
---@field leave fun(self: luafetch.Group) One piece done; a leave without an enter crashes the app (Dispatch traps).
---@field notify fun(self: luafetch.Group, fn: function, queue: "main"|"global"|luafetch.Queue|nil) Submits `fn` to `queue` (nil: the main queue) once the group is empty (at once if it is).
---@field wait fun(self: luafetch.Group, seconds: number|nil): boolean Blocks the calling thread until the group is empty (true) or `seconds` passed (false; nil: forever).

---A counting semaphore (`dispatch.semaphore(value)`).
---@class luafetch.Semaphore
---@field wait fun(self: luafetch.Semaphore, seconds: number|nil): boolean Takes one (true), blocking the calling thread while there is none, or false when `seconds` passed (nil: forever).
---@field signal fun(self: luafetch.Semaphore): boolean Gives one back: to the first waiting thread (true), or keeps it (false).

---A mutex (`dispatch.lock()`).
---@class luafetch.Mutex
---@field lock fun(self: luafetch.Mutex) Waits while another thread holds it.
---@field unlock fun(self: luafetch.Mutex) Releases it.
---@field tryLock fun(self: luafetch.Mutex): boolean Takes it if it is free.

---A lock in the shared container.
---@class luafetch.FileLock
---@field unlock fun(self: luafetch.FileLock) Releases it.

---A launched BGTask (the launch handler's argument).
---@class luafetch.BGTask
---@field identifier string Its identifier.
---@field expirationHandler function|nil Called when iOS ends the task early; complete the task in it.
---@field setTaskCompleted fun(self: luafetch.BGTask, success: boolean) Ends the task (once).
---@field updateProgress fun(self: luafetch.BGTask, completed: number, total: number) A continued task's progress (iOS 26 expires one that makes none).

---A background URL session.
---@class luafetch.URLSession
---@field download fun(self: luafetch.URLSession, request: luafetch.TransferRequest): luafetch.Transfer A download that continues while the app is suspended or not running.
---@field upload fun(self: luafetch.URLSession, request: luafetch.TransferRequest): luafetch.Transfer An upload that continues while the app is suspended or not running.

---A background transfer.
---@class luafetch.Transfer
---@field cancel fun(self: luafetch.Transfer) Cancels it.

---The app's scene (`app{ scenes = true }`).
---@class luafetch.Scene
---@field state string `"unattached"`, `"inactive"`, `"active"` or `"background"`.

---Why the process was launched (didFinishLaunching's second argument).
---@class luafetch.Launch
---@field reason string `"user"`, `"backgroundFetch"`, `"backgroundTask"`, `"remoteNotification"` or `"backgroundURLSession"`.

---A request as a route handler sees it.
---@class luafetch.Request
---@field method string GET, POST, ...
---@field url string The whole URL.
---@field path string The path.
---@field query table<string, string> The query, percent-decoded.
---@field headers table<string, string> Headers.
---@field body any The body (a copy).

---A response (a route's answer; the callback's first argument).
---@class luafetch.Response
---@field status integer The status (200 by default).
---@field headers table<string, string> Headers.
---@field body any The body (a copy).

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

---Declares the scenario: name, os, seed, duration, fetch policy, device, budgets, limits, defaults.
---@param options luafetch.ScenarioOptions
function scenario(options) end

---World code at a virtual time; `fn` may be an action itself: `at(minutes(5), user.home)`.
---@param time number
---@param fn function
function at(time, fn) end

---A line typed at the REPL prompt, as `.save` writes it: `fn` runs at `time` after everything else of that millisecond, with the prompt's rights.
---@param time number
---@param fn function
function typed(time, fn) end

---World code every `interval` seconds, first at `interval`.
---@param interval number
---@param fn function
function every(interval, fn) end

---`n` seconds (an integer when whole).
---@param n number
---@return number
function seconds(n) end

---`n` minutes, in seconds.
---@param n number
---@return number
function minutes(n) end

---`n` hours, in seconds.
---@param n number
---@return number
function hours(n) end

---`n` days, in seconds.
---@param n number
---@return number
function days(n) end

---Virtual seconds since the start (millisecond precision).
---@return number
function now() end

---0: no task.
UIBackgroundTaskInvalid = 0

---The smallest interval iOS allows (the profile's fetchFloor).
UIApplicationBackgroundFetchIntervalMinimum = nil ---@type any

---No background fetch.
UIApplicationBackgroundFetchIntervalNever = nil ---@type any

---A fetch or push completion: new data.
UIBackgroundFetchResultNewData = "newData"

---A fetch or push completion: nothing new.
UIBackgroundFetchResultNoData = "noData"

---A fetch or push completion: failed.
UIBackgroundFetchResultFailed = "failed"

---Posted after didFinishLaunching.
UIApplicationDidFinishLaunchingNotification = "UIApplicationDidFinishLaunchingNotification"

---Posted after didBecomeActive.
UIApplicationDidBecomeActiveNotification = "UIApplicationDidBecomeActiveNotification"

---Posted after willResignActive.
UIApplicationWillResignActiveNotification = "UIApplicationWillResignActiveNotification"

---Posted after didEnterBackground (its observers share its 5 s).
UIApplicationDidEnterBackgroundNotification = "UIApplicationDidEnterBackgroundNotification"

---Posted after willEnterForeground.
UIApplicationWillEnterForegroundNotification = "UIApplicationWillEnterForegroundNotification"

---Posted after willTerminate.
UIApplicationWillTerminateNotification = "UIApplicationWillTerminateNotification"

---Posted after the scene's willConnect (`app{ scenes = true }`).
UISceneWillConnectNotification = "UISceneWillConnectNotification"

---Posted after the scene's didBecomeActive.
UISceneDidActivateNotification = "UISceneDidActivateNotification"

---Posted after the scene's willResignActive.
UISceneWillDeactivateNotification = "UISceneWillDeactivateNotification"

---Posted after the scene's willEnterForeground.
UISceneWillEnterForegroundNotification = "UISceneWillEnterForegroundNotification"

---Posted after the scene's didEnterBackground (its observers share its 5 s).
UISceneDidEnterBackgroundNotification = "UISceneDidEnterBackgroundNotification"

---Posted after the scene's didDisconnect.
UISceneDidDisconnectNotification = "UISceneDidDisconnectNotification"

---The device, read-only.
---@class luafetch.device
---@field backgroundRefresh boolean Background App Refresh setting.
---@field debuggerAttached boolean Whether the run is as under Xcode's debugger (`--debugger`).
---@field isMultitaskingSupported boolean Whether the device multitasks (`scenario{ device = { multitasking = ... } }`).
---@field lowPowerMode boolean Low Power Mode.
device = {}

---NotificationCenter.
---@class luafetch.notifications
notifications = {}

---`fn(name, info)` for each post of `name`.
---@param name string
---@param fn fun(name: string, info: any)
function notifications.observe(name, fn) end

---Posts synchronously to the observers of `name`.
---@param name string
---@param info any
function notifications.post(name, info) end

---The app: `app{...}` declares its delegate; the same object is the UIApplication handed to every handler.
---@class luafetch.App
---@field backgroundTimeRemaining number Seconds of background time left (`math.huge` in the foreground).
---@field state "notRunning"|"inactive"|"active"|"background"|"suspended" `"notRunning"`, `"inactive"`, `"active"`, `"background"` or `"suspended"`.
---@overload fun(options: luafetch.AppOptions)
app = {}

---Asks for background time; returns a task id ≥ 1, or `UIBackgroundTaskInvalid` (0). End it with `endBackgroundTask`, at the latest in `expirationHandler`.
---@param name string|function|nil
---@param expirationHandler function|nil
---@return integer
function app:beginBackgroundTask(name, expirationHandler) end

---Ends a background task.
---@param id integer
function app:endBackgroundTask(id) end

---Background fetch (iOS 7 and later): `UIApplicationBackgroundFetchIntervalMinimum`, `...Never`, or seconds.
---@param interval number
function app:setMinimumBackgroundFetchInterval(interval) end

---What the person does (world code).
---@class luafetch.user
user = {}

---Tap the app icon: launch it, or bring it to the foreground.
function user.launch() end

---Leave the app (Home, or swipe up).
function user.home() end

---Tap the app icon (as `user.launch`).
function user.open() end

---Swipe the app away in the app switcher: terminates it and blocks background launches until the next user launch.
function user.forceQuit() end

---Cancel a continued task in the system's UI (`"*"`: the first running).
---@param identifier string
function user.cancelTask(identifier) end

---A phone call: willResignActive now, didBecomeActive `seconds` later.
---@param seconds number
function user.interrupt(seconds) end

---What iOS and the device do (world code).
---@class luafetch.system
system = {}

---Xcode's Simulate Background Fetch (a foreground app is sent to the background first).
function system.backgroundFetch() end

---The scheme option "Launch due to a background fetch event".
function system.launchForFetch() end

---A suspended app is purged without notice.
function system.memoryPressure() end

---iOS reclaims the app's background scene (`scene.didDisconnect`).
function system.disconnectScene() end

---Low Power Mode on or off.
---@param on boolean
function system.setLowPowerMode(on) end

---Background App Refresh on or off.
---@param on boolean
function system.setBackgroundRefresh(on) end

---A push through APNs; content-available pushes wake or launch the app in the background.
---@param userInfo table
---@param options luafetch.PushOptions|nil
function system.remoteNotification(userInfo, options) end

---Connectivity on or off (airplane mode).
---@param on boolean
function system.setNetwork(on) end

---Charging on or off; nil: as the idle windows say.
---@param on boolean|nil
function system.setCharging(on) end

---Device idle on or off; nil: as the idle windows say.
---@param on boolean|nil
function system.setDeviceIdle(on) end

---Debugger command: launch a pending BGTask request now (`"*"`: the one submitted first).
---@param identifier string
function system.launchTask(identifier) end

---Debugger command: expire a running BGTask now (`"*"`: the one launched first).
---@param identifier string
function system.expireTask(identifier) end

---Every fake server is down from now for `seconds`.
---@param seconds number
function system.serverOutage(seconds) end

---App code: `fn` runs on the main thread `seconds` from now (a one-shot timer).
---@param seconds number
---@param fn function
---@return luafetch.Timer
function after(seconds, fn) end

---App code: the calling thread computes for `seconds` of virtual time (the main thread blocks; a background block continues later).
---@param seconds number
function work(seconds) end

---App-side timers (main thread).
---@class luafetch.timer
timer = {}

---`fn` every `seconds` until invalidated (not while the app is suspended).
---@param seconds number
---@param fn function
---@return luafetch.Timer
function timer.every(seconds, fn) end

---`fn` once, `seconds` from now.
---@param seconds number
---@param fn function
---@return luafetch.Timer
function timer.after(seconds, fn) end

---UserDefaults: property lists that outlive the process.
---@class luafetch.defaults
defaults = {}

---The value stored under `key` (a copy), or nil.
---@param key string
---@return any
function defaults.get(key) end

---Stores a copy of `value` (a property list) under `key`.
---@param key string
---@param value any
function defaults.set(key, value) end

---The app group's shared container.
---@class luafetch.sharedContainer
sharedContainer = {}

---Takes a file lock in the shared container; suspending while holding it is 0xdead10cc.
---@param name string
---@return luafetch.FileLock
function sharedContainer.lock(name) end

---Grand Central Dispatch: queues, locks, groups and semaphores.
---@class luafetch.dispatch
dispatch = {}

---`fn` on the main queue, as soon as the main thread is free.
---@param fn function
function dispatch.main(fn) end

---`fn` on a background thread of its own.
---@param fn function
function dispatch.global(fn) end

---`fn` on a background thread of its own, `seconds` from now (while the app is suspended it waits: it runs when the process next runs code).
---@param seconds number
---@param fn function
function dispatch.asyncAfter(seconds, fn) end

---A serial queue, or with `{ concurrent = true }` a concurrent one.
---@param label string
---@param options luafetch.QueueOptions|nil
---@return luafetch.Queue
function dispatch.queue(label, options) end

---A mutex.
---@return luafetch.Mutex
function dispatch.lock() end

---A dispatch group: enter and leave around work, notify or wait for it all.
---@return luafetch.Group
function dispatch.group() end

---A counting semaphore starting at `value` (0 or more).
---@param value integer
---@return luafetch.Semaphore
function dispatch.semaphore(value) end

---An app-refresh request (about 30 s of work).
---@param identifier string
---@return luafetch.BGTaskRequest
function BGAppRefreshTaskRequest(identifier) end

---A processing request (minutes, while the device is idle and charging).
---@param identifier string
---@return luafetch.BGTaskRequest
function BGProcessingTaskRequest(identifier) end

---A continued-processing request (iOS 26: started from the foreground, with progress).
---@param identifier string
---@param options luafetch.ContinuedProcessingOptions
---@return luafetch.BGTaskRequest
function BGContinuedProcessingTaskRequest(identifier, options) end

---BackgroundTasks (iOS 13 and later).
---@class luafetch.BGTaskScheduler
BGTaskScheduler = {}

---The launch handler for an identifier (before didFinishLaunching returns; the identifier must be permitted); its launch and expiration handlers run on `queue` (nil: the scheduler's serial background queue).
---@param identifier string
---@param handler fun(task: luafetch.BGTask)
---@param queue "main"|"global"|luafetch.Queue|nil
---@return boolean
function BGTaskScheduler.register(identifier, handler, queue) end

---Submits a request; `false, reason` when refused.
---@param request luafetch.BGTaskRequest
---@return boolean, string|nil
function BGTaskScheduler.submit(request) end

---Cancels the pending request with this identifier.
---@param identifier string
function BGTaskScheduler.cancel(identifier) end

---Cancels every pending request.
function BGTaskScheduler.cancelAll() end

---The pending requests (copies).
---@return luafetch.BGTaskRequest[]
function BGTaskScheduler.pendingTaskRequests() end

---Background URL sessions (docs/RULES.md).
---@class luafetch.urlSession
urlSession = {}

---The background session with this identifier (the same object for the same identifier).
---@param identifier string
---@return luafetch.URLSession
function urlSession.background(identifier) end

---Requests from the app to fake servers (callbacks run later in virtual time).
---@class luafetch.http
http = {}

---GET `url`; `callback(response, err)`.
---@param url string
---@param callback fun(response: luafetch.Response|nil, err: luafetch.NetworkError|nil)
---@return integer
function http.get(url, callback) end

---A request with a method, headers, a body and a timeout; `callback(response, err)`.
---@param request luafetch.RequestOptions
---@param callback fun(response: luafetch.Response|nil, err: luafetch.NetworkError|nil)
---@return integer
function http.request(request, callback) end

---A fake server: `server "api.example.test" { latency = 0.4, jitter = 0.3, failureRate = 0.02 }`.
---@param host string
---@return fun(options: luafetch.ServerOptions): luafetch.Server
function server(host) end

---Expectations, checked at the end of the run (or at a time).
---@class luafetch.expect
expect = {}

---No violation at all (expected codes aside) by the end.
function expect.noViolations() end

---At least one violation with `code` (exactly `count` when given); these do not fail the run.
---@param code string
---@param count integer|nil
function expect.violation(code, count) end

---`fn()` is truthy at the end of the run.
---@param description string
---@param fn fun(): boolean
function expect.that(description, fn) end

---`fn()` is truthy at `time`.
---@param time number
---@param description string
---@param fn fun(): boolean
function expect.at(time, description, fn) end


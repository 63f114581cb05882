// The iOS and Foundation APIs the translation maps onto the scenario API (SPEC 18.3), one row
// per API: UIApplication's background tasks and state, BGTaskScheduler and its requests and
// tasks, Dispatch (queues, groups, semaphores, work items), OperationQueue, Timer, NSLock,
// Thread.sleep, Swift concurrency (`Task`, `Task.sleep`, continuations, `MainActor.run`),
// NotificationCenter (selector, closure and Combine `publisher(for:)` observers), UserDefaults,
// URLSession (shared data tasks to the fake servers, background sessions and their delegates),
// Date, logging and Swift's library functions. A row that does not apply returns nil and the
// call becomes a stub. Adding an API is adding a row.
import SwiftSyntax

enum APIs {
    /// Types whose members the table knows (a member it lacks is a stub named after the type).
    static let knownTypes: Set<String> = [
        "UIApplication", "UIBackgroundTaskIdentifier", "BGTaskScheduler", "BGTask", "BGAppRefreshTask", "BGProcessingTask",
        "BGAppRefreshTaskRequest", "BGProcessingTaskRequest", "BGTaskRequest", "BGContinuedProcessingTaskRequest", "BGContinuedProcessingTask",
        "DispatchQueue", "DispatchGroup", "DispatchSemaphore", "DispatchWorkItem", "DispatchTime", "DispatchTimeInterval",
        "OperationQueue", "Operation", "BlockOperation", "Timer", "NSLock", "NSRecursiveLock", "Thread", "Task", "MainActor",
        "NotificationCenter", "Notification", "NSNotification", "UserDefaults", "Date", "URLSession", "URLSessionConfiguration",
        "URLSessionTask", "URLSessionDataTask", "URLSessionDownloadTask", "URLSessionUploadTask", "URL", "URLRequest",
        "FileManager", "ProcessInfo", "Continuation", "Publisher", "Logger", "UIScene", "UIWindowScene", "ScenePhase",
        "UIApplication.State", "RunLoop", "Bundle", "UIDevice", "Calendar",
        "NSPersistentContainer", "NSPersistentCloudKitContainer",
        "TaskGroup", "ThrowingTaskGroup", "DiscardingTaskGroup", "ThrowingDiscardingTaskGroup",
        "DispatchSource", "DispatchSourceTimer", "Progress",
    ]

    /// Value types the runtime answers for by their Lua values (strings, numbers, collections).
    static let builtinValueTypes: Set<String> = [
        "String", "Substring", "Int", "Int64", "Int32", "UInt", "Double", "Float", "CGFloat", "TimeInterval", "Bool", "Array", "Dictionary",
        "Set", "Range", "Character", "Data", "URL",
    ]

    static func builtinMemberType(_ t: TypeName, _ name: String) -> TypeName? {
        if t.name == "URL" {
            switch name {
            case "path", "absoluteString", "lastPathComponent", "pathExtension", "relativePath": return TypeName("String")
            case "host", "scheme": return TypeName("String", optional: true)
            case "deletingLastPathComponent", "deletingPathExtension": return TypeName("URL")
            case "isFileURL": return TypeName("Bool")
            default: break
            }
        }
        switch name {
        case "count", "startIndex", "endIndex": return TypeName("Int")
        case "isEmpty": return TypeName("Bool")
        case "first", "last": return t.element.map { TypeName($0, optional: true) }
        case "keys", "values": return TypeName("Array")
        case "timeIntervalSinceNow", "timeIntervalSince1970": return TypeName("Double")
        default: return nil
        }
    }

    static func builtinCallType(_ t: TypeName, _ name: String) -> TypeName? {
        if t.name == "URL", ["appendingPathComponent", "appending", "appendingPathExtension", "deletingLastPathComponent",
                             "deletingPathExtension"].contains(name) {
            return TypeName("URL")
        }
        switch name {
        case "contains", "hasPrefix", "hasSuffix", "isEmpty", "allSatisfy": return TypeName("Bool")
        case "map", "filter", "compactMap", "sorted", "reversed", "prefix", "suffix", "dropFirst", "dropLast", "split", "components": return TypeName("Array", element: name == "filter" || name == "sorted" ? t.element : nil)
        case "lowercased", "uppercased", "joined", "trimmingCharacters", "replacingOccurrences", "appending": return TypeName("String")
        case "firstIndex", "lastIndex": return TypeName("Int", optional: true)
        case "first", "last", "min", "max", "randomElement", "popLast": return t.element.map { TypeName($0, optional: true) }
        case "addingTimeInterval": return TypeName("Date")
        case "timeIntervalSince": return TypeName("Double")
        default: return nil
        }
    }

    /// Bare names with a value (`UIBackgroundTaskInvalid` as Objective-C spelled it).
    static func globalValue(_ name: String) -> LuaExpr? {
        switch name {
        case "UIBackgroundTaskInvalid": return LuaExpr("UIBackgroundTaskInvalid", TypeName("UIBackgroundTaskIdentifier"))
        case "NSEC_PER_SEC": return LuaExpr("1000000000", TypeName("Int"))
        case "NSEC_PER_MSEC": return LuaExpr("1000000", TypeName("Int"))
        case "USEC_PER_SEC": return LuaExpr("1000000", TypeName("Int"))
        default: return nil
        }
    }

    /// The notification names iOS posts, by their Swift and Objective-C spellings.
    static func notificationName(_ name: String) -> String? {
        let bare = name.hasPrefix("UIApplication") ? String(name.dropFirst("UIApplication".count)) : name
        let app: [String: String] = [
            "didFinishLaunchingNotification": "UIApplicationDidFinishLaunchingNotification",
            "didBecomeActiveNotification": "UIApplicationDidBecomeActiveNotification",
            "willResignActiveNotification": "UIApplicationWillResignActiveNotification",
            "didEnterBackgroundNotification": "UIApplicationDidEnterBackgroundNotification",
            "willEnterForegroundNotification": "UIApplicationWillEnterForegroundNotification",
            "willTerminateNotification": "UIApplicationWillTerminateNotification",
            "DidFinishLaunching": "UIApplicationDidFinishLaunchingNotification",
            "DidBecomeActive": "UIApplicationDidBecomeActiveNotification",
            "WillResignActive": "UIApplicationWillResignActiveNotification",
            "DidEnterBackground": "UIApplicationDidEnterBackgroundNotification",
            "WillEnterForeground": "UIApplicationWillEnterForegroundNotification",
            "WillTerminate": "UIApplicationWillTerminateNotification",
        ]
        return app[bare]
    }

    static func sceneNotificationName(_ name: String) -> String? {
        let scene: [String: String] = [
            "willConnectNotification": "UISceneWillConnectNotification",
            "didActivateNotification": "UISceneDidActivateNotification",
            "willDeactivateNotification": "UISceneWillDeactivateNotification",
            "willEnterForegroundNotification": "UISceneWillEnterForegroundNotification",
            "didEnterBackgroundNotification": "UISceneDidEnterBackgroundNotification",
            "didDisconnectNotification": "UISceneDidDisconnectNotification",
        ]
        return scene[name]
    }

    // MARK: - Members (values)

    /// `Type.name` or `value.name` of a known API (`base.code` is the receiver's Lua code).
    static func member(_ type: String, _ name: String, translator t: Translator, base: LuaExpr, node: Syntax) -> LuaExpr? {
        let recv = base.code
        switch (type, name) {
        case ("UIApplication", "shared"): return LuaExpr("swift.app", TypeName("UIApplication"))
        case ("UUID", "uuidString"): return LuaExpr("swift.s(\(recv))", TypeName("String"))
        case ("UIApplication", "delegate"): return LuaExpr("swift.appDelegate()", TypeName("UIApplicationDelegate", optional: true))
        case ("UIApplication", "backgroundTimeRemaining"): return LuaExpr("\(recv).backgroundTimeRemaining", TypeName("Double"))
        case ("UIApplication", "applicationState"): return LuaExpr("swift.appState()", TypeName("UIApplication.State"))
        case ("UIApplication", "backgroundFetchIntervalMinimum"): return LuaExpr("UIApplicationBackgroundFetchIntervalMinimum", TypeName("Double"))
        case ("UIApplication", "backgroundFetchIntervalNever"): return LuaExpr("UIApplicationBackgroundFetchIntervalNever", TypeName("Double"))
        case ("UIApplication", _) where notificationName(name) != nil: return LuaExpr(Literals.quote(notificationName(name)!), TypeName("Notification.Name"))
        case ("UIScene", _), ("UIWindowScene", _):
            if let n = sceneNotificationName(name) { return LuaExpr(Literals.quote(n), TypeName("Notification.Name")) }
            return nil
        case ("UIBackgroundTaskIdentifier", "rawValue"): return LuaExpr(recv, TypeName("Int"))
        case ("UIBackgroundTaskIdentifier", "invalid"): return LuaExpr("UIBackgroundTaskInvalid", TypeName("UIBackgroundTaskIdentifier"))
        case ("UIApplication.State", _), ("ScenePhase", _): return LuaExpr("swift.case(\(Literals.quote(name)))", TypeName(type))
        case ("BGTaskScheduler", "shared"): return LuaExpr("BGTaskScheduler", TypeName("BGTaskScheduler"))
        case ("BGContinuedProcessingTask", "progress"): return LuaExpr("swift.taskProgress(\(recv))", TypeName("Progress"))
        case ("Progress", "completedUnitCount"), ("Progress", "totalUnitCount"): return LuaExpr("\(recv).\(name)", TypeName("Int"))
        case ("Progress", "fractionCompleted"): return LuaExpr("\(recv).fractionCompleted", TypeName("Double"))
        case ("Progress", "isFinished"), ("Progress", "isCancelled"): return LuaExpr("\(recv).\(name)", TypeName("Bool"))
        case ("BGTask", let f), ("BGAppRefreshTask", let f), ("BGProcessingTask", let f), ("BGContinuedProcessingTask", let f):
            if ["identifier", "expirationHandler"].contains(f) { return LuaExpr("\(recv).\(f)") }
            return nil
        case ("BGAppRefreshTaskRequest", let f), ("BGProcessingTaskRequest", let f), ("BGTaskRequest", let f), ("BGContinuedProcessingTaskRequest", let f):
            if ["identifier", "earliestBeginDate", "requiresNetworkConnectivity", "requiresExternalPower", "title", "subtitle"].contains(f) {
                return LuaExpr("\(recv).\(f)")
            }
            return nil
        case ("DispatchQueue", "main"): return LuaExpr("\"main\"", TypeName("DispatchQueue"))
        case ("OperationQueue", "main"): return LuaExpr("swift.operationQueue(true)", TypeName("OperationQueue"))
        case ("OperationQueue", "operations"): return LuaExpr("\(recv).operations", TypeName("Array", element: "Operation"))
        case ("OperationQueue", "operationCount"): return LuaExpr("\(recv).operationCount", TypeName("Int"))
        case ("OperationQueue", "maxConcurrentOperationCount"), ("OperationQueue", "isSuspended"), ("OperationQueue", "name"),
             ("OperationQueue", "qualityOfService"), ("OperationQueue", "underlyingQueue"):
            return LuaExpr("\(recv).\(name)")
        case ("Operation", let f), ("BlockOperation", let f):
            if ["isCancelled", "isFinished", "isExecuting", "isReady"].contains(f) { return LuaExpr("\(recv).\(f)", TypeName("Bool")) }
            if ["completionBlock", "name", "queuePriority", "qualityOfService"].contains(f) { return LuaExpr("\(recv).\(f)") }
            return nil
        case ("OperationQueue", "current"): return LuaExpr("swift.operationQueue(true)", TypeName("OperationQueue"))
        case ("RunLoop", "main"), ("RunLoop", "current"): return LuaExpr("\"main\"", TypeName("RunLoop"))
        case ("NotificationCenter", "default"): return LuaExpr("swift.notificationCenter", TypeName("NotificationCenter"))
        case ("UserDefaults", "standard"): return LuaExpr("swift.userDefaults", TypeName("UserDefaults"))
        case ("Date", "timeIntervalSince1970"): return LuaExpr("(\(recv) + 1379462400)", TypeName("Double"))
        case ("Date", "timeIntervalSinceNow"): return LuaExpr("(\(recv) - now())", TypeName("Double"))
        case ("Date", "timeIntervalSinceReferenceDate"): return LuaExpr("(\(recv) + 401155200)", TypeName("Double"))
        case ("TaskGroup", "isEmpty"), ("ThrowingTaskGroup", "isEmpty"), ("TaskGroup", "isCancelled"), ("ThrowingTaskGroup", "isCancelled"):
            return LuaExpr("\(recv):\(name)()", TypeName("Bool"))
        case ("Calendar", "current"), ("Calendar", "autoupdatingCurrent"): return LuaExpr("swift.calendar", TypeName("Calendar"))
        case ("Int", "max"), ("Int64", "max"): return LuaExpr("math.maxinteger", TypeName("Int"))
        case ("Int", "min"), ("Int64", "min"): return LuaExpr("math.mininteger", TypeName("Int"))
        case ("Double", "infinity"), ("TimeInterval", "infinity"): return LuaExpr("math.huge", TypeName("Double"))
        case ("Double", "greatestFiniteMagnitude"), ("TimeInterval", "greatestFiniteMagnitude"): return LuaExpr("1.7976931348623157e308", TypeName("Double"))
        case ("Double", "pi"), ("CGFloat", "pi"): return LuaExpr("math.pi", TypeName("Double"))
        case ("Date", "distantFuture"): return LuaExpr("math.huge", TypeName("Date"))
        case ("Date", "distantPast"): return LuaExpr("-math.huge", TypeName("Date"))
        case ("Date", "now"): return LuaExpr("swift.now()", TypeName("Date"))
        case ("DispatchTime", "distantFuture"): return LuaExpr("math.huge", TypeName("DispatchTime"))
        case ("Thread", "isMainThread"): return LuaExpr("swift.isMainThread()", TypeName("Bool"))
        case ("Task", "isCancelled"):
            // `Task.isCancelled` (the running task's) or `t.isCancelled` (a handle's).
            if base.apiType != nil || base.code.hasPrefix("swift.opaque(") { return LuaExpr("swift.isCancelled()", TypeName("Bool")) }
            return LuaExpr("swift.taskCancelled(\(recv))", TypeName("Bool"))
        case ("Task", "value"): return LuaExpr("swift.taskValue(\(recv))")
        case ("Task", "result"): return LuaExpr("swift.taskResult(\(recv))", TypeName("Result"))
        case ("URLSession", "shared"): return LuaExpr("swift.sharedSession", TypeName("URLSession"))
        case ("FileManager", "default"): return LuaExpr("swift.opaque(\"FileManager\")", TypeName("FileManager"))
        case ("ProcessInfo", "processInfo"): return LuaExpr("swift.opaque(\"ProcessInfo\")", TypeName("ProcessInfo"))
        case ("ProcessInfo", "systemUptime"): return LuaExpr("swift.now()", TypeName("Double"))
        case ("ProcessInfo", "isLowPowerModeEnabled"): return LuaExpr("device.lowPowerMode", TypeName("Bool"))
        case ("UIApplication", "backgroundRefreshStatus"):
            return LuaExpr("swift.case(device.backgroundRefresh and \"available\" or \"denied\")", TypeName("UIBackgroundRefreshStatus"))
        case ("UIApplication", "isProtectedDataAvailable"): return LuaExpr("true", TypeName("Bool"))
        case ("URLSessionTask", _), ("URLSessionDataTask", _), ("URLSessionDownloadTask", _), ("URLSessionUploadTask", _):
            let fields: [String: TypeName?] = ["taskIdentifier": TypeName("Int"), "originalRequest": TypeName("URLRequest", optional: true),
                                               "currentRequest": TypeName("URLRequest", optional: true), "state": nil, "response": nil,
                                               "taskDescription": TypeName("String", optional: true), "error": nil,
                                               "countOfBytesReceived": TypeName("Int"), "countOfBytesSent": TypeName("Int"),
                                               "countOfBytesExpectedToReceive": TypeName("Int")]
            guard let type = fields[name] else { return nil }
            return LuaExpr("\(recv).\(name)", type)
        case ("URLRequest", "url"): return LuaExpr("\(recv).url", TypeName("URL", optional: true))
        case ("URLRequest", "httpMethod"): return LuaExpr("\(recv).httpMethod", TypeName("String", optional: true))
        case ("URLSessionConfiguration", "identifier"): return LuaExpr("\(recv).identifier", TypeName("String", optional: true))
        case ("URLSession", "configuration"): return LuaExpr("\(recv).configuration", TypeName("URLSessionConfiguration"))
        case ("Notification", "name"), ("NSNotification", "name"): return LuaExpr("\(recv).name", TypeName("Notification.Name"))
        case ("Notification", "userInfo"): return LuaExpr("\(recv).userInfo", TypeName("Dictionary", optional: true))
        case ("Notification.Name", _), ("NSNotification.Name", _):
            if let n = notificationName(name) { return LuaExpr(Literals.quote(n), TypeName("Notification.Name")) }
            return nil
        default: return nil
        }
    }

    // MARK: - Calls on a receiver

    static func call(_ type: String, _ name: String, _ c: CallContext) -> LuaExpr? {
        let t = c.t
        let recv = c.receiver
        switch (type, name) {
        // UIApplication (SPEC 4.3, 4.4)
        case ("UIApplication", "beginBackgroundTask"):
            let handler = c.arg("expirationHandler").map { c.code($0) } ?? c.trailing.map { c.code($0) } ?? "nil"
            if let n = c.arg("withName") { return LuaExpr("\(recv):beginBackgroundTask(\(c.code(n)), \(handler))", TypeName("UIBackgroundTaskIdentifier")) }
            return LuaExpr("\(recv):beginBackgroundTask(\(handler))", TypeName("UIBackgroundTaskIdentifier"))
        case ("UIApplication", "endBackgroundTask"):
            return LuaExpr("\(recv):endBackgroundTask(\(c.code(c.args.first)))")
        case ("UIApplication", "setMinimumBackgroundFetchInterval"):
            return LuaExpr("\(recv):setMinimumBackgroundFetchInterval(\(c.code(c.args.first)))")
        case ("UIApplication", "registerForRemoteNotifications"), ("UIApplication", "unregisterForRemoteNotifications"):
            return LuaExpr("nil")
        // BGTaskScheduler (SPEC 13)
        case ("BGTaskScheduler", "register"):
            guard let id = c.arg("forTaskWithIdentifier") else { return nil }
            let handler = c.code(c.arg("launchHandler") ?? c.trailing, types: [TypeName("BGTask")])
            let queue = c.arg("using").map { q -> String in
                let code = c.code(q, expect: TypeName("DispatchQueue"))
                return code == "nil" ? "" : ", \(code)"
            } ?? ""
            if let idText = t.constantString(id.syntax) { t.registered.append((idText, t.location(c.node))) } else { t.registersComputedIdentifier = true }
            return LuaExpr("BGTaskScheduler.register(\(c.code(id)), \(handler)\(queue))", TypeName("Bool"))
        case ("BGTaskScheduler", "submit"):
            return LuaExpr("swift.bgSubmit(\(c.code(c.args.first)))")
        case ("BGTaskScheduler", "cancel"):
            return LuaExpr("BGTaskScheduler.cancel(\(c.code(c.args.first)))")
        case ("BGTaskScheduler", "cancelAllTaskRequests"):
            return LuaExpr("BGTaskScheduler.cancelAll()")
        case ("BGTaskScheduler", "getPendingTaskRequests"):
            if c.awaited || c.args.isEmpty { return LuaExpr("swift.array(BGTaskScheduler.pendingTaskRequests())", TypeName("Array")) }
            return LuaExpr("(\(c.code(c.trailing ?? c.args.first)))(swift.array(BGTaskScheduler.pendingTaskRequests()))")
        case ("BGTaskScheduler", "pendingTaskRequests"):
            return LuaExpr("swift.array(BGTaskScheduler.pendingTaskRequests())", TypeName("Array"))
        case ("BGTask", "setTaskCompleted"), ("BGAppRefreshTask", "setTaskCompleted"), ("BGProcessingTask", "setTaskCompleted"),
             ("BGContinuedProcessingTask", "setTaskCompleted"):
            return LuaExpr("\(recv):setTaskCompleted(\(c.code("success")))")
        // Dispatch
        case ("DispatchQueue", "global"):
            return LuaExpr("\"global\"", TypeName("DispatchQueue"))
        case ("DispatchQueue", "async"):
            let block = c.code(c.arg("execute") ?? c.trailing ?? c.args.last)
            let barrier = c.arg("flags").map { $0.syntax.trimmedDescription.contains("barrier") } ?? false
            if let g = c.arg("group") { return LuaExpr("swift.qAsync(\(recv), \(block), \(barrier), \(c.code(g)))") }
            if recv == "\"main\"" { return LuaExpr("dispatch.main(\(wrapBlock(block)))") }
            if recv == "\"global\"" { return LuaExpr("dispatch.global(\(wrapBlock(block)))") }
            return LuaExpr("swift.qAsync(\(recv), \(block)\(barrier ? ", true" : ""))")
        case ("DispatchQueue", "asyncAfter"):
            let block = c.code(c.arg("execute") ?? c.trailing ?? c.args.last)
            let delay = deadline(c.arg("deadline") ?? c.arg("wallDeadline") ?? c.args.first, c)
            if recv == "\"main\"" { return LuaExpr("after(\(delay), \(wrapBlock(block)))") }
            return LuaExpr("swift.qAsyncAfter(\(recv), \(delay), \(block))")
        case ("DispatchQueue", "sync"), ("DispatchQueue", "asyncAndWait"):
            return LuaExpr("swift.qSync(\(recv), \(c.code(c.arg("execute") ?? c.trailing ?? c.args.last)))")
        case ("DispatchQueue", "concurrentPerform"):
            return LuaExpr("swift.concurrentPerform(\(c.code("iterations")), \(c.code(c.arg("execute") ?? c.trailing)))")
        case ("DispatchGroup", "enter"): return LuaExpr("\(recv):enter()")
        case ("DispatchGroup", "leave"): return LuaExpr("\(recv):leave()")
        case ("DispatchGroup", "wait"):
            let timeout = c.arg("timeout").map { deadline($0, c) }
            return LuaExpr("swift.groupWait(\(recv)\(timeout.map { ", \($0)" } ?? ""))")
        case ("DispatchGroup", "notify"):
            let block = c.code(c.arg("execute") ?? c.trailing)
            return LuaExpr("\(recv):notify(\(block), \(c.code("queue", expect: TypeName("DispatchQueue"))))")
        case ("DispatchSemaphore", "wait"):
            let timeout = c.arg("timeout").map { deadline($0, c) }
            return LuaExpr("swift.semaphoreWait(\(recv)\(timeout.map { ", \($0)" } ?? ""))")
        case ("DispatchSemaphore", "signal"): return LuaExpr("\(recv):signal()")
        case ("DispatchWorkItem", "cancel"), ("DispatchWorkItem", "perform"): return LuaExpr("\(recv).\(name)()")
        case ("DispatchWorkItem", "notify"): return LuaExpr("swift.qAsync(\(c.code("queue", expect: TypeName("DispatchQueue"))), \(c.code(c.arg("execute") ?? c.trailing)))")
        // Task groups (the runtime's)
        case ("TaskGroup", let m), ("ThrowingTaskGroup", let m), ("DiscardingTaskGroup", let m), ("ThrowingDiscardingTaskGroup", let m):
            switch m {
            case "addTask", "addTaskUnlessCancelled":
                return LuaExpr("\(recv):\(m)(\(c.code(c.arg("operation") ?? c.trailing ?? c.args.last)))", TypeName("Bool"))
            case "next", "nextResult", "waitForAll", "cancelAll": return LuaExpr("\(recv):\(m)()")
            default: return nil
            }
        // Core Data: loading the stores of a container is synchronous (the default for SQLite
        // stores) and, in the app's own container, does not fail: the closure runs at once with no
        // error. Everything else of Core Data is a stub.
        case ("NSPersistentContainer", "loadPersistentStores"), ("NSPersistentCloudKitContainer", "loadPersistentStores"):
            return LuaExpr("(\(c.code(c.arg("completionHandler") ?? c.trailing ?? c.args.first)))(swift.opaque(\"NSPersistentStoreDescription\"), nil)")
        // OperationQueue and Operation (the runtime's, SPEC 18.3)
        case ("OperationQueue", "addOperation"), ("OperationQueue", "addBarrierBlock"):
            return LuaExpr("\(recv):addOperation(\(c.code(c.arg("block") ?? c.trailing ?? c.args.first)))")
        case ("OperationQueue", "addOperations"): return LuaExpr("\(recv):addOperations(\(c.code(c.args.first)))")
        case ("OperationQueue", "cancelAllOperations"): return LuaExpr("\(recv):cancelAllOperations()")
        case ("OperationQueue", "waitUntilAllOperationsAreFinished"): return LuaExpr("nil")
        case ("Operation", "cancel"), ("BlockOperation", "cancel"), ("Operation", "start"), ("BlockOperation", "start"):
            return LuaExpr("\(recv):\(name)()")
        case ("Operation", "addDependency"), ("BlockOperation", "addDependency"), ("Operation", "removeDependency"),
             ("BlockOperation", "removeDependency"), ("Operation", "waitUntilFinished"), ("BlockOperation", "waitUntilFinished"):
            return LuaExpr("nil")
        case ("BlockOperation", "addExecutionBlock"): return LuaExpr("\(recv):addExecutionBlock(\(c.code(c.trailing ?? c.args.first)))")
        // Locks and threads
        case ("NSLock", "lock"), ("NSRecursiveLock", "lock"): return LuaExpr("\(recv):lock()")
        case ("NSLock", "unlock"), ("NSRecursiveLock", "unlock"): return LuaExpr("\(recv):unlock()")
        case ("NSLock", "try"), ("NSRecursiveLock", "try"): return LuaExpr("\(recv):tryLock()", TypeName("Bool"))
        case ("NSLock", "withLock"), ("NSRecursiveLock", "withLock"): return LuaExpr("swift.withLock(\(recv), \(c.code(c.trailing ?? c.args.first)))")
        case ("Thread", "sleep"):
            if let s = c.arg("forTimeInterval") { return LuaExpr("work(\(c.code(s)))") }
            if let u = c.arg("until") { return LuaExpr("work(math.max(0, \(c.code(u)) - now()))") }
            return nil
        // Timers
        case ("Timer", "scheduledTimer"):
            let interval = c.code(c.arg("withTimeInterval") ?? c.arg("timeInterval"))
            let repeats = c.code("repeats")
            if let block = c.arg("block") ?? c.trailing { return LuaExpr("swift.timer(\(interval), \(repeats), \(c.code(block)))", TypeName("Timer")) }
            if let sel = c.arg("selector") {
                return LuaExpr("swift.timer(\(interval), \(repeats), \(c.code(sel)))", TypeName("Timer"))
            }
            return nil
        case ("Timer", "invalidate"): return LuaExpr("swift.invalidate(\(recv))")
        case ("Timer", "fire"): return nil
        // Swift concurrency
        case ("Task", "sleep"):
            if let ns = c.arg("nanoseconds") { return LuaExpr("swift.taskSleep(\(c.code(ns)) / 1e9)") }
            if let s = c.arg("for") { return LuaExpr("swift.taskSleep(\(duration(s, c)))") }
            if let s = c.arg("seconds") { return LuaExpr("swift.taskSleep(\(c.code(s)))") }
            if let s = c.arg("until") { return LuaExpr("swift.taskSleep(math.max(0, \(c.code(s)) - now()))") }
            if let first = c.args.first { return LuaExpr("swift.taskSleep(\(c.code(first)) / 1e9)") }
            return LuaExpr("swift.taskSleep(0)")
        case ("Task", "detached"):
            return LuaExpr("swift.task(\(c.code(c.trailing ?? c.args.last)), false)", TypeName("Task"))
        case ("Task", "checkCancellation"): return LuaExpr("swift.checkCancellation()")
        case ("Task", "yield"): return LuaExpr("swift.sleep(0)")
        case ("Task", "cancel"): return LuaExpr("\(recv):cancel()")
        case ("MainActor", "run"): return LuaExpr("swift.onMain(\(c.code(c.arg("body") ?? c.trailing ?? c.args.first)))")
        case ("Continuation", "resume"):
            if let v = c.arg("returning") { return LuaExpr("\(recv):resume_returning(\(c.code(v)))") }
            if let e = c.arg("throwing") { return LuaExpr("\(recv):resume_throwing(\(c.code(e)))") }
            if let r = c.arg("with") { return LuaExpr("\(recv):resume_with(\(c.code(r)))") }
            return LuaExpr("\(recv):resume()")
        // NotificationCenter (SPEC 4.1)
        case ("NotificationCenter", "addObserver"):
            if let n = c.arg("forName") {
                return LuaExpr("swift.observe(\(c.code(n)), \(c.code(c.arg("using") ?? c.trailing, types: [TypeName("Notification")])))")
            }
            if let sel = c.arg("selector"), let n = c.arg("name") {
                return LuaExpr("swift.observe(\(c.code(n)), \(c.code(sel)))")
            }
            return nil
        case ("NotificationCenter", "removeObserver"): return LuaExpr("nil")
        case ("NotificationCenter", "post"):
            return LuaExpr("swift.post(\(c.code(c.arg("name") ?? c.args.first)), \(c.code("userInfo")))")
        case ("NotificationCenter", "publisher"):
            return LuaExpr("swift.publisher(\(c.code(c.arg("for") ?? c.args.first)))", TypeName("Publisher"))
        case ("NotificationCenter", "notifications"):
            return LuaExpr("swift.notificationSequence(\(c.code(c.arg("named") ?? c.args.first)))", TypeName("NotificationSequence"))
        // Timer.publish and dispatch timer sources
        case ("Timer", "publish"):
            return LuaExpr("swift.timerPublisher(\(c.code(c.arg("every") ?? c.args.first)))", TypeName("Publisher"))
        case ("DispatchSource", "makeTimerSource"):
            return LuaExpr("swift.dispatchTimer(\(c.arg("queue").map { c.code($0, expect: TypeName("DispatchQueue")) } ?? "\"global\""))", TypeName("DispatchSourceTimer"))
        case ("DispatchSourceTimer", "schedule"):
            let delay = deadline(c.arg("deadline") ?? c.arg("wallDeadline") ?? c.args.first, c)
            let repeating = c.arg("repeating").map { duration($0, c) } ?? "nil"
            return LuaExpr("\(recv):schedule(\(delay), \(repeating))")
        case ("DispatchSourceTimer", "setEventHandler"), ("DispatchSourceTimer", "setCancelHandler"):
            return LuaExpr("\(recv):\(name)(\(c.code(c.arg("handler") ?? c.trailing ?? c.args.first)))")
        case ("DispatchSourceTimer", "resume"), ("DispatchSourceTimer", "activate"), ("DispatchSourceTimer", "suspend"),
             ("DispatchSourceTimer", "cancel"):
            return LuaExpr("\(recv):\(name)()")
        case ("Publisher", _):
            let argCodes = c.args.map { a in c.code(a, types: [TypeName("Notification")]) }
            return LuaExpr("swift.call(0, \(([recv, Literals.quote(name), "nil"] + argCodes).joined(separator: ", ")))", TypeName("Publisher"))
        // UserDefaults (SPEC 12.1)
        case ("UserDefaults", "set"), ("UserDefaults", "setValue"):
            return LuaExpr("swift.defaultsSet(\(c.code("forKey")), \(c.code(c.args.first)))")
        case ("UserDefaults", "removeObject"):
            return LuaExpr("swift.defaultsSet(\(c.code("forKey")), nil)")
        case ("UserDefaults", "bool"), ("UserDefaults", "integer"), ("UserDefaults", "double"), ("UserDefaults", "float"),
             ("UserDefaults", "string"), ("UserDefaults", "object"), ("UserDefaults", "array"), ("UserDefaults", "stringArray"),
             ("UserDefaults", "dictionary"), ("UserDefaults", "data"), ("UserDefaults", "url"), ("UserDefaults", "value"):
            let kinds = ["bool": "Bool", "integer": "Int", "double": "Double", "float": "Double", "string": "String", "stringArray": "Array",
                         "array": "Array", "dictionary": "Dictionary"]
            let type = kinds[name].map { TypeName($0, optional: !["bool", "integer", "double", "float"].contains(name)) }
            return LuaExpr("swift.defaultsGet(\(c.code(c.arg("forKey") ?? c.args.first)), \(Literals.quote(name)))", type)
        case ("UserDefaults", "register"): return LuaExpr("swift.defaultsRegister(\(c.code("defaults")))")
        case ("UserDefaults", "synchronize"): return LuaExpr("true", TypeName("Bool"))
        // URLSession (SPEC 4.5, 15)
        case ("URLSession", "dataTask"):
            let handler = c.arg("completionHandler") ?? c.trailing
            return LuaExpr("swift.dataTask(\(recv), \(c.code(c.arg("with") ?? c.args.first))\(handler.map { ", " + c.code($0) } ?? ""))", TypeName("URLSessionDataTask"))
        case ("URLSession", "downloadTask"):
            return LuaExpr("swift.downloadTask(\(recv), \(c.code(c.arg("with") ?? c.args.first)))", TypeName("URLSessionDownloadTask"))
        case ("URLSession", "uploadTask"):
            return LuaExpr("swift.uploadTask(\(recv), \(c.code(c.arg("with") ?? c.args.first)))", TypeName("URLSessionUploadTask"))
        case ("URLSession", "data"), ("URLSession", "download"), ("URLSession", "upload"):
            return LuaExpr("swift.urlData(\(recv), \(c.code(c.arg("from") ?? c.arg("for") ?? c.args.first)))", TypeName("Tuple"))
        case ("URLSession", "invalidateAndCancel"), ("URLSession", "finishTasksAndInvalidate"): return LuaExpr("nil")
        case ("URLSession", "getAllTasks"), ("URLSession", "getTasksWithCompletionHandler"):
            return LuaExpr("swift.sessionTasks(\(recv), \(c.code(c.trailing ?? c.args.first)))")
        case ("URLSessionTask", "resume"), ("URLSessionDataTask", "resume"), ("URLSessionDownloadTask", "resume"), ("URLSessionUploadTask", "resume"):
            return LuaExpr("\(recv):resume()")
        case ("URLSessionTask", "cancel"), ("URLSessionDataTask", "cancel"), ("URLSessionDownloadTask", "cancel"), ("URLSessionUploadTask", "cancel"):
            return LuaExpr("\(recv):cancel()")
        case ("URLSessionConfiguration", "background"):
            return LuaExpr("swift.backgroundConfiguration(\(c.code(c.arg("withIdentifier") ?? c.args.first)))", TypeName("URLSessionConfiguration"))
        // FileManager: the app-group container (SPEC 12.1).
        case ("Notification", "Name"), ("NSNotification", "Name"):
            return LuaExpr(c.code(c.args.first), TypeName("Notification.Name"))
        // `Result.success(x)`, `Result<T, E>.failure(e)`, `Optional.some(x)`: the enum's cases.
        case ("Result", "success"), ("Result", "failure"), ("Optional", "some"):
            return LuaExpr("swift.case(\((["\"\(name)\""] + c.args.map { c.code($0) }).joined(separator: ", ")))", TypeName("Result"))
        // Random values, from the run's seeded generator (the same run draws the same values).
        case ("Double", "random"), ("Float", "random"), ("CGFloat", "random"), ("TimeInterval", "random"):
            guard let (lo, hi, _) = rangeBounds(c.arg("in"), c) else { return nil }
            return LuaExpr("(\(lo) + math.random() * ((\(hi)) - (\(lo))))", TypeName("Double"))
        case ("Int", "random"), ("UInt", "random"), ("Int64", "random"), ("UInt32", "random"):
            guard let (lo, hi, closed) = rangeBounds(c.arg("in"), c) else { return nil }
            return LuaExpr("math.random(\(lo), \(closed ? hi : "(\(hi)) - 1"))", TypeName("Int"))
        case ("Bool", "random"): return LuaExpr("(math.random(2) == 1)", TypeName("Bool"))
        // Calendar arithmetic on virtual time (0 is midnight of the first day).
        case ("Calendar", "date"):
            if let unit = c.arg("byAdding"), let value = c.arg("value"), let to = c.arg("to") {
                return LuaExpr("swift.dateAdding(\(Literals.quote(unitName(unit))), \(c.code(value)), \(c.code(to)))", TypeName("Date", optional: true))
            }
            if let h = c.arg("bySettingHour"), let of = c.arg("of") {
                return LuaExpr("swift.dateSetting(\(c.code(of)), \(c.code(h)), \(c.code("minute")), \(c.code("second")))", TypeName("Date", optional: true))
            }
            return nil
        case ("Calendar", "startOfDay"): return LuaExpr("swift.startOfDay(\(c.code(c.args.first)))", TypeName("Date"))
        case ("Calendar", "isDateInToday"): return LuaExpr("swift.sameDay(\(c.code(c.args.first)), now())", TypeName("Bool"))
        case ("Calendar", "isDate"):
            guard let other = c.arg("inSameDayAs") else { return nil }
            return LuaExpr("swift.sameDay(\(c.code(c.args.first)), \(c.code(other)))", TypeName("Bool"))
        case ("Calendar", "component"):
            guard let unit = c.args.first, let from = c.arg("from") else { return nil }
            return LuaExpr("swift.dateComponent(\(Literals.quote(unitName(unit))), \(c.code(from)))", TypeName("Int"))
        case ("Date", "addingTimeInterval"), ("Date", "advanced"): return LuaExpr("(\(recv) + \(c.code(c.args.first)))", TypeName("Date"))
        case ("Date", "timeIntervalSince"): return LuaExpr("(\(recv) - \(c.code(c.args.first)))", TypeName("Double"))
        case ("Date", "distance"): return LuaExpr("(\(c.code(c.args.first)) - \(recv))", TypeName("Double"))
        case ("FileManager", "containerURL"):
            t.usesAppGroup = true
            return LuaExpr("swift.appGroupURL(\(c.code(c.args.first)))", TypeName("URL", optional: true))
        case ("Logger", _):
            if ["info", "debug", "error", "notice", "warning", "fault", "log", "trace", "critical"].contains(name) {
                return LuaExpr("swift.print(\(c.args.last.map { c.code($0) } ?? "\"\""))")
            }
            return nil
        default: return nil
        }
    }

    /// The bounds of a range literal argument (`0...1`, `1..<10`): lower, upper, closed.
    static func rangeBounds(_ a: CallArg?, _ c: CallContext) -> (String, String, Bool)? {
        guard let a, let infix = a.syntax.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self),
              op.operator.text == "..." || op.operator.text == "..<" else { return nil }
        return (c.t.expr(infix.leftOperand).code, c.t.expr(infix.rightOperand).code, op.operator.text == "...")
    }

    /// A calendar unit as written (`.minute`, `Calendar.Component.hour`): its name.
    static func unitName(_ a: CallArg) -> String {
        let text = a.syntax.trimmedDescription
        return String(text.split(separator: ".").last ?? Substring(text))
    }

    /// A block given to `dispatch.main`/`dispatch.global`: a work item runs through `perform`.
    static func wrapBlock(_ code: String) -> String {
        code.hasPrefix("function") ? code : "swift.block(\(code))"
    }

    /// A string literal's text (identifiers registered or submitted).
    static func literal(_ a: CallArg) -> String? {
        a.syntax.as(StringLiteralExprSyntax.self).flatMap(Literals.plainString)
    }

    /// A dispatch deadline as seconds from now: `.now() + 2` is 2.
    static func deadline(_ a: CallArg?, _ c: CallContext) -> String {
        guard let a else { return "0" }
        if let infix = a.syntax.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self), op.operator.text == "+",
           infix.leftOperand.trimmedDescription.hasSuffix("now()") {
            return duration(CallArg(label: nil, syntax: infix.rightOperand), c)
        }
        if a.syntax.trimmedDescription.hasSuffix("now()") { return "0" }
        if a.syntax.trimmedDescription.hasSuffix("distantFuture") { return "math.huge" }
        return "math.max(0, \(c.code(a)) - now())"
    }

    /// A duration (`.seconds(2)`, `.milliseconds(300)`, `2.5`) in seconds.
    static func duration(_ a: CallArg, _ c: CallContext) -> String {
        if let call = a.syntax.as(FunctionCallExprSyntax.self), let m = call.calledExpression.as(MemberAccessExprSyntax.self),
           let v = call.arguments.first?.expression {
            let x = c.t.expr(v).code
            switch m.declName.baseName.text {
            case "seconds": return x
            case "milliseconds": return "(\(x)) / 1000"
            case "microseconds": return "(\(x)) / 1000000"
            case "nanoseconds": return "(\(x)) / 1e9"
            case "minutes": return "(\(x)) * 60"
            default: break
            }
        }
        return c.code(a)
    }

    // MARK: - .name(args) with the type implied

    static func implicitCall(_ name: String, _ c: CallContext) -> LuaExpr? {
        switch name {
        case "now": return LuaExpr("now()", TypeName("DispatchTime"))
        case "seconds": return LuaExpr(c.code(c.args.first), TypeName("Double"))
        case "milliseconds": return LuaExpr("(\(c.code(c.args.first))) / 1000", TypeName("Double"))
        case "microseconds": return LuaExpr("(\(c.code(c.args.first))) / 1000000", TypeName("Double"))
        case "nanoseconds": return LuaExpr("(\(c.code(c.args.first))) / 1e9", TypeName("Double"))
        case "global": return LuaExpr("\"global\"", TypeName("DispatchQueue"))
        case "appRefresh": return LuaExpr(c.code(c.args.first))
        default: return nil
        }
    }

    // MARK: - Free functions and initializers

    static func globalCall(_ name: String, _ c: CallContext) -> LuaExpr? {
        let t = c.t
        switch name {
        case "print", "debugPrint", "NSLog", "dump":
            if name == "NSLog", let f = c.args.first, c.args.count > 1 {
                return LuaExpr("swift.print(swift.format(\(([c.code(f)] + c.args.dropFirst().map { c.code($0) }).joined(separator: ", "))))")
            }
            return LuaExpr("swift.print(\(c.args.filter { $0.label == nil }.map { c.code($0) }.joined(separator: ", ")))")
        case "os_log":
            return LuaExpr("swift.print(\(c.args.first.map { c.code($0) } ?? "\"\""))")
        case "Logger": return LuaExpr("swift.logger()", TypeName("Logger"))
        case "assert", "assertionFailure": return LuaExpr("nil")
        case "precondition":
            return LuaExpr("swift.precondition(\(c.code(c.args.first))\(c.args.count > 1 ? ", " + c.code(c.args[1]) : ""))")
        case "preconditionFailure", "fatalError":
            return LuaExpr("swift.fatal(\(c.args.first.map { c.code($0) } ?? "nil"))")
        case "min", "max":
            return LuaExpr("math.\(name)(\(c.all.joined(separator: ", ")))", t.expr(c.args.first!.syntax).type)
        case "abs": return LuaExpr("math.abs(\(c.code(c.args.first)))")
        case "floor", "ceil", "sqrt", "exp", "log", "sin", "cos":
            return LuaExpr("math.\(name)(\(c.code(c.args.first)))", TypeName("Double"))
        case "round": return LuaExpr("math.floor(\(c.code(c.args.first)) + 0.5) * 1.0", TypeName("Double"))
        case "pow": return LuaExpr("(\(c.code(c.args.first))) ^ (\(c.code(c.args.last)))", TypeName("Double"))
        case "usleep": return LuaExpr("work(\(c.code(c.args.first)) / 1000000)")
        case "sleep": return LuaExpr("work(\(c.code(c.args.first)))")
        case "zip": return LuaExpr("swift.zip(\(c.all.joined(separator: ", ")))", TypeName("Array"))
        case "stride":
            let to = c.arg("to").map { ("false", c.code($0)) } ?? ("true", c.code("through"))
            return LuaExpr("swift.stride(\(c.code("from")), \(to.1), \(c.code("by")), \(to.0))", TypeName("Array"))
        case "type": return LuaExpr("swift.opaque(\"type\")")
        case "String":
            if let f = c.arg("format") {
                return LuaExpr("swift.format(\(([c.code(f)] + c.args.dropFirst().map { c.code($0) }).joined(separator: ", ")))", TypeName("String"))
            }
            if c.args.isEmpty { return LuaExpr("\"\"", TypeName("String")) }
            return LuaExpr("swift.s(\(c.code(c.args.first)))", TypeName("String"))
        case "Int", "Int64", "Int32", "UInt", "UInt64", "Int16", "UInt8", "UInt32":
            if c.args.isEmpty { return LuaExpr("0", TypeName("Int")) }
            return LuaExpr("swift.int(\(c.code(c.args.first)))", TypeName("Int", optional: c.args.first.flatMap { t.expr($0.syntax).type?.name } == "String"))
        case "Double", "Float", "CGFloat", "TimeInterval":
            if c.args.isEmpty { return LuaExpr("0.0", TypeName("Double")) }
            return LuaExpr("swift.double(\(c.code(c.args.first)))", TypeName("Double"))
        case "Bool": return LuaExpr("swift.bool(\(c.code(c.args.first)))", TypeName("Bool"))
        case "Array", "ContiguousArray":
            if let r = c.arg("repeating"), let n = c.arg("count") { return LuaExpr("swift.repeating(\(c.code(r)), \(c.code(n)))", TypeName("Array")) }
            return LuaExpr(c.args.isEmpty ? "swift.array({})" : "swift.toArray(\(c.code(c.args.first)))", TypeName("Array"))
        case "Set": return LuaExpr(c.args.isEmpty ? "swift.set()" : "swift.set(\(c.code(c.args.first)))", TypeName("Set"))
        case "Dictionary":
            if let u = c.arg("uniqueKeysWithValues") { return LuaExpr("swift.dictFromPairs(\(c.code(u)))", TypeName("Dictionary")) }
            return LuaExpr("swift.dict({})", TypeName("Dictionary"))
        case "UUID": return LuaExpr("swift.uuid()", TypeName("UUID"))
        case "UIBackgroundTaskIdentifier":
            // The identifiers are numbers; `.invalid` is 0.
            return LuaExpr(c.code(c.arg("rawValue") ?? c.args.first), TypeName("UIBackgroundTaskIdentifier"))
        case "Result":
            guard let body = c.arg("catching") ?? c.trailing else { return nil }
            return LuaExpr("swift.resultOf(\(c.code(body)))", TypeName("Result"))
        case "UserDefaults":
            // Suites share the app's one store (docs/IMPORT.md); a suite is optional in Swift.
            return LuaExpr("swift.userDefaults", TypeName("UserDefaults", optional: c.arg("suiteName") != nil))
        case "NSTemporaryDirectory": return LuaExpr("\"/tmp/\"", TypeName("String"))
        case "autoreleasepool": return LuaExpr("(\(c.code(c.arg("invoking") ?? c.trailing ?? c.args.first)))()")
        case "withExtendedLifetime":
            guard let body = c.trailing ?? c.args.last, let value = c.args.first else { return nil }
            return LuaExpr("(\(c.code(body)))(\(c.code(value)))")
        case "dispatchPrecondition", "objc_sync_enter", "objc_sync_exit", "os_signpost": return LuaExpr("nil")
        case "NSHomeDirectory": return LuaExpr("\"/var/mobile\"", TypeName("String"))
        case "Date":
            if let x = c.arg("timeIntervalSinceNow") { return LuaExpr("swift.now() + \(t.wrap(c.code(x)))", TypeName("Date")) }
            if let x = c.arg("timeIntervalSince1970") { return LuaExpr("\(t.wrap(c.code(x))) - 1379462400", TypeName("Date")) }
            if let x = c.arg("timeIntervalSinceReferenceDate") { return LuaExpr("\(t.wrap(c.code(x))) - 401155200", TypeName("Date")) }
            if let x = c.arg("timeInterval"), let since = c.arg("since") { return LuaExpr("\(t.wrap(c.code(since))) + \(t.wrap(c.code(x)))", TypeName("Date")) }
            return LuaExpr("swift.now()", TypeName("Date"))
        case "CFAbsoluteTimeGetCurrent", "CACurrentMediaTime": return LuaExpr("swift.now()", TypeName("Double"))
        case "URL":
            if let s = c.arg("string") { return LuaExpr(c.code(s), TypeName("URL", optional: true)) }
            if let p = c.arg("fileURLWithPath") { return LuaExpr(c.code(p), TypeName("URL")) }
            return nil
        case "URLRequest":
            return LuaExpr("swift.urlRequest(\(c.code(c.arg("url") ?? c.args.first)))", TypeName("URLRequest"))
        case "URLSession":
            guard let config = c.arg("configuration") else { return nil }
            let delegate = c.arg("delegate")
            let methods = delegate.flatMap { t.sessionDelegateMethods($0) } ?? "nil"
            return LuaExpr("swift.urlSession(\(c.code(config)), \(delegate.map { c.code($0) } ?? "nil"), \(methods))", TypeName("URLSession"))
        case "BGAppRefreshTaskRequest", "BGProcessingTaskRequest":
            let id = c.arg("identifier") ?? c.args.first
            if let id, let text = t.constantString(id.syntax) { t.submitted.append((text, t.location(c.node))) }
            t.usedModes[name == "BGAppRefreshTaskRequest" ? "fetch" : "processing"] = t.location(c.node)
            return LuaExpr("\(name)(\(c.code(id)))", TypeName(name))
        case "Progress":
            return LuaExpr("swift.progress(nil, \(c.arg("totalUnitCount").map { c.code($0) } ?? "0"))", TypeName("Progress"))
        case "BGContinuedProcessingTaskRequest":
            t.needsIOS26 = true
            return LuaExpr("BGContinuedProcessingTaskRequest(\(c.code(c.arg("identifier") ?? c.args.first)), { title = \(c.code("title")), subtitle = \(c.code("subtitle")) })",
                           TypeName(name))
        case "DispatchQueue":
            guard let label = c.arg("label") else { return nil }
            let concurrent = c.arg("attributes").map { $0.syntax.trimmedDescription.contains("concurrent") } ?? false
            return LuaExpr("dispatch.queue(\(c.code(label))\(concurrent ? ", { concurrent = true }" : ""))", TypeName("DispatchQueue"))
        case "DispatchGroup": return LuaExpr("dispatch.group()", TypeName("DispatchGroup"))
        case "DispatchSemaphore": return LuaExpr("dispatch.semaphore(\(c.code(c.arg("value") ?? c.args.first)))", TypeName("DispatchSemaphore"))
        case "DispatchWorkItem":
            return LuaExpr("swift.workItem(\(c.code(c.arg("block") ?? c.trailing ?? c.args.last)))", TypeName("DispatchWorkItem"))
        case "NSLock", "NSRecursiveLock", "NSCondition": return LuaExpr("dispatch.lock()", TypeName("NSLock"))
        case "OperationQueue": return LuaExpr("swift.operationQueue(false)", TypeName("OperationQueue"))
        case "BlockOperation":
            return LuaExpr("swift.blockOperation(\(c.code(c.arg("block") ?? c.trailing ?? c.args.first)))", TypeName("BlockOperation"))
        case "Task":
            let body = c.arg("operation") ?? c.trailing ?? c.args.last
            var main = t.onMainActor
            if let cl = body?.closure, cl.signature?.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }) == true {
                main = true
            }
            return LuaExpr("swift.task(\(c.code(body)), \(main))", TypeName("Task"))
        case "withCheckedContinuation", "withCheckedThrowingContinuation", "withUnsafeContinuation", "withUnsafeThrowingContinuation":
            return LuaExpr("swift.continuation(\(c.code(c.arg("body") ?? c.trailing ?? c.args.last, types: [TypeName("Continuation")])))")
        case "withTaskGroup", "withThrowingTaskGroup", "withDiscardingTaskGroup", "withThrowingDiscardingTaskGroup":
            let throwing = name.contains("Throwing")
            let body = c.arg("body") ?? c.trailing ?? c.args.last
            return LuaExpr("swift.taskGroup(\(c.code(body, types: [TypeName(throwing ? "ThrowingTaskGroup" : "TaskGroup")])), \(throwing))")
        case "withTaskCancellationHandler":
            let operation = c.arg("operation") ?? c.args.first { $0.label == nil && ($0.closure != nil || $0.closureLike) }
            return LuaExpr("swift.withCancellationHandler(\(c.code(operation)), \(c.code(c.arg("onCancel") ?? c.args.last)))")
        case "Notification":
            return nil
        default:
            if name.hasPrefix("Notification.Name") || name == "NSNotification.Name" {
                return LuaExpr(c.code(c.args.first), TypeName("Notification.Name"))
            }
            return nil
        }
    }
}

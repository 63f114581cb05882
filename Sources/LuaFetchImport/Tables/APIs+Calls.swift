// The API table, calls on a receiver (SPEC 18.3): a row per iOS or Foundation method called on
// a value (UIApplication's background tasks, BGTaskScheduler, Dispatch queues, groups and
// semaphores, OperationQueue, Timer, NSLock, URLSession, NotificationCenter, UserDefaults,
// collections and strings), each written as the scenario API's Lua. Uses CallContext
// (Calls+Arguments.swift) and the helpers of APIs.swift.
import SwiftSyntax

extension APIs {
    // MARK: - Calls on a receiver

    static func call(_ type: String, _ name: String, _ c: CallContext) -> LuaExpr? {
        let t = c.t
        let recv = c.receiver
        switch (type, name) {
        // UIApplication (SPEC 4.3, 4.4)
        case ("UIApplication", "beginBackgroundTask"):
            let handler = c.arg("expirationHandler").map { c.code($0) } ?? c.trailing.map { c.code($0) } ?? "nil"
            if let n = c.arg("withName") { return LuaExpr("\(recv):beginBackgroundTask(\(c.typed(n, .name)), \(handler))", TypeName("UIBackgroundTaskIdentifier")) }
            return LuaExpr("\(recv):beginBackgroundTask(\(handler))", TypeName("UIBackgroundTaskIdentifier"))
        case ("UIApplication", "endBackgroundTask"):
            return LuaExpr("\(recv):endBackgroundTask(\(c.code(c.args.first)))")
        case ("UIApplication", "setMinimumBackgroundFetchInterval"):
            return LuaExpr("\(recv):setMinimumBackgroundFetchInterval(\(c.typed(c.args.first, .fetchInterval)))")
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
            return LuaExpr("BGTaskScheduler.register(\(c.typed(id, .taskIdentifier)), \(handler)\(queue))", TypeName("Bool"))
        case ("BGTaskScheduler", "submit"):
            return LuaExpr("swift.bgSubmit(\(c.code(c.args.first)))")
        case ("BGTaskScheduler", "cancel"):
            return LuaExpr("BGTaskScheduler.cancel(\(c.typed(c.args.first, .taskIdentifier)))")
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
        // Bundle.main's Info.plist (SPEC 18.8.3)
        case ("Bundle", "object") where c.labels.first == "forInfoDictionaryKey":
            t.readsInfoPlist = true
            return LuaExpr("swift.infoValue(\(c.code(c.args.first)))")
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
            let timeout = c.arg("timeout").map { deadline($0, c, as: .timeout) }
            return LuaExpr("swift.groupWait(\(recv)\(timeout.map { ", \($0)" } ?? ""))")
        case ("DispatchGroup", "notify"):
            let block = c.code(c.arg("execute") ?? c.trailing)
            return LuaExpr("\(recv):notify(\(block), \(c.code("queue", expect: TypeName("DispatchQueue"))))")
        case ("DispatchSemaphore", "wait"):
            let timeout = c.arg("timeout").map { deadline($0, c, as: .timeout) }
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
        case ("Mutex", "withLock"), ("Mutex", "withLockIfAvailable"), ("OSAllocatedUnfairLock", "withLock"),
             ("OSAllocatedUnfairLock", "withLockUnchecked"), ("OSAllocatedUnfairLock", "withLockIfAvailable"):
            // The closure gets the state's box (its inout parameter) and its result is the call's.
            guard c.t.program.type(named: type) == nil else { return nil }
            return LuaExpr("(\(c.stateClosure(c.trailing ?? c.args.first)))(\(recv))")
        case ("NSLock", "withLock"), ("NSRecursiveLock", "withLock"): return LuaExpr("swift.withLock(\(recv), \(c.code(c.trailing ?? c.args.first)))")
        case ("Thread", "sleep"):
            if let s = c.arg("forTimeInterval") { return LuaExpr("work(\(c.typed(s, .delay)))") }
            if let u = c.arg("until") { return LuaExpr("work(math.max(0, \(c.code(u)) - now()))") }
            return nil
        // Timers
        case ("Timer", "scheduledTimer"):
            let interval = c.typed(c.arg("withTimeInterval") ?? c.arg("timeInterval"), .timerInterval)
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
            if let ns = c.arg("nanoseconds") { return LuaExpr("swift.taskSleep(\(c.typed(ns, .nanoseconds)) / 1e9)") }
            if let s = c.arg("for") { return LuaExpr("swift.taskSleep(\(duration(s, c)))") }
            if let s = c.arg("seconds") { return LuaExpr("swift.taskSleep(\(c.typed(s, .delay)))") }
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
            let repeating = c.arg("repeating").map { duration($0, c, as: .timerInterval) } ?? "nil"
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
        case ("URLRequest", "setValue"), ("URLRequest", "addValue"):
            guard let field = c.arg("forHTTPHeaderField") else { return nil }
            return LuaExpr("swift.setHeader(\(recv), \(c.code(c.args.first)), \(c.code(field))\(name == "addValue" ? ", true" : ""))")
        case ("URLRequest", "value"), ("HTTPURLResponse", "value"):
            guard let field = c.arg("forHTTPHeaderField") else { return nil }
            return LuaExpr("swift.header(\(recv), \(c.code(field)))", TypeName("String", optional: true))
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

}

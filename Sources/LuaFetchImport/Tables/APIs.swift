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
        "UIApplication.State", "RunLoop", "Bundle", "UIDevice", "Calendar", "HTTPURLResponse",
        "NSPersistentContainer", "NSPersistentCloudKitContainer",
        "TaskGroup", "ThrowingTaskGroup", "DiscardingTaskGroup", "ThrowingDiscardingTaskGroup",
        "DispatchSource", "DispatchSourceTimer", "Progress", "Mutex", "OSAllocatedUnfairLock", "CommandLine",
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
        default:
            // Core Foundation's Info.plist keys (`kCFBundleVersionKey as String`) are the keys they
            // name, so Bundle.main finds the resolved value.
            if let key = cfBundleKeys[name] { return LuaExpr("\"\(key)\"", TypeName("String")) }
            return nil
        }
    }

    /// Core Foundation's Info.plist key constants and the keys they are.
    static let cfBundleKeys: [String: String] = [
        "kCFBundleVersionKey": "CFBundleVersion", "kCFBundleNameKey": "CFBundleName",
        "kCFBundleIdentifierKey": "CFBundleIdentifier", "kCFBundleExecutableKey": "CFBundleExecutable",
        "kCFBundleInfoDictionaryVersionKey": "CFBundleInfoDictionaryVersion",
        "kCFBundleDevelopmentRegionKey": "CFBundleDevelopmentRegion", "kCFBundleLocalizationsKey": "CFBundleLocalizations",
    ]

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

    /// UIApplication's settable properties luafetch does not model (SPEC 18.9.7): a write is
    /// accepted and ignored, a read gives the last value written in this process, else the value
    /// iOS starts with. Their types and starting values, as UIKit declares them.
    static let unmodelledAppProperties: [String: (TypeName?, String)] = [
        "applicationIconBadgeNumber": (TypeName("Int"), "0"),
        "isIdleTimerDisabled": (TypeName("Bool"), "false"),
        "shortcutItems": (TypeName("Array", optional: true), "nil"),
        "isNetworkActivityIndicatorVisible": (TypeName("Bool"), "false"),
        "applicationSupportsShakeToEdit": (TypeName("Bool"), "true"),
        "isStatusBarHidden": (TypeName("Bool"), "false"),
        "statusBarStyle": (nil, "swift.case(\"default\")"),
    ]

    /// UIScene's settable properties luafetch does not model, kept as UIApplication's are (the
    /// app's one scene: per process): a scene's `userActivity` for state restoration, its `title`.
    static let unmodelledSceneProperties: [String: (TypeName?, String)] = [
        "userActivity": (TypeName("NSUserActivity", optional: true), "nil"),
        "title": (TypeName("String", optional: true), "nil"),
        "activationConditions": (TypeName("UISceneActivationConditions"), "swift.opaque(\"UISceneActivationConditions\")"),
    ]

    // MARK: - Members (values)

    /// `Type.name` or `value.name` of a known API (`base.code` is the receiver's Lua code).
    static func member(_ type: String, _ name: String, translator t: Translator, base: LuaExpr, node: Syntax) -> LuaExpr? {
        let recv = base.code
        switch (type, name) {
        case ("UIApplication", "shared"): return LuaExpr("swift.app", TypeName("UIApplication"))
        case ("UUID", "uuidString"): return LuaExpr("swift.s(\(recv))", TypeName("String"))
        case ("UIBackgroundFetchResult", "newData"), ("UIBackgroundFetchResult", "noData"), ("UIBackgroundFetchResult", "failed"):
            // `UIBackgroundFetchResult.newData` written out is `.newData` (pocket-casts' push completion).
            return LuaExpr("swift.case(\(Literals.quote(name)))", TypeName("UIBackgroundFetchResult"))
        case ("UIApplication", "delegate"): return LuaExpr("swift.appDelegate()", TypeName("UIApplicationDelegate", optional: true))
        case ("UIApplication", "connectedScenes"): return LuaExpr("swift.connectedScenes()", TypeName("Set", element: "UIScene"))
        case ("UIApplication", "backgroundTimeRemaining"): return LuaExpr("\(recv).backgroundTimeRemaining", TypeName("Double"))
        case ("UIApplication", "applicationState"): return LuaExpr("swift.appState()", TypeName("UIApplication.State"))
        case ("UIApplication", "backgroundFetchIntervalMinimum"): return LuaExpr("UIApplicationBackgroundFetchIntervalMinimum", TypeName("Double"))
        case ("UIApplication", "backgroundFetchIntervalNever"): return LuaExpr("UIApplicationBackgroundFetchIntervalNever", TypeName("Double"))
        case ("UIApplication", _) where notificationName(name) != nil: return LuaExpr(Literals.quote(notificationName(name)!), TypeName("Notification.Name"))
        case ("UIApplication", _) where unmodelledAppProperties[name] != nil:
            let (type, start) = unmodelledAppProperties[name]!
            t.unmodelledAppProperties.insert(name)
            return LuaExpr("swift.appGet(\(Literals.quote(name)), \(start))", type)
        case ("UIScene", _), ("UIWindowScene", _):
            if let n = sceneNotificationName(name) { return LuaExpr(Literals.quote(n), TypeName("Notification.Name")) }
            if let (type, start) = unmodelledSceneProperties[name] {
                t.unmodelledAppProperties.insert("UIScene.\(name)")
                return LuaExpr("swift.appGet(\"UIScene.\(name)\", \(start))", type)
            }
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
        // Bundle.main reads the app's resolved Info.plist (SPEC 18.8.3; the scenario's swift.infoPlist).
        case ("Bundle", "main"): return LuaExpr("swift.opaque(\"Bundle.main\")", TypeName("Bundle"))
        case ("Bundle", "bundleIdentifier"):
            t.readsInfoPlist = true
            return LuaExpr("swift.bundleIdentifier()", TypeName("String", optional: true))
        case ("Bundle", "infoDictionary"):
            t.readsInfoPlist = true
            return LuaExpr("swift.infoDictionary()", TypeName("Dictionary", optional: true))
        case ("ProcessInfo", "processInfo"): return LuaExpr("swift.opaque(\"ProcessInfo\")", TypeName("ProcessInfo"))
        case ("ProcessInfo", "systemUptime"): return LuaExpr("swift.now()", TypeName("Double"))
        case ("ProcessInfo", "isLowPowerModeEnabled"): return LuaExpr("device.lowPowerMode", TypeName("Bool"))
        // The launch's arguments: the executable alone (iOS passes none; a UI test's `-flag`s
        // are absent, so passepartout's `CommandLine.arguments.contains("-pp_ui_testing")` is false).
        case ("ProcessInfo", "arguments"), ("CommandLine", "arguments"): return LuaExpr("swift.array({ \"App\" })", TypeName("Array"))
        case ("CommandLine", "argc"): return LuaExpr("1", TypeName("Int32"))
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
        // A request's headers and body, a response's status and headers: the real values (a stub's
        // request or response is opaque, and its members are again a stub's).
        case ("URLRequest", "allHTTPHeaderFields"), ("URLRequest", "httpBody"), ("URLRequest", "timeoutInterval"),
             ("HTTPURLResponse", "statusCode"), ("HTTPURLResponse", "allHeaderFields"):
            let types = ["allHTTPHeaderFields": TypeName("Dictionary", optional: true), "httpBody": TypeName("Data", optional: true),
                         "timeoutInterval": TypeName("Double"), "statusCode": TypeName("Int"), "allHeaderFields": TypeName("Dictionary")]
            // Through `?.` a nil response has no status (pocket-casts' `response?.statusCode ?? 0`).
            if base.chained { return LuaExpr("swift.optApply(\(recv), function(__r) return swift.get(0, __r, \(Literals.quote(name))) end)", types[name] ?? nil) }
            return LuaExpr("swift.get(0, \(recv), \(Literals.quote(name)))", types[name] ?? nil)
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
        code.hasPrefix("function(") || code.hasPrefix("function ") ? code : "swift.block(\(code))"
    }

    /// A string literal's text (identifiers registered or submitted).
    static func literal(_ a: CallArg) -> String? {
        a.syntax.as(StringLiteralExprSyntax.self).flatMap(Literals.plainString)
    }

    /// A dispatch deadline as seconds from now: `.now() + 2` is 2.
    static func deadline(_ a: CallArg?, _ c: CallContext, as value: TypedDefault = .delay) -> String {
        guard let a else { return "0" }
        if let infix = a.syntax.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self), op.operator.text == "+",
           infix.leftOperand.trimmedDescription.hasSuffix("now()") {
            return duration(CallArg(label: nil, syntax: infix.rightOperand), c, as: value)
        }
        if a.syntax.trimmedDescription.hasSuffix("now()") { return "0" }
        if a.syntax.trimmedDescription.hasSuffix("distantFuture") { return "math.huge" }
        return "math.max(0, \(c.code(a)) - now())"
    }

    /// A duration (`.seconds(2)`, `.milliseconds(300)`, `2.5`) in seconds; a stub's value there
    /// returns `value` (TypedDefaults).
    static func duration(_ a: CallArg, _ c: CallContext, as value: TypedDefault = .delay) -> String {
        if let call = a.syntax.as(FunctionCallExprSyntax.self), let m = call.calledExpression.as(MemberAccessExprSyntax.self),
           let v = call.arguments.first?.expression {
            if let inUnit = value.in(unit: m.declName.baseName.text) { c.t.typeStubValue(v, as: inUnit) }
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
        return c.typed(a, value)
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
    // Calls on a receiver are APIs+Calls.swift's; free functions and initializers are
    // APIs+Globals.swift's.
}

// The violation model (SPEC section 8): codes, severities, exception codes, and the record of one
// violation with its virtual time and the scenario `file:line` responsible. Pure data.

/// A position in a scenario file, shown as `file:line`; in an imported scenario whose line carries
/// a `--@ File.swift:LINE` mark, as `File.swift:LINE (file:line)` (SPEC 18.5).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public init(file: String, line: Int) { self.file = file; self.line = line }
    /// `file:line` of the scenario.
    public var plain: String { line > 0 ? "\(file):\(line)" : file }
    /// The Swift line this scenario line came from, when it has a mark.
    public var swift: SwiftLine? { SwiftMarks.shared.line(file, line) }
    public var description: String {
        if let s = swift { return "\(s) (\(plain))" }
        return plain
    }
}

public enum Severity: String, Sendable { case error, warning }

/// Every violation code of SPEC section 8.
public enum ViolationCode: String, CaseIterable, Sendable {
    case taskExpired = "task-expired"
    case taskNotEndedInHandler = "task-not-ended-in-handler"
    case taskUnknown = "task-unknown"
    case taskHeldTooLong = "task-held-too-long"
    case tooManyTasks = "too-many-tasks"
    case fetchNoCompletion = "fetch-no-completion"
    case fetchDoubleCompletion = "fetch-double-completion"
    case fetchBadResult = "fetch-bad-result"
    case fetchNotConfigured = "fetch-not-configured"
    case callbackOverrun = "callback-overrun"
    case appCrash = "app-crash"
    case appHang = "app-hang"
    case outOfMemory = "out-of-memory"
    case unmatchedRequest = "unmatched-request"
    case pendingAtEnd = "pending-at-end"
    case lockHeldAtSuspension = "lock-held-at-suspension"
    case mainThreadHang = "main-thread-hang"
    case deadlock = "deadlock"
    case timerOnBackgroundThread = "timer-on-background-thread"
    case maskedByDebugger = "masked-by-debugger"
    case bgtaskRegistration = "bgtask-registration"
    case bgtaskUnregistered = "bgtask-unregistered"
    case bgtaskNoCompletion = "bgtask-no-completion"
    case bgtaskDoubleCompletion = "bgtask-double-completion"
    case bgtaskSubmitRefused = "bgtask-submit-refused"
    case pushNoCompletion = "push-no-completion"
    case pushDoubleCompletion = "push-double-completion"
    case pushBadResult = "push-bad-result"
    case sessionNoCompletion = "session-no-completion"
    case sceneLifecycleRequired = "scene-lifecycle-required"

    /// Everything luafetch says about a code, in one table (severity, timeline actor, the exception
    /// code of the termination it causes if iOS reports one, and the line docs/RULES.md shows;
    /// a test checks the docs against it).
    public var info: ViolationInfo {
        switch self {
        case .taskExpired: return .init(.error, "task", "0x8badf00d", "a task open at the deadline")
        case .taskNotEndedInHandler: return .init(.warning, "task", nil, "an expiration handler returned without ending its task")
        case .taskUnknown: return .init(.warning, "task", nil, "endBackgroundTask with an unknown or ended id")
        case .taskHeldTooLong: return .init(.warning, "task", nil, "a task open `taskHeldWarning` seconds, in any state")
        case .tooManyTasks: return .init(.error, "task", "0xbada5e47", "more than `maxTasks` open")
        case .fetchNoCompletion: return .init(.error, "fetch", "0x8badf00d", "no completion within `fetch` seconds")
        case .fetchDoubleCompletion: return .init(.error, "fetch", "NSInternalInconsistencyException", "a second completion")
        case .fetchBadResult: return .init(.error, "fetch", nil, "a result other than the three")
        case .fetchNotConfigured: return .init(.warning, "fetch", nil, "performFetch without the fetch mode")
        case .callbackOverrun: return .init(.error, "app", "0x8badf00d", "a callback computed past its limit")
        case .appCrash: return .init(.error, "app", nil, "a Lua error escaped an app handler (traceback attached)")
        case .appHang: return .init(.error, "app", "0x8badf00d", "a handler ran past the instruction budget")
        case .outOfMemory: return .init(.error, "app", nil, "the scenario's Lua memory passed its cap")
        case .unmatchedRequest: return .init(.warning, "net", nil, "no route or no host")
        case .pendingAtEnd: return .init(.warning, "app", nil, "the run ended with tasks open or completions uncalled")
        case .lockHeldAtSuspension: return .init(.error, "app", "0xdead10cc", "suspended while holding a shared-container lock")
        case .mainThreadHang: return .init(.error, "app", "0x8badf00d", "a transition waited `mainThreadHang` seconds for a blocked main thread, or its own calls blocked it that long")
        case .deadlock: return .init(.warning, "app", nil, "threads wait for each other forever (locks, `q:sync`)")
        case .timerOnBackgroundThread: return .init(.warning, "app", nil, "a timer created on a background thread never fires")
        case .maskedByDebugger: return .init(.warning, "app", nil, "with the debugger attached, a termination that did not happen")
        case .bgtaskRegistration: return .init(.error, "bgtask", "NSInternalInconsistencyException", "a launch handler registered late, twice or for an identifier not permitted")
        case .bgtaskUnregistered: return .init(.error, "bgtask", "NSInternalInconsistencyException", "a request submitted, or a task launched, with no handler registered in the process")
        case .bgtaskNoCompletion: return .init(.error, "bgtask", "0x8badf00d", "a task not completed by its end")
        case .bgtaskDoubleCompletion: return .init(.warning, "bgtask", nil, "setTaskCompleted a second time")
        case .bgtaskSubmitRefused: return .init(.warning, "bgtask", nil, "BGTaskScheduler.submit refused a request (tooManyPendingTaskRequests, notPermitted, unavailable)")
        case .pushNoCompletion: return .init(.error, "push", "0x8badf00d", "no completion within `pushCompletion` seconds of a background push")
        case .pushDoubleCompletion: return .init(.error, "push", "NSInternalInconsistencyException", "a second completion")
        case .pushBadResult: return .init(.error, "push", nil, "a result other than the three")
        case .sceneLifecycleRequired: return .init(.warning, "app", nil, "under ios26, an app without scenes = true, at every launch")
        case .sessionNoCompletion: return .init(.warning, "session", nil, "handleEventsForBackgroundURLSession's completion not called within `sessionEvents` seconds")
        }
    }

    /// How to fix it, in an iOS developer's terms: what the page's details show under the rule
    /// (`info.summary`, the line docs/RULES.md shows). One row per code.
    public var fix: String {
        switch self {
        case .taskExpired: return "End every background task before the time runs out: call endBackgroundTask when its work finishes, and in its expiration handler (stop the work, save what it did, then end the task)."
        case .taskNotEndedInHandler: return "In the expiration handler, stop the work and call endBackgroundTask for that task before returning."
        case .taskUnknown: return "End each identifier beginBackgroundTask returned exactly once, then set the variable to UIBackgroundTaskInvalid so no other path ends it again."
        case .taskHeldTooLong: return "Keep a background task open only while the work it protects runs, in the foreground too: end it as soon as the work finishes."
        case .tooManyTasks: return "End every task you begin; protect a batch of work with one task instead of one per item."
        case .fetchNoCompletion: return "Call performFetch's completionHandler on every path within the fetch time (30 s): when the work succeeds, fails or times out, and on every early return."
        case .fetchDoubleCompletion: return "Call the completion handler exactly once: return right after calling it, and make sure two paths (a response and a timeout) cannot both call it."
        case .fetchBadResult: return "Pass UIBackgroundFetchResultNewData, UIBackgroundFetchResultNoData or UIBackgroundFetchResultFailed to the completion handler."
        case .fetchNotConfigured: return "Add \"fetch\" to the app's background modes (UIBackgroundModes in Info.plist), or remove performFetch."
        case .callbackOverrun: return "Return from the callback quickly: move the work to a background queue (dispatch.global), protected by a background task."
        case .appCrash: return "Fix the error the message and the traceback show: an error that escapes a delegate method crashes the app."
        case .appHang: return "Find the loop that never ends or the computation that is too long in that handler (the line shows where it was stopped)."
        case .outOfMemory: return "Keep less in memory (caches, large tables), or raise scenario{ limits = { memory = ... } } if the use is intended."
        case .unmatchedRequest: return "Send the request to a host a server{} declares, or add the route (the message names the closest one)."
        case .pendingAtEnd: return "End the tasks and call the completions still open when the work finishes, or let the scenario run long enough for them to finish."
        case .lockHeldAtSuspension: return "Release the shared-container lock before the app can be suspended: take it only inside a background task, and unlock before ending the task."
        case .mainThreadHang: return "Do not block the main thread around lifecycle transitions: move the work, the lock or the q:sync to a background queue."
        case .deadlock: return "Take locks in the same order everywhere, and never q:sync onto the queue you are running on."
        case .timerOnBackgroundThread: return "Create the timer on the main thread (dispatch.main), or use after or a dispatch queue instead."
        case .maskedByDebugger: return "Run without the debugger (as users do) to see the termination, then fix it as its own code says."
        case .bgtaskRegistration: return "Register each launch handler once, in didFinishLaunching, for an identifier listed in permittedIdentifiers (BGTaskSchedulerPermittedIdentifiers)."
        case .bgtaskUnregistered: return "Call BGTaskScheduler.register in didFinishLaunching, before any submit and before the task can launch."
        case .bgtaskNoCompletion: return "Call task:setTaskCompleted when the work finishes, and set an expirationHandler that stops the work and completes the task."
        case .bgtaskDoubleCompletion: return "Complete each task once: make sure the work's end and the expiration handler cannot both call setTaskCompleted."
        case .bgtaskSubmitRefused: return "Submit at most one BGAppRefreshTaskRequest (and ten processing requests): one identifier whose handler does all the refresh work, resubmitted from the task; keep the identifier in BGTaskSchedulerPermittedIdentifiers and the mode in UIBackgroundModes."
        case .pushNoCompletion: return "Call didReceiveRemoteNotification's completionHandler on every path within pushCompletion (30 s)."
        case .pushDoubleCompletion: return "Call the completion handler exactly once: return right after calling it."
        case .pushBadResult: return "Pass \"newData\", \"noData\" or \"failed\" (UIBackgroundFetchResult) to the completion handler."
        case .sceneLifecycleRequired: return "Adopt the scene life cycle: app{ scenes = true } and the scene delegate's callbacks."
        case .sessionNoCompletion: return "Call handleEventsForBackgroundURLSession's completionHandler once the session's events are delivered (in didFinishEvents)."
        }
    }

    public var severity: Severity { info.severity }
    /// The timeline actor a violation is shown under.
    public var actor: String { info.actor }
    /// The exception code of the termination this violation causes, if iOS reports one.
    public var exceptionCode: String? { info.exceptionCode }
}

/// The table row of one violation code.
public struct ViolationInfo: Sendable {
    public let severity: Severity
    public let actor: String
    public let exceptionCode: String?
    /// When it happens, as docs/RULES.md says it.
    public let summary: String
    init(_ severity: Severity, _ actor: String, _ exceptionCode: String?, _ summary: String) {
        self.severity = severity; self.actor = actor; self.exceptionCode = exceptionCode; self.summary = summary
    }
}

/// One broken rule.
public struct Violation: Sendable {
    public var code: ViolationCode
    public var time: Millis
    public var location: SourceLocation?
    public var message: String
    public var traceback: String?
    /// The stub failures the run took before it (SPEC 18.9.4): `needs A.b to fail (F.swift:12)`;
    /// nil when it needed none.
    public var needs: String?
    public var severity: Severity { code.severity }
    /// The message, then what it needed: `MESSAGE; needs A.b to fail (F.swift:12)`.
    public var messageAndNeeds: String { Self.joined(message, needs) }
    /// `message; needs`, as every report joins them (run's text, explore's, JUnit, the page): a
    /// message that ends a sentence (task-expired's fix) loses its period before the clause.
    public static func joined(_ message: String, _ needs: String?) -> String {
        guard let needs else { return message }
        return "\(message.hasSuffix(".") ? message.dropLast() : Substring(message)); \(needs)"
    }
    public var exceptionCode: String? { code.exceptionCode }
    /// The message without the code's fix where it ends with it (task-expired's): the page shows
    /// the fix under the rule already.
    public var messageWithoutFix: String {
        message.hasSuffix(" " + code.fix) ? String(message.dropLast(code.fix.count + 1)) : message
    }
}

// The contract between the simulator and the scripting layer, in the spirit of wrk's script.h:
// the World sees scenario code only as opaque `ScriptRef`s it asks a `ScriptHost` to invoke with
// a few generic `ScriptValue`s, and gets back an `Outcome`. LuaFetchScripting implements it; tests
// can implement it in plain Swift.

/// An opaque handle to a function or value the scripting layer keeps alive. A plain integer, so
/// events carrying it cost no reference counting; `ScriptHost.location(of:)` says where it is from.
public struct ScriptRef: Hashable, Sendable {
    public let id: Int
    public init(id: Int) { self.id = id }
}

/// UIApplicationDelegate methods of the lifecycle a scenario's `app{}` may define (the methods
/// through which a grant reaches the app, such as performFetch, belong to their grant kind:
/// `GrantKindInfo.handler`).
public enum DelegateMethod: String, CaseIterable, Sendable {
    case didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground,
         willEnterForeground, willTerminate
}

/// Why the app was launched (`launch.reason`).
public enum LaunchReason: String, Sendable { case user, backgroundFetch, backgroundTask, remoteNotification, backgroundURLSession }

/// The four ways a request can fail (SPEC 4.5).
public enum NetworkError: String, Sendable { case timeout, notConnected, connectionLost, cannotFindHost }

/// One argument the World passes to scenario code.
public enum ScriptValue: Sendable {
    case null
    case string(String)
    case integer(Int)
    /// A value the host keeps (a request, a response, a notification's info).
    case ref(ScriptRef)
    /// A new table with these fields.
    case table([(String, ScriptValue)])
    /// The UIApplication object (`app`).
    case app
    /// The app's scene (`scene.state`).
    case scene
    /// The object of a live timer (`t` in `t:invalidate()`).
    case timer(Int)
    /// A completion handler for a grant: calling it calls `World.completeGrant`.
    case completion(GrantKey)

    var isCompletion: Bool { if case .completion = self { return true } else { return false } }
}

/// The arguments of one call into scenario code (at most three, kept inline: a call allocates
/// nothing for them).
public struct Invocation: Sendable {
    public let count: Int
    /// Whether an argument is a completion handler (the host then watches the call; a timer's
    /// callback, the common case, is told apart without looking at its arguments).
    public let hasCompletion: Bool
    private let a: ScriptValue, b: ScriptValue, c: ScriptValue
    public init() { (count, hasCompletion, a, b, c) = (0, false, .null, .null, .null) }
    public init(_ a: ScriptValue) { (count, hasCompletion, self.a, b, c) = (1, a.isCompletion, a, .null, .null) }
    public init(_ a: ScriptValue, _ b: ScriptValue) {
        (count, hasCompletion, self.a, self.b, c) = (2, a.isCompletion || b.isCompletion, a, b, .null)
    }
    public init(_ a: ScriptValue, _ b: ScriptValue, _ c: ScriptValue) {
        (count, hasCompletion, self.a, self.b, self.c) = (3, a.isCompletion || b.isCompletion || c.isCompletion, a, b, c)
    }
    public subscript(i: Int) -> ScriptValue { i == 0 ? a : i == 1 ? b : c }
    /// `fn()`.
    public static let none = Invocation()
}

/// How a call into scenario code failed.
public struct ScriptFailure: Error, Sendable {
    /// `runLimit`: the whole run passed a limit of SPEC 11 (exit 2, whoever was running);
    /// `abandoned`: the host gave the run up (to redo it exactly; nothing is reported).
    public enum Kind: Sendable { case error, instructionBudget, memoryCap, stopped, runLimit, abandoned }
    public var kind: Kind
    public var message: String
    public var traceback: String?
    public var location: SourceLocation?
    public init(kind: Kind, message: String, traceback: String? = nil, location: SourceLocation? = nil) {
        self.kind = kind; self.message = message; self.traceback = traceback; self.location = location
    }
}

/// The result of one call into scenario code.
public enum Outcome: Sendable {
    /// Returned normally; `truthy` is whether the first result was neither nil nor false.
    case returned(truthy: Bool)
    case failed(ScriptFailure)
}

/// How a background thread's run stopped.
public enum ThreadRun: Sendable {
    case finished(Outcome)
    /// It waits (`work`, a held lock, `q:sync`): the host keeps it as `parked` to resume later.
    case parked(Int)
}

/// A fake server's answer, kept by the host: its status for the World, the value for the app.
public struct ServedResponse: Sendable {
    public var status: Int
    public var value: ScriptRef
    /// The route's `transfer`: how long the body takes on the wire after the latency (SPEC 15).
    public var transfer: Millis
    public init(status: Int, value: ScriptRef, transfer: Millis = 0) { self.status = status; self.value = value; self.transfer = transfer }
}

/// What the simulator needs from the scripting layer.
public protocol ScriptHost: AnyObject {
    /// Calls `fn` as the World's current context (app, world, server, expect) says.
    func invoke(_ fn: ScriptRef, _ invocation: Invocation) -> Outcome
    /// Produces a response for `request`: calls a route handler, or copies a stored response.
    func respond(with responder: ScriptRef, isHandler: Bool, request: ScriptRef, requestID: Int)
        -> Result<ServedResponse, ScriptFailure>
    /// The World no longer needs this reference.
    func release(_ ref: ScriptRef)
    /// A timer was invalidated or its process ended.
    func timerEnded(_ id: Int)
    /// Runs a background thread's block as a thread that may park (wait); see `ThreadRun`.
    func runThread(_ fn: ScriptRef, _ invocation: Invocation) -> ThreadRun
    /// A BGTask object for a launch handler (`task.identifier`, `task.expirationHandler`,
    /// `task:setTaskCompleted`), kept until released.
    func makeTaskObject(identifier: String, key: GrantKey) -> ScriptRef
    /// Takes (and clears) the `expirationHandler` the app set on a task object.
    func takeExpirationHandler(of task: ScriptRef) -> ScriptRef?
    /// The function in field `name` of a table (a URL session's delegate), kept; nil when none.
    func field(_ name: String, of table: ScriptRef) -> ScriptRef?
    /// The object of a background session's task (`task.id`, `task:cancel()`), kept.
    func makeTransferObject(session: String, task: Int) -> ScriptRef
    /// This process's object of a background session.
    func sessionObject(_ identifier: String) -> ScriptRef?
    /// Continues a parked thread.
    func resumeThread(_ parked: Int) -> ThreadRun
    /// Forgets a parked thread that will never continue.
    func dropThread(_ parked: Int)
    /// Calls `app{ delegate = function(app) ... end }` and reads the delegate table it returns.
    func makeDelegate(_ factory: ScriptRef) -> Result<ProcessDelegate, ScriptFailure>
    /// Where a function was defined (or, for a built-in action, where it was handed over).
    func location(of ref: ScriptRef) -> SourceLocation?
    /// Host work done for the scenario that grows with its input (walks over threads, tasks):
    /// counted toward the run's instruction limit like work inside library functions (SPEC 11).
    func charge(hostWork units: Int)
    /// The scenario line running now: the running handler's innermost line in a scenario file,
    /// else where the handler it runs was defined or handed over (`at(5, user.home)`); nil when no
    /// scenario code runs (iOS acting on its own). Asked only for the page's timeline entries.
    func currentLocation() -> SourceLocation?
    /// The text of a scenario file or module this run loaded (the page shows lines of it).
    func sourceText(of file: String) -> [UInt8]?
    /// The line the running handler is at, when it can reach the completion handler of `key`
    /// (a missed completion's line while the code holding the handler is still running).
    func runningLine(forCompletionOf key: GrantKey) -> SourceLocation?
    /// Calls `fn` as `invoke` does, and says where it returned: its last `return` statement, else
    /// its end (nil when it did not return, or the host cannot tell). An expiration handler's line,
    /// named by a task it left open.
    func invokeNotingReturn(_ fn: ScriptRef, _ invocation: Invocation) -> (outcome: Outcome, returned: SourceLocation?)
}

extension ScriptHost {
    public func timerEnded(_ id: Int) {}
    public func runThread(_ fn: ScriptRef, _ invocation: Invocation) -> ThreadRun { .finished(invoke(fn, invocation)) }
    public func makeTaskObject(identifier: String, key: GrantKey) -> ScriptRef { ScriptRef(id: -1) }
    public func takeExpirationHandler(of task: ScriptRef) -> ScriptRef? { nil }
    public func field(_ name: String, of table: ScriptRef) -> ScriptRef? { nil }
    public func makeTransferObject(session: String, task: Int) -> ScriptRef { ScriptRef(id: -1) }
    public func sessionObject(_ identifier: String) -> ScriptRef? { nil }
    public func resumeThread(_ parked: Int) -> ThreadRun { .finished(.returned(truthy: false)) }
    public func dropThread(_ parked: Int) {}
    public func makeDelegate(_ factory: ScriptRef) -> Result<ProcessDelegate, ScriptFailure> { .success(ProcessDelegate()) }
    public func location(of ref: ScriptRef) -> SourceLocation? { nil }
    public func charge(hostWork units: Int) {}
    public func currentLocation() -> SourceLocation? { nil }
    public func sourceText(of file: String) -> [UInt8]? { nil }
    public func runningLine(forCompletionOf key: GrantKey) -> SourceLocation? { nil }
    public func invokeNotingReturn(_ fn: ScriptRef, _ invocation: Invocation) -> (outcome: Outcome, returned: SourceLocation?) {
        (invoke(fn, invocation), nil)
    }
}

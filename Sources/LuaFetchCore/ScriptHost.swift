// The contract between the simulator and the scripting layer, in the spirit of wrk's script.h:
// the World sees scenario code only as opaque `ScriptRef`s it asks a `ScriptHost` to invoke, and
// gets back an `Outcome`. LuaFetchScripting implements it; tests can implement it in plain Swift.

/// An opaque handle to a function or value the scripting layer keeps alive. A plain integer, so
/// events carrying it cost no reference counting; `ScriptHost.location(of:)` says where it is from.
public struct ScriptRef: Hashable, Sendable {
    public let id: Int
    public init(id: Int) { self.id = id }
}

/// UIApplicationDelegate methods a scenario's `app{}` may define.
public enum DelegateMethod: String, CaseIterable, Sendable {
    case didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground,
         willEnterForeground, willTerminate, performFetch
}

/// Why the app was launched (`launch.reason`).
public enum LaunchReason: String, Sendable { case user, backgroundFetch, backgroundTask }

/// The four ways a request can fail (SPEC 4.5).
public enum NetworkError: String, Sendable { case timeout, notConnected, connectionLost, cannotFindHost }

/// What the World asks the host to call, and with which arguments.
public enum Invocation: Sendable {
    /// `fn(app)` or, for didFinishLaunching, `fn(app, launch)`.
    case delegate(DelegateMethod, launch: LaunchReason?)
    /// `performFetch(app, completionHandler)`.
    case performFetch(fetchID: Int)
    /// `fn()`: world callbacks, `after`, expiration handlers, expectations.
    case plain
    /// `fn(timer)`.
    case timer(timerID: Int)
    /// `callback(response, err)`: response is the stored response of the request.
    case http(requestID: Int, error: NetworkError?)
    /// `observer(name, info)`.
    case notification(name: String, info: ScriptRef?)
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

/// A fake server's answer, kept by the host: its status for the World, the value for the app.
public struct ServedResponse: Sendable {
    public var status: Int
    public var value: ScriptRef
    public init(status: Int, value: ScriptRef) { self.status = status; self.value = value }
}

/// What the simulator needs from the scripting layer.
public protocol ScriptHost: AnyObject {
    /// Calls `fn` as the World's current context (app, world, server, expect) says.
    func invoke(_ fn: ScriptRef, _ invocation: Invocation) -> Outcome
    /// Produces a response for `request`: calls a route handler, or copies a stored response.
    func respond(with responder: ScriptRef, isHandler: Bool, request: ScriptRef, requestID: Int)
        -> Result<ServedResponse, ScriptFailure>
    /// Attaches a served response (or none) to a request before its callback runs.
    func deliver(response: ServedResponse?, toRequest requestID: Int)
    /// The World no longer needs this reference.
    func release(_ ref: ScriptRef)
    /// A timer was invalidated or its process ended.
    func timerEnded(_ id: Int)
    /// Where a function was defined (or, for a built-in action, where it was handed over).
    func location(of ref: ScriptRef) -> SourceLocation?
}

extension ScriptHost {
    public func timerEnded(_ id: Int) {}
    public func location(of ref: ScriptRef) -> SourceLocation? { nil }
}

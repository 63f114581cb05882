// The violation model (SPEC section 8): codes, severities, exception codes, and the record of one
// violation with its virtual time and the scenario `file:line` responsible. Pure data.

/// A position in a scenario file, shown as `file:line`.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public init(file: String, line: Int) { self.file = file; self.line = line }
    public var description: String { line > 0 ? "\(file):\(line)" : file }
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

    public var severity: Severity {
        switch self {
        case .taskNotEndedInHandler, .taskUnknown, .taskHeldTooLong, .fetchNotConfigured,
             .unmatchedRequest, .pendingAtEnd:
            return .warning
        default:
            return .error
        }
    }

    /// The timeline actor a violation is shown under.
    public var actor: String {
        switch self {
        case .taskExpired, .taskNotEndedInHandler, .taskUnknown, .taskHeldTooLong, .tooManyTasks: return "task"
        case .fetchNoCompletion, .fetchDoubleCompletion, .fetchBadResult, .fetchNotConfigured: return "fetch"
        case .unmatchedRequest: return "net"
        case .callbackOverrun, .appCrash, .appHang, .outOfMemory, .pendingAtEnd: return "app"
        }
    }

    /// The exception code of the termination this violation causes, if iOS reports one.
    public var exceptionCode: String? {
        switch self {
        case .taskExpired, .fetchNoCompletion, .callbackOverrun, .appHang: return "0x8badf00d"
        case .tooManyTasks: return "0xbada5e47"
        case .fetchDoubleCompletion: return "NSInternalInconsistencyException"
        default: return nil
        }
    }
}

/// One broken rule.
public struct Violation: Sendable {
    public var code: ViolationCode
    public var time: Millis
    public var location: SourceLocation?
    public var message: String
    public var traceback: String?
    public var severity: Severity { code.severity }
    public var exceptionCode: String? { code.exceptionCode }
}

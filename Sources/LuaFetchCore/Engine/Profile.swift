// OS profiles (SPEC section 5): the numbers iOS enforces, per release family, each overridable
// from `scenario{ budgets = {...} }`. Pure data; used by the World.

/// The numbers of one OS profile, in milliseconds (nil: the profile has no such thing).
public struct Budgets: Equatable, Sendable {
    public var backgroundTask: Millis
    public var backgroundTaskLaunched: Millis?
    public var expirationWarning: Millis
    public var fetch: Millis?
    public var didEnterBackground: Millis
    public var willTerminate: Millis
    public var launch: Millis
    public var fetchFloor: Millis?
    public var taskHeldWarning: Millis?
    public var maxTasks: Int?
    /// How long a transition waits for a blocked main thread before `main-thread-hang` (SPEC 12.2).
    public var mainThreadHang: Millis = 10 * Time.second
    /// SPEC 17 (nil: the profile has no such API).
    public var refreshTask: Millis?
    public var processingTask: Millis?
    public var refreshDelay: Millis?
    public var continuedNoProgress: Millis?
    public var pushCompletion: Millis?
    public var sessionEvents: Millis?

    /// Every number `scenario{ budgets = {...} }` can set, in SPEC order: its name and how it is
    /// set (from milliseconds, or from the plain number for the count `maxTasks`). One table.
    typealias Setter = @Sendable (inout Budgets, Millis, Double) -> Void
    static let fields: [(name: String, set: Setter)] = [
        ("backgroundTask", { (b: inout Budgets, ms: Millis, _: Double) in b.backgroundTask = ms }),
        ("backgroundTaskLaunched", { (b: inout Budgets, ms: Millis, _: Double) in b.backgroundTaskLaunched = ms }),
        ("expirationWarning", { (b: inout Budgets, ms: Millis, _: Double) in b.expirationWarning = ms }),
        ("fetch", { (b: inout Budgets, ms: Millis, _: Double) in b.fetch = ms }),
        ("didEnterBackground", { (b: inout Budgets, ms: Millis, _: Double) in b.didEnterBackground = ms }),
        ("willTerminate", { (b: inout Budgets, ms: Millis, _: Double) in b.willTerminate = ms }),
        ("launch", { (b: inout Budgets, ms: Millis, _: Double) in b.launch = ms }),
        ("fetchFloor", { (b: inout Budgets, ms: Millis, _: Double) in b.fetchFloor = ms }),
        ("taskHeldWarning", { (b: inout Budgets, ms: Millis, _: Double) in b.taskHeldWarning = ms }),
        ("maxTasks", { (b: inout Budgets, _: Millis, n: Double) in b.maxTasks = Int(n) }),
        ("mainThreadHang", { (b: inout Budgets, ms: Millis, _: Double) in b.mainThreadHang = ms }),
        ("refreshTask", { (b: inout Budgets, ms: Millis, _: Double) in b.refreshTask = ms }),
        ("processingTask", { (b: inout Budgets, ms: Millis, _: Double) in b.processingTask = ms }),
        ("refreshDelay", { (b: inout Budgets, ms: Millis, _: Double) in b.refreshDelay = ms }),
        ("continuedNoProgress", { (b: inout Budgets, ms: Millis, _: Double) in b.continuedNoProgress = ms }),
        ("pushCompletion", { (b: inout Budgets, ms: Millis, _: Double) in b.pushCompletion = ms }),
        ("sessionEvents", { (b: inout Budgets, ms: Millis, _: Double) in b.sessionEvents = ms }),
    ]

    /// The names `scenario{ budgets = {...} }` accepts, in SPEC order.
    public static let names = fields.map(\.name)

    /// Sets one number by name (seconds, or a count for maxTasks). Returns false for an unknown name.
    public mutating func set(_ name: String, seconds: Double) -> Bool {
        guard let ms = Time.millis(fromSeconds: seconds), let field = Budgets.fields.first(where: { $0.name == name }) else {
            return false
        }
        field.set(&self, ms, seconds)
        return true
    }
}

/// An OS profile: `ios6`, `ios7` (iOS 7–12), `ios13` (13 and later) or `ios26` (Part II: the
/// numbers of `ios13` for everything of Part I).
public enum OSProfile: String, CaseIterable, Sendable {
    case ios6, ios7, ios13, ios26

    public var hasFetchAPI: Bool { self != .ios6 }
    /// BackgroundTasks (BGTaskScheduler) exists from iOS 13.
    public var hasBackgroundTasks: Bool { self == .ios13 || self == .ios26 }

    public var budgets: Budgets {
        var b = partOneBudgets
        let s = Time.second
        if self != .ios6 { b.pushCompletion = 30 * s; b.sessionEvents = 30 * s }
        if hasBackgroundTasks { b.refreshTask = 30 * s; b.processingTask = 300 * s; b.refreshDelay = 1800 * s }
        if self == .ios26 { b.continuedNoProgress = 60 * s }
        return b
    }

    private var partOneBudgets: Budgets {
        let s = Time.second
        switch self {
        case .ios6:
            return Budgets(backgroundTask: 600 * s, backgroundTaskLaunched: nil, expirationWarning: 5 * s,
                           fetch: nil, didEnterBackground: 5 * s, willTerminate: 5 * s, launch: 20 * s,
                           fetchFloor: nil, taskHeldWarning: nil, maxTasks: nil)
        case .ios7:
            return Budgets(backgroundTask: 180 * s, backgroundTaskLaunched: 30 * s, expirationWarning: 5 * s,
                           fetch: 30 * s, didEnterBackground: 5 * s, willTerminate: 5 * s, launch: 20 * s,
                           fetchFloor: 600 * s, taskHeldWarning: nil, maxTasks: 1000)
        case .ios13, .ios26:
            return Budgets(backgroundTask: 30 * s, backgroundTaskLaunched: 30 * s, expirationWarning: 5 * s,
                           fetch: 30 * s, didEnterBackground: 5 * s, willTerminate: 5 * s, launch: 20 * s,
                           fetchFloor: 900 * s, taskHeldWarning: 30 * s, maxTasks: 1000)
        }
    }
}

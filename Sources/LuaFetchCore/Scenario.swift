// What a scenario declares (SPEC 3): the `scenario{}` settings, the device, the `app{}` delegate,
// and the command line's overrides. Pure data, filled in by the scripting layer.

/// How background fetches are scheduled (SPEC 6.3).
public enum FetchPolicy: String, CaseIterable, Sendable { case adaptive, fixed, manual }

/// The settings of `scenario{}`, with SPEC defaults.
public struct ScenarioConfig: Sendable {
    public var name: String
    public var os: OSProfile = .ios13
    public var seed: Int64 = 1
    /// How long to run; nil means until idle, at most 30 days.
    public var duration: Millis?
    public var fetchPolicy: FetchPolicy = .adaptive
    public var multitasking = true
    public var backgroundRefresh = true
    public var lowPowerMode = false
    /// `budgets = {...}` overrides, in the order given.
    public var budgetOverrides: [(name: String, value: Double)] = []
    /// Lua instructions one handler call may run before it is an endless loop.
    public var instructionBudget: Int64 = 100_000_000
    /// Bytes of Lua memory the scenario may use.
    public var memoryCap: Int = 256 << 20
    /// The most events one run may process (about 20 s of work): a scenario that needs more (a
    /// world `every` of a few milliseconds over days) fails loudly instead of running for minutes.
    public var eventLimit = 100_000_000

    public init(name: String) { self.name = name }
}

/// Command-line options that shape a run (and so appear in the reproduction command).
public struct RunOptions: Sendable {
    public var seed: Int64?
    public var os: OSProfile?
    public var until: Millis?
    public var strict = false
    public init(seed: Int64? = nil, os: OSProfile? = nil, until: Millis? = nil, strict: Bool = false) {
        self.seed = seed; self.os = os; self.until = until; self.strict = strict
    }
}

/// The scenario's `app{}` declaration.
public struct AppDeclaration: Sendable {
    public var backgroundModes: [String] = []
    public var delegate: [DelegateMethod: ScriptRef] = [:]
    public var location: SourceLocation?
    public init() {}
    public var hasFetchMode: Bool { backgroundModes.contains("fetch") }
}

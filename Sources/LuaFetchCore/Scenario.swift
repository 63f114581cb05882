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
    /// The most events one run may process: a scenario that needs more (a world `every` of a few
    /// milliseconds over days) fails loudly instead of running for minutes (SPEC 11).
    public var eventLimit = 100_000_000
    /// Units (Lua VM instructions plus counted C work) the whole run may spend (SPEC 11).
    public var instructionLimit: Int64 = 10_000_000_000

    public init(name: String) { self.name = name }
}

/// Command-line options that shape a run (and so appear in the reproduction command).
public struct RunOptions: Sendable {
    public var seed: Int64?
    public var os: OSProfile?
    public var until: Millis?
    public var strict = false
    /// `--limit-instructions`, `--limit-events`, `--limit-memory` (override `scenario{ limits }`).
    public var limits = RunLimits()
    public init(seed: Int64? = nil, os: OSProfile? = nil, until: Millis? = nil, strict: Bool = false,
                limits: RunLimits = RunLimits()) {
        self.seed = seed; self.os = os; self.until = until; self.strict = strict; self.limits = limits
    }
}

/// Limits of a whole run given on the command line (nil: the scenario's or the default).
public struct RunLimits: Sendable, Equatable {
    public var instructions: Int64?
    public var events: Int?
    public var memory: Int?
    public init(instructions: Int64? = nil, events: Int? = nil, memory: Int? = nil) {
        self.instructions = instructions; self.events = events; self.memory = memory
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

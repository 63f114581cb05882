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
    /// `device = {...}`: the device at the start of the run (World.device is the device now).
    public var device = DeviceSettings()
    /// `budgets = {...}` overrides, in the order given.
    public var budgetOverrides: [(name: String, value: Double)] = []
    /// Lua instructions one handler call may run before it is an endless loop.
    public var instructionBudget: Int64 = 100_000_000
    /// Bytes of Lua memory the scenario may use.
    public var memoryCap: Int = 256 << 20
    /// The most events one run may process: a scenario that needs more (a world `every` of a few
    /// milliseconds over days) fails loudly instead of running for minutes (SPEC 11, third
    /// amendment: 10^7, reached within seconds; the largest example uses a few hundred).
    public var eventLimit = 10_000_000
    /// Units (Lua VM instructions plus counted C work) the whole run may spend (SPEC 11, third
    /// amendment: 10^9, reached within seconds).
    public var instructionLimit: Int64 = 1_000_000_000
    /// `debugger = true`: as if Xcode's debugger were attached (SPEC 12.5).
    public var debugger = false

    public init(name: String) { self.name = name }
}

/// The device's settings that matter to background execution (SPEC 3, 6.2).
public struct DeviceSettings: Sendable, Equatable {
    public var multitasking = true
    public var backgroundRefresh = true
    public var lowPowerMode = false
    /// Connectivity (airplane mode off): `system.setNetwork(on)` (SPEC 13).
    public var network = true
    /// Daily windows [from, to) in milliseconds after midnight in which the device is idle and
    /// charging (SPEC 13; default 01:00–05:00).
    public var idleWindows: [Range<Millis>] = [3_600_000..<18_000_000]
    /// `system.setCharging(on)` / `system.setDeviceIdle(on)`: nil follows the windows.
    public var charging: Bool?
    public var idle: Bool?
    public init() {}
}

/// Command-line options that shape a run (and so appear in the reproduction command).
public struct RunOptions: Sendable {
    public var seed: Int64?
    public var os: OSProfile?
    public var until: Millis?
    public var strict = false
    /// `--debugger` (SPEC 12.5).
    public var debugger = false
    /// `--order N` (SPEC 12.4): bit i takes the other alternative at the i-th choice point.
    public var order: UInt64 = 0
    /// `--limit-instructions`, `--limit-events`, `--limit-memory` (override `scenario{ limits }`).
    public var limits = RunLimits()
    /// `--settle`: at its end (`duration` or `--until`) the run goes on while work is pending that
    /// would finish on its own (a deadline, a response, a completion limit), for at most
    /// `World.settleLimit`, and only then reports what is still pending and checks expectations.
    /// Explore's runs settle, so cutting a run is never a finding.
    public var settle = false
    /// `--stub-draws explore` (SPEC 18.7.11): stubs of imported scenarios draw as explore's runs
    /// do (times from the whole range, nil results, failure paths), so `run` replays a finding.
    public var stubDraws = StubDraws.run
    /// `--stub-failures` (SPEC 18.9.3): under explore's draws, how many stub calls fail in a run.
    public var stubFailures = StubFailures.one
    public init(seed: Int64? = nil, os: OSProfile? = nil, until: Millis? = nil, strict: Bool = false,
                limits: RunLimits = RunLimits(), debugger: Bool = false, order: UInt64 = 0, settle: Bool = false,
                stubDraws: StubDraws = .run, stubFailures: StubFailures = .one) {
        self.seed = seed; self.os = os; self.until = until; self.strict = strict; self.limits = limits
        self.debugger = debugger; self.order = order; self.settle = settle; self.stubDraws = stubDraws
        self.stubFailures = stubFailures
    }
}

/// How many stub calls fail in a run with explore's draws (SPEC 18.9.3).
public enum StubFailures: String, Sendable, CaseIterable {
    /// None: every stub succeeds (still with drawn times and loop counts).
    case none
    /// Half of the runs none; the other half, exactly one execution of one call site that can
    /// fail among those the run reaches (stubs.lua says how it is chosen).
    case one
    /// Each call that can fail fails with probability 1/4 (the draws before SPEC 18.9).
    case every
}

/// How the stubs of an imported scenario draw (SPEC 18.4).
public enum StubDraws: String, Sendable {
    /// Times from the stub's range, results as specified.
    case run
    /// As explore: times from the whole range, and failures (nil results, failure paths) as
    /// `--stub-failures` says.
    case explore
}

/// Limits of a whole run given on the command line (nil: the scenario's or the default).
public struct RunLimits: Sendable, Equatable {
    public var instructions: Int64?
    public var events: Int?
    public var memory: Int?
    public init(instructions: Int64? = nil, events: Int? = nil, memory: Int? = nil) {
        self.instructions = instructions; self.events = events; self.memory = memory
    }

    public static let names = ["instructions", "events", "memory"]
    /// What each limit may be set to (memory in bytes: 1 MiB to 4 GiB).
    public static let ranges: [String: ClosedRange<Int64>] = [
        "instructions": 1_000...1_000_000_000_000_000,
        "events": 1...1_000_000_000_000,
        "memory": Int64(1 << 20)...Int64(4) << 30,
    ]

    /// Parses a command-line limit: `1000000`, `1e9`, and for memory also `64M`, `2G`, `512K`
    /// (binary units). Nil when it is not a whole number in the limit's range.
    public static func parse(_ text: String, for name: String) -> Int64? {
        guard let range = ranges[name], !text.isEmpty else { return nil }
        var digits = Substring(text)
        var scale: Double = 1
        if name == "memory", let last = digits.last, let shift = ["K": 10, "M": 20, "G": 30][String(last).uppercased()] {
            scale = Double(1 << shift)
            digits = digits.dropLast()
        }
        guard let d = Double(digits), d.isFinite else { return nil }
        let v = d * scale
        guard v.rounded() == v, v >= Double(range.lowerBound), v <= Double(range.upperBound) else { return nil }
        return Int64(v)
    }
}

/// The scenario's `app{}` declaration.
public struct AppDeclaration: Sendable {
    public var backgroundModes: [String] = []
    /// Delegate fields given in `app{}` itself (they outlive every process).
    public var delegate: [DelegateMethod: ScriptRef] = [:]
    /// The delegate methods through which grants reach the app (performFetch), by kind.
    public var grantHandlers: [GrantKind: ScriptRef] = [:]
    /// `delegate = function(app) ... return { ... } end` (SPEC 12.1): called at the start of every
    /// process; what it returns is that process's delegate.
    public var factory: ScriptRef?
    /// `BGTaskSchedulerPermittedIdentifiers` (SPEC 13).
    public var permittedIdentifiers: [String] = []
    /// `scenes = true`: the UIScene life cycle (SPEC 16), and the scene delegate given in app{}.
    public var scenes = false
    public var sceneDelegate: [SceneMethod: ScriptRef] = [:]
    public var location: SourceLocation?
    public init() {}
    public var hasFetchMode: Bool { backgroundModes.contains("fetch") }
}

/// The delegate of one process: made by `app{ delegate = function ... }` at each launch.
public struct ProcessDelegate: Sendable {
    public var methods: [DelegateMethod: ScriptRef] = [:]
    public var grantHandlers: [GrantKind: ScriptRef] = [:]
    public var sceneMethods: [SceneMethod: ScriptRef] = [:]
    public init() {}
    /// Every function it holds (released when the process ends).
    var refs: [ScriptRef] {
        DelegateMethod.allCases.compactMap { methods[$0] } + GrantKind.allCases.compactMap { grantHandlers[$0] }
            + SceneMethod.allCases.compactMap { sceneMethods[$0] }
    }
}

// The seam every part of the world plugs into. A subsystem (background tasks, grants, the fetch
// schedule, the network, app timers, expectations, the scenario's timeline) keeps its own state
// and answers the World's cross-cutting questions: does it keep a background app running, what
// happens when the app is suspended, resumed or its process ends, which deadlines cut `work`
// short, which of its events need the main thread, what `.pending` and `pending-at-end` list, and how to run its own events. The World
// loops over `World.subsystems` in a fixed order (the order of `SubsystemID`) and never names
// them in that code, except `World.deliver`, the one switch that hands an event to its owner as
// its own class (every event passes there). Events are plain values (a subsystem, a kind, numbers), so the queue holds
// no closures. Used by World and every Core file that adds a subsystem.

/// Who an event belongs to; also the order in which the World asks subsystems.
enum SubsystemID: UInt8, CaseIterable {
    case timeline, lifecycle, container, tasks, grants, network, appTime, threads, dispatch, fetch, bgTasks, sessions, expectations
}

/// A scheduled happening: the subsystem it belongs to, a kind that subsystem defines, and plain
/// numbers. `pid` is the process that owns it (0: the world's): an app event is parked while its
/// process is suspended and dropped once the process is gone. `b` is a 32-bit number (a flag, a
/// serial, a registry reference): the fields are laid out widest first, so an event takes 18 bytes
/// and the queue's slot, with its flags and generation, 24 (a million pending events: 24 MB).
struct Event {
    let a: Int
    let pid: Int32
    private let b32: Int32
    let owner: SubsystemID
    let kind: UInt8

    /// `b` must fit in 32 bits (every caller passes a flag, a serial or a registry reference).
    init<K: RawRepresentable>(_ owner: SubsystemID, _ kind: K, pid: Int = 0, a: Int = 0, b: Int = 0) where K.RawValue == UInt8 {
        self.owner = owner; self.kind = kind.rawValue; self.pid = Int32(truncatingIfNeeded: pid); self.a = a; self.b32 = Int32(b)
    }

    var b: Int { Int(b32) }

    /// The kind as the owner's enum.
    func kind<K: RawRepresentable>(_: K.Type) -> K where K.RawValue == UInt8 { K(rawValue: kind)! }

    /// The process an app event belongs to.
    var appPid: Int? { pid == 0 ? nil : Int(pid) }
}

/// How an event reaches its subsystem.
enum Delivery {
    /// At its time.
    case due
    /// Late, after the app resumed from suspension (it was parked meanwhile).
    case afterResume
}

/// One part of the world. Every requirement but `handle` has a default that does nothing.
protocol Subsystem: AnyObject {
    /// Runs one of its events.
    func handle(_ event: Event, at time: Millis, _ delivery: Delivery, in world: World)
    /// Whether it keeps a background app from being suspended now.
    func keepsAppRunning(_ world: World) -> Bool
    /// The app is about to be suspended (nothing kept it running).
    func appSuspending(_ world: World)
    /// The app came back from suspension: deliver what waited (before parked events).
    func appResumed(_ world: World)
    /// The process `pid` ends: drop or abandon what belongs to it (in subsystem order).
    func processEnding(_ pid: Int, in world: World)
    /// The app just stopped running code: it was suspended or its process ended.
    func appStopped(_ world: World)
    /// Whether running `event` needs the main thread (app code on it): while the main thread is
    /// blocked such events wait for it (SPEC 12.2). By default, the process's own events do.
    func needsMainThread(_ event: Event) -> Bool
    /// How long `event` may wait for a blocked main thread (a transition); nil: as long as it takes.
    func mainWaitLimit(_ event: Event) -> MainWaiter.Limit?
    /// Lines for the REPL's `.pending`.
    func pendingLines(in world: World) -> [String]
    /// What is left at the end of a run, for `pending-at-end`: phrases and the first location.
    func pendingAtEnd(in world: World) -> (parts: [String], location: SourceLocation?)
    /// Where the scenario code behind one of its events was written.
    func location(of event: Event, in world: World) -> SourceLocation?
}

extension Subsystem {
    func keepsAppRunning(_ world: World) -> Bool { false }
    func appSuspending(_ world: World) {}
    func appResumed(_ world: World) {}
    func processEnding(_ pid: Int, in world: World) {}
    func appStopped(_ world: World) {}
    func needsMainThread(_ event: Event) -> Bool { event.pid != 0 }
    func mainWaitLimit(_ event: Event) -> MainWaiter.Limit? { nil }
    func pendingLines(in world: World) -> [String] { [] }
    func pendingAtEnd(in world: World) -> (parts: [String], location: SourceLocation?) { ([], nil) }
    func location(of event: Event, in world: World) -> SourceLocation? { nil }
}

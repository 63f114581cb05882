// The actions of the person and the system (SPEC 6.1, 6.2) in one table: each row names the Lua
// function (`user.home`), its argument, what it does to the World, and how explore uses it (its
// `--inject` name, its share of random schedules and how it draws its argument). The Lua tables
// `user` and `system`, the REPL's completions, `--inject` parsing and the lines a finding
// replays are all derived from it. Pure Swift.

/// The argument an action takes.
public enum ActionArgument: Equatable, Sendable {
    case none
    /// A positive duration (`user.interrupt(20)`).
    case duration(Millis)
    /// On or off (`system.setLowPowerMode(true)`).
    case flag(Bool)
    /// On, off, or nil: back to the default (`system.setCharging(nil)`).
    case optionalFlag(Bool?)
    /// A BGTask identifier (`system.launchTask("com.example.refresh")`).
    case identifier(String)
    /// A push: its userInfo (a copy the host keeps; nil: an empty table) and whether it is
    /// content-available.
    case push(ScriptRef?, contentAvailable: Bool)
}

/// One row of the action table.
public struct ActionSpec: Sendable {
    public enum Takes: Sendable { case nothing, duration, flag, optionalFlag, identifier, push }
    /// The Lua table it lives in (`user`, `system`) and its name there.
    public let table: String
    public let name: String
    public let takes: Takes
    /// Its name in `--inject` and explore (`home`, `lowPower`); nil: explore never injects it.
    public let injectName: String?
    /// Its share (out of 100) of the actions explore draws.
    public let exploreWeight: Int
    /// Draws its argument for explore from the explore stream.
    let draw: @Sendable (inout SeededStream) -> ActionArgument
    /// Whether explore injects it now: it would do something, and iOS would do it in this state
    /// (Home only in the foreground, no second fetch while one waits for its completion, ...).
    let useful: @Sendable (World, ActionArgument) -> Bool
    /// Does it.
    let perform: @Sendable (World, ActionArgument) -> Void
    /// Why it cannot be done now (an error in world code), or nil.
    let check: @Sendable (World, ActionArgument) -> String?

    /// `user.home`.
    public var qualifiedName: String { "\(table).\(name)" }

    public func perform(_ argument: ActionArgument, in world: World) { perform(world, argument) }
}

extension ActionSpec {
    init(_ table: String, _ name: String, _ takes: Takes = .nothing, inject: String? = nil, weight: Int = 0,
         draw: @escaping @Sendable (inout SeededStream) -> ActionArgument = { _ in .none },
         check: @escaping @Sendable (World, ActionArgument) -> String? = { _, _ in nil },
         useful: @escaping @Sendable (World, ActionArgument) -> Bool = { _, _ in true },
         _ perform: @escaping @Sendable (World, ActionArgument) -> Void) {
        self.table = table; self.name = name; self.takes = takes; self.injectName = inject
        self.exploreWeight = weight; self.draw = draw; self.check = check; self.useful = useful; self.perform = perform
    }

    /// Whether explore injects it now (see `useful`); never when world code would be refused.
    public func isUseful(_ argument: ActionArgument, in world: World) -> Bool {
        check(world, argument) == nil && useful(world, argument)
    }

    /// Why the action cannot be done now, as world code is told (nil: it can).
    public func refusal(_ argument: ActionArgument, in world: World) -> String? { check(world, argument) }

    /// Every action, in the order explore's weights are laid out.
    public static let all: [ActionSpec] = [
        ActionSpec("user", "launch") { w, _ in w.userLaunch() },
        ActionSpec("user", "home", inject: "home", weight: 16, useful: { w, _ in w.isForeground }) { w, _ in w.userHome() },
        ActionSpec("user", "open", inject: "open", weight: 16, useful: { w, _ in !w.isForeground }) { w, _ in w.userLaunch() },
        ActionSpec("user", "forceQuit", inject: "forceQuit", weight: 6, useful: { w, _ in w.state != .notRunning }) { w, _ in w.userForceQuit() },
        ActionSpec("user", "cancelTask", .identifier, inject: "cancelTask", weight: 2, draw: { _ in .identifier("*") }, check: { w, a in
            guard case .identifier(let id) = a, !w.hasRunningBGTask(id, continued: true) else { return nil }
            return "user.cancelTask(\"\(id)\"): no continued task with that identifier is running"
        }) { w, a in
            if case .identifier(let id) = a { w.userCancelTask(id) }
        },
        ActionSpec("user", "interrupt", .duration, inject: "interrupt", weight: 8,
                   draw: { .duration(Time.second * Millis(5 + $0.next() % 56)) }, useful: { w, _ in w.state == .active }) { w, a in
            if case .duration(let d) = a { w.userInterrupt(for: d) }
        },
        ActionSpec("system", "backgroundFetch", inject: "backgroundFetch", weight: 8,
                   useful: { w, _ in w.fetchInjectable }) { w, _ in w.systemBackgroundFetch() },
        ActionSpec("system", "launchForFetch") { w, _ in w.systemLaunchForFetch() },
        ActionSpec("system", "memoryPressure", inject: "memoryPressure", weight: 5,
                   useful: { w, _ in w.state == .suspended }) { w, _ in w.systemMemoryPressure() },
        ActionSpec("system", "disconnectScene", inject: "disconnectScene", weight: 3,
                   check: { w, _ in w.disconnectSceneRefusal }) { w, _ in w.systemDisconnectScene() },
        ActionSpec("system", "setLowPowerMode", .flag, inject: "lowPower", weight: 4,
                   draw: { .flag($0.next() % 2 == 0) }, useful: { w, a in a != .flag(w.device.lowPowerMode) }) { w, a in
            if case .flag(let on) = a { w.systemSetLowPowerMode(on) }
        },
        ActionSpec("system", "setBackgroundRefresh", .flag) { w, a in
            if case .flag(let on) = a { w.systemSetBackgroundRefresh(on) }
        },
        ActionSpec("system", "remoteNotification", .push, inject: "push", weight: 8,
                   draw: { .push(nil, contentAvailable: $0.next() % 4 != 0) }) { w, a in
            if case .push(let info, let available) = a { w.systemRemoteNotification(info, contentAvailable: available) }
        },
        ActionSpec("system", "setNetwork", .flag, inject: "network", weight: 5,
                   draw: { .flag($0.next() % 2 == 0) }, useful: { w, a in a != .flag(w.device.network) }) { w, a in
            if case .flag(let on) = a { w.systemSetNetwork(on) }
        },
        ActionSpec("system", "setCharging", .optionalFlag, inject: "charging", weight: 3,
                   draw: { .optionalFlag(optionalFlag(&$0)) }, useful: { w, a in a != .optionalFlag(w.device.charging) }) { w, a in
            if case .optionalFlag(let on) = a { w.systemSetCharging(on) }
        },
        ActionSpec("system", "setDeviceIdle", .optionalFlag, inject: "deviceIdle", weight: 3,
                   draw: { .optionalFlag(optionalFlag(&$0)) }, useful: { w, a in a != .optionalFlag(w.device.idle) }) { w, a in
            if case .optionalFlag(let on) = a { w.systemSetDeviceIdle(on) }
        },
        ActionSpec("system", "launchTask", .identifier, inject: "launchTask", weight: 5, draw: { _ in .identifier("*") }, check: { w, a in
            guard case .identifier(let id) = a, !w.hasPendingBGRequest(id) else { return nil }
            return "system.launchTask(\"\(id)\"): no request with that identifier is pending (submit one with BGTaskScheduler.submit first)"
        }, useful: { w, a in
            // iOS never runs two tasks of one identifier at once: explore does not launch a second.
            if case .identifier(let id) = a { return w.hasLaunchableBGRequest(id) }
            return true
        }) { w, a in
            if case .identifier(let id) = a { w.systemLaunchTask(id) }
        },
        ActionSpec("system", "expireTask", .identifier, inject: "expireTask", weight: 4, draw: { _ in .identifier("*") }, check: { w, a in
            guard case .identifier(let id) = a, !w.hasRunningBGTask(id) else { return nil }
            return "system.expireTask(\"\(id)\"): no task with that identifier is running"
        }) { w, a in
            if case .identifier(let id) = a { w.systemExpireTask(id) }
        },
        ActionSpec("system", "serverOutage", .duration, inject: "outage", weight: 4,
                   draw: { .duration(Time.second * Millis(5 + $0.next() % 596)) }, useful: { w, _ in w.outageInjectable }) { w, a in
            if case .duration(let d) = a { w.systemServerOutage(for: d) }
        },
    ]

    /// On, off or back to the default, evenly.
    static func optionalFlag(_ rng: inout SeededStream) -> Bool? {
        switch rng.next() % 3 { case 0: return true; case 1: return false; default: return nil }
    }

    /// The action `--inject` calls `name`.
    public static func injected(_ name: String) -> ActionSpec? { injectedRows[name].map { all[$0] } }
    /// The row of each `--inject` name.
    static let injectedRows: [String: Int] = Dictionary(uniqueKeysWithValues: all.indices.compactMap { i in all[i].injectName.map { ($0, i) } })
    /// The rows explore draws from (a weight above zero), in table order.
    static let explored: [Int] = all.indices.filter { all[$0].exploreWeight > 0 }

    /// The Lua tables actions live in, in order.
    public static var tables: [String] {
        var out: [String] = []
        for a in all where !out.contains(a.table) { out.append(a.table) }
        return out
    }
}

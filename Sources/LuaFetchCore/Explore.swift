// Explore's injected actions (SPEC 10): seeded random user and system actions (the injectable
// rows of the action table, Actions.swift) put on top of a scenario's own timeline; their text
// form for `luafetch run --inject` ("12.5:home,30:interrupt=20"), the scenario fragment that
// replays them, and the shrinking of a list to a minimal one. Pure Swift.

/// One action explore adds to a run: an action of the table in Actions.swift, its argument, its time.
public struct InjectedAction: Equatable, Sendable {
    /// Which action, by its `--inject` name, with its argument.
    public struct Kind: Equatable, Sendable {
        public let name: String
        public let argument: ActionArgument
        /// Only for names of the action table (parse, random and the constants below make them).
        init(_ name: String, _ argument: ActionArgument = .none) { self.name = name; self.argument = argument }
        public static let home = Kind("home"), open = Kind("open"), forceQuit = Kind("forceQuit")
        public static let backgroundFetch = Kind("backgroundFetch"), memoryPressure = Kind("memoryPressure")
        public static func interrupt(_ d: Millis) -> Kind { Kind("interrupt", .duration(d)) }
        public static func lowPower(_ on: Bool) -> Kind { Kind("lowPower", .flag(on)) }
        var spec: ActionSpec { ActionSpec.injected(name)! }
    }
    public var time: Millis
    public var kind: Kind

    public init(time: Millis, kind: Kind) { self.time = time; self.kind = kind }

    /// Puts the action on the world's timeline (after the scenario's own events of that time).
    public func schedule(in world: World) {
        let kind = self.kind
        world.at(time) { [unowned world] in kind.spec.perform(kind.argument, in: world) }
    }

    // MARK: - Text forms

    /// `12.5:home`, `30:interrupt=20`, `60:lowPower=on`.
    public var spec: String {
        let t = Time.secondsText(time)
        switch kind.argument {
        case .none: return "\(t):\(kind.name)"
        case .duration(let d): return "\(t):\(kind.name)=\(Time.secondsText(d))"
        case .flag(let on): return "\(t):\(kind.name)=\(on ? "on" : "off")"
        case .optionalFlag(let on): return "\(t):\(kind.name)=\(on.map { $0 ? "on" : "off" } ?? "default")"
        case .identifier(let id): return "\(t):\(kind.name)=\(id)"
        case .push(_, let available): return "\(t):\(kind.name)\(available ? "" : "=alert")"
        }
    }

    /// The scenario line that does the same: `at(12.5, user.home)`.
    public var luaLine: String {
        let t = Time.secondsText(time)
        let fn = kind.spec.qualifiedName
        switch kind.argument {
        case .none: return "at(\(t), \(fn))"
        case .duration(let d): return "at(\(t), function() \(fn)(\(Time.secondsText(d))) end)"
        case .flag(let on): return "at(\(t), function() \(fn)(\(on)) end)"
        case .optionalFlag(let on): return "at(\(t), function() \(fn)(\(on.map { "\($0)" } ?? "nil")) end)"
        case .identifier(let id): return "at(\(t), function() \(fn)(\"\(id)\") end)"
        case .push(_, let available): return "at(\(t), function() \(fn)({}, { contentAvailable = \(available) }) end)"
        }
    }

    /// Parses `--inject`: comma-separated `SECONDS:ACTION[=ARG]`. Nil (with a reason) when malformed.
    public static func parse(_ text: String) -> Result<[InjectedAction], InjectError> {
        var out: [InjectedAction] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let t = Double(parts[0]), let time = Time.millis(fromSeconds: t), time >= 0 else {
                return .failure(InjectError(item: String(item), why: "expected SECONDS:ACTION, like 12.5:home"))
            }
            let action = parts[1].split(separator: "=", maxSplits: 1).map(String.init)
            let arg = action.count > 1 ? action[1] : nil
            let argument: ActionArgument?
            switch (ActionSpec.injected(action[0])?.takes, arg) {
            case (.nothing?, nil): argument = ActionArgument.none
            case (.duration?, let a?):
                guard let d = Double(a), let ms = Time.millis(fromSeconds: d), ms > 0 else {
                    return .failure(InjectError(item: String(item), why: "\(action[0]) needs a duration in seconds, like \(action[0])=20"))
                }
                argument = .duration(ms)
            case (.flag?, "on"), (.optionalFlag?, "on"): argument = ActionSpec.injected(action[0])?.takes == .flag ? .flag(true) : .optionalFlag(true)
            case (.flag?, "off"), (.optionalFlag?, "off"): argument = ActionSpec.injected(action[0])?.takes == .flag ? .flag(false) : .optionalFlag(false)
            case (.optionalFlag?, "default"): argument = .optionalFlag(nil)
            case (.identifier?, let a?) where !a.isEmpty: argument = .identifier(a)
            case (.push?, nil): argument = .push(nil, contentAvailable: true)
            case (.push?, "alert"): argument = .push(nil, contentAvailable: false)
            default: argument = nil
            }
            guard let argument else {
                return .failure(InjectError(item: String(item), why: "actions: \(usage)"))
            }
            out.append(InjectedAction(time: time, kind: Kind(action[0], argument)))
        }
        return .success(out)
    }

    /// The injectable actions as `--inject` writes them.
    public static var usage: String {
        ActionSpec.all.compactMap { a in
            a.injectName.map { name in
                switch a.takes {
                case .nothing: return name
                case .duration: return "\(name)=SECONDS"
                case .flag: return "\(name)=on|off"
                case .optionalFlag: return "\(name)=on|off|default"
                case .identifier: return "\(name)=IDENTIFIER"
                case .push: return "\(name)[=alert]"
                }
            }
        }.joined(separator: ", ")
    }

    // MARK: - Random schedules

    /// The actions explore injects into the run with `seed`, spread over `horizon` (its own stream).
    public static func random(seed: Int64, horizon: Millis) -> [InjectedAction] {
        var rng = SeededStream(seed: seed, stream: "explore")
        let count = 3 + Int(rng.next() % 10)
        var out: [InjectedAction] = []
        let mix = ActionSpec.all.filter { $0.exploreWeight > 0 }
        for _ in 0..<count {
            let time = Millis(rng.unit() * Double(max(horizon, 1)))
            var roll = Int(rng.next() % 100)
            var pick = mix[mix.count - 1]
            for a in mix {
                if roll < a.exploreWeight { pick = a; break }
                roll -= a.exploreWeight
            }
            out.append(InjectedAction(time: time, kind: Kind(pick.injectName!, pick.draw(&rng))))
        }
        return out.sorted { $0.time < $1.time }
    }

    /// Shrinks `actions` to a list from which no single action can be removed while `stillFails`
    /// holds (first the empty list, then one action at a time, repeatedly).
    public static func shrink(_ actions: [InjectedAction], stillFails: ([InjectedAction]) -> Bool) -> [InjectedAction] {
        if stillFails([]) { return [] }
        var current = actions
        var changed = true
        while changed {
            changed = false
            var i = 0
            while i < current.count {
                var candidate = current
                candidate.remove(at: i)
                if stillFails(candidate) {
                    current = candidate
                    changed = true
                } else {
                    i += 1
                }
            }
        }
        return current
    }
}

public struct InjectError: Error, Sendable {
    public var item: String
    public var why: String
}

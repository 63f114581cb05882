// Explore's injected actions (SPEC 10): seeded random user and system actions (home, open,
// forceQuit, interrupt, backgroundFetch, memoryPressure, low power) put on top of a scenario's
// own timeline; their text form for `luafetch run --inject` ("12.5:home,30:interrupt=20"), the
// scenario fragment that replays them, and the shrinking of a list to a minimal one. Pure Swift.

/// One action explore adds to a run.
public struct InjectedAction: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case home, open, forceQuit, backgroundFetch, memoryPressure
        case interrupt(Millis)
        case lowPower(Bool)
    }
    public var time: Millis
    public var kind: Kind

    public init(time: Millis, kind: Kind) { self.time = time; self.kind = kind }

    /// Puts the action on the world's timeline (after the scenario's own events of that time).
    public func schedule(in world: World) {
        let kind = self.kind
        world.at(time, action: "injected") { [unowned world] in
            switch kind {
            case .home: world.userHome()
            case .open: world.userLaunch()
            case .forceQuit: world.userForceQuit()
            case .backgroundFetch: world.systemBackgroundFetch()
            case .memoryPressure: world.systemMemoryPressure()
            case .interrupt(let d): world.userInterrupt(for: d)
            case .lowPower(let on): world.systemSetLowPowerMode(on)
            }
        }
    }

    // MARK: - Text forms

    /// `12.5:home`, `30:interrupt=20`, `60:lowPower=on`.
    public var spec: String {
        let t = Time.secondsText(time)
        switch kind {
        case .home: return "\(t):home"
        case .open: return "\(t):open"
        case .forceQuit: return "\(t):forceQuit"
        case .backgroundFetch: return "\(t):backgroundFetch"
        case .memoryPressure: return "\(t):memoryPressure"
        case .interrupt(let d): return "\(t):interrupt=\(Time.secondsText(d))"
        case .lowPower(let on): return "\(t):lowPower=\(on ? "on" : "off")"
        }
    }

    /// The scenario line that does the same: `at(12.5, user.home)`.
    public var luaLine: String {
        let t = Time.secondsText(time)
        switch kind {
        case .home: return "at(\(t), user.home)"
        case .open: return "at(\(t), user.open)"
        case .forceQuit: return "at(\(t), user.forceQuit)"
        case .backgroundFetch: return "at(\(t), system.backgroundFetch)"
        case .memoryPressure: return "at(\(t), system.memoryPressure)"
        case .interrupt(let d): return "at(\(t), function() user.interrupt(\(Time.secondsText(d))) end)"
        case .lowPower(let on): return "at(\(t), function() system.setLowPowerMode(\(on)) end)"
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
            let kind: Kind
            switch (action[0], arg) {
            case ("home", nil): kind = .home
            case ("open", nil): kind = .open
            case ("forceQuit", nil): kind = .forceQuit
            case ("backgroundFetch", nil): kind = .backgroundFetch
            case ("memoryPressure", nil): kind = .memoryPressure
            case ("interrupt", let a?):
                guard let d = Double(a), let ms = Time.millis(fromSeconds: d), ms > 0 else {
                    return .failure(InjectError(item: String(item), why: "interrupt needs a duration in seconds, like interrupt=20"))
                }
                kind = .interrupt(ms)
            case ("lowPower", "on"): kind = .lowPower(true)
            case ("lowPower", "off"): kind = .lowPower(false)
            default:
                return .failure(InjectError(item: String(item), why: "actions: home, open, forceQuit, backgroundFetch, memoryPressure, interrupt=SECONDS, lowPower=on|off"))
            }
            out.append(InjectedAction(time: time, kind: kind))
        }
        return .success(out)
    }

    // MARK: - Random schedules

    /// The actions explore injects into the run with `seed`, spread over `horizon` (its own stream).
    public static func random(seed: Int64, horizon: Millis) -> [InjectedAction] {
        var rng = SeededStream(seed: seed, stream: "explore")
        let count = 3 + Int(rng.next() % 10)
        var out: [InjectedAction] = []
        for _ in 0..<count {
            let time = Millis(rng.unit() * Double(max(horizon, 1)))
            let roll = rng.next() % 100
            let kind: Kind
            switch roll {
            case 0..<24: kind = .home
            case 24..<48: kind = .open
            case 48..<56: kind = .forceQuit
            case 56..<68: kind = .interrupt(Time.second * Millis(5 + rng.next() % 56))
            case 68..<84: kind = .backgroundFetch
            case 84..<92: kind = .memoryPressure
            default: kind = .lowPower(rng.next() % 2 == 0)
            }
            out.append(InjectedAction(time: time, kind: kind))
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

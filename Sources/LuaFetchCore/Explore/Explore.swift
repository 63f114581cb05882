// Explore's injected actions (SPEC 10): seeded random user and system actions (the injectable
// rows of the action table, Actions.swift) put on top of a scenario's own timeline; their text
// form for `luafetch run --inject` ("12.5:home,30:interrupt=20"), the scenario fragment that
// replays them, and the shrinking of a list to a minimal one. Pure Swift.

/// One action explore adds to a run: an action of the table in Actions.swift, its argument, its time.
public struct InjectedAction: Equatable, Sendable {
    /// Which action, by its `--inject` name, with its argument.
    public struct Kind: Equatable, Sendable {
        /// Its row of the action table.
        let row: Int
        public let argument: ActionArgument
        /// Its `--inject` name.
        public var name: String { ActionSpec.all[row].injectName! }
        /// Only for names of the action table (parse, random and the constants below make them).
        init(_ name: String, _ argument: ActionArgument = .none) {
            self.argument = argument; row = ActionSpec.injectedRows[name]!
        }
        init(row: Int, _ argument: ActionArgument) { self.argument = argument; self.row = row }
        public static let home = Kind("home"), open = Kind("open"), forceQuit = Kind("forceQuit")
        public static let backgroundFetch = Kind("backgroundFetch"), memoryPressure = Kind("memoryPressure")
        public static func interrupt(_ d: Millis) -> Kind { Kind("interrupt", .duration(d)) }
        public static let expireTask = Kind("expireTask", .identifier("*")), launchTask = Kind("launchTask", .identifier("*"))
        public static func outage(_ d: Millis) -> Kind { Kind("outage", .duration(d)) }
        public static func lowPower(_ on: Bool) -> Kind { Kind("lowPower", .flag(on)) }
        var spec: ActionSpec { ActionSpec.all[row] }
    }
    public var time: Millis
    public var kind: Kind

    public init(time: Millis, kind: Kind) { self.time = time; self.kind = kind }

    /// Puts the action on the world's timeline (after the scenario's own events of that time).
    /// `counting`: counts the actions that were not useful at their moment (`ActionSpec.isUseful`).
    public func schedule(in world: World, counting useless: UselessCount? = nil) {
        let kind = self.kind
        world.at(time) { [unowned world] in
            if let useless, !kind.spec.isUseful(kind.argument, in: world) { useless.count += 1 }
            kind.spec.perform(kind.argument, in: world)
            if let useless { Self.expectRestore(after: kind, in: world, counting: useless) }
        }
    }

    /// A shrunk schedule stays a person's (ExploreDriver): what they opened they leave, an app
    /// they force-quit they open again, Low Power Mode goes off and the network back on, within
    /// the longest session; a schedule where one of these is still undone then counts as not useful.
    static func expectRestore(after kind: Kind, in world: World, counting useless: UselessCount) {
        let due = world.now + ExploreDriver.sessionLength.longest + 1
        switch (kind.name, kind.argument) {
        case ("open", _):
            let exits = world.stats.foregroundExits
            world.atIfRunning(due) { [unowned world] in if world.isForeground && world.stats.foregroundExits == exits { useless.count += 1 } }
        case ("forceQuit", _):
            let entries = world.stats.foregroundEntries
            world.atIfRunning(due) { [unowned world] in if world.stats.foregroundEntries == entries { useless.count += 1 } }
        case ("lowPower", .flag(true)), ("network", .flag(false)):
            let undo = Kind(kind.name, .flag(kind.name == "network"))
            world.atIfRunning(due) { [unowned world] in if undo.spec.isUseful(undo.argument, in: world) { useless.count += 1 } }
        default:
            break
        }
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

    /// Time that grows log-uniformly from `low` to `high` (an octave drawn evenly, then a point in
    /// it): integers only, so every machine draws the same.
    static func logUniform(_ low: Millis, _ high: Millis, _ rng: inout SeededStream) -> Millis {
        // Octaves low, 2·low, 4·low, ... below high; one drawn, then a time inside it.
        let first = max(1, low)
        var count: UInt64 = 1
        while first << count < high { count += 1 }
        let from = first << Millis(rng.next() % count), to = min(high, from * 2)
        return from + Millis(rng.next() % UInt64(max(1, to - from)))
    }
}

/// How many replayed actions were not useful at their moment (a shrinking candidate with any is
/// no longer a schedule a person and the system would produce).
public final class UselessCount {
    public var count = 0
    public init() {}
}

/// A schedule explore runs and shrinks: injected actions at absolute times and the orders taken
/// at SPEC 12.4's choice points. It replays as `run --seed N --inject ACTIONS --order N`.
public struct Schedule: Equatable, Sendable {
    public var actions: [InjectedAction]
    public var order: UInt64
    /// Where the run ends (`--until`), when a shorter run tells the same story.
    public var until: Millis?
    public init(actions: [InjectedAction], order: UInt64 = 0, until: Millis? = nil) {
        self.actions = actions; self.order = order; self.until = until
    }

    /// `--inject`'s text (empty: none).
    public var injectText: String { actions.map(\.spec).joined(separator: ",") }

    /// Shrinks to a schedule from which no action, pair of neighbours nor switch and its switching
    /// back can be removed, no order
    /// bit cleared, and no action moved closer to the one before, while `stillFails` holds (delta
    /// debugging: chunks, then single actions, then neighbouring pairs, then the orders, then the gaps). `stillFails` judges a batch of
    /// candidates at once (the caller may run them in parallel); the first failing candidate of a
    /// batch is taken, so the result does not depend on how the batch ran. At most `budget` runs.
    public static func shrink(_ start: Schedule, budget: Int = 400, stillFails: ([Schedule]) -> [Bool]) -> Schedule {
        var current = start
        var spent = 0
        /// The first of `candidates` that still fails (nil: none, or the budget is spent).
        func firstFailing(_ candidates: [Schedule]) -> Schedule? {
            guard !candidates.isEmpty, spent < budget else { return nil }
            let batch = Array(candidates.prefix(budget - spent))
            spent += batch.count
            let results = stillFails(batch)
            return zip(batch, results).first { $0.1 }?.0
        }
        // The empty schedule, with and without the orders.
        if let s = firstFailing([Schedule(actions: [], order: 0), Schedule(actions: [], order: current.order)].filter { $0 != current }) {
            current = s
        }
        // Repeat the passes while one of them changes something (moving actions can make one
        // of them unnecessary).
        var before: Schedule? = nil
        while before != current && spent < budget {
            before = current
            // Chunks (ddmin's complements), halving the chunk size.
            var chunk = max(1, current.actions.count / 2)
            while chunk >= 1 && current.actions.count > 1 {
                let n = current.actions.count
                let candidates = stride(from: 0, to: n, by: chunk).map { i in
                    Schedule(actions: Array(current.actions[..<i]) + Array(current.actions[min(n, i + chunk)...]), order: current.order)
                }
                if let s = firstFailing(candidates) { current = s; chunk = max(1, min(chunk, current.actions.count / 2)); continue }
                if chunk == 1 { break }
                chunk /= 2
            }
            // Pairs of neighbours at any offset: an action and what a person did again after it
            // (an open and its Home, a force quit and the open after it) go together, and ddmin's
            // aligned chunks miss a pair that straddles two of them.
            while current.actions.count > 2 {
                let n = current.actions.count
                let candidates = (0..<(n - 1)).map { i in
                    Schedule(actions: Array(current.actions[..<i]) + Array(current.actions[(i + 2)...]), order: current.order)
                }
                guard let s = firstFailing(candidates) else { break }
                current = s
            }
            // A switch and its switching back with actions between them (network off … on, Low
            // Power Mode on … off): neither goes alone (a switch back with nothing to undo, or a
            // switch never undone, is no person's), so they go together.
            while current.actions.count > 2 {
                let a = current.actions
                let candidates: [Schedule] = a.indices.compactMap { i in
                    guard case .flag = a[i].kind.argument,
                          let j = a.indices.first(where: { $0 > i + 1 && a[$0].kind.name == a[i].kind.name && a[$0].kind.argument != a[i].kind.argument })
                    else { return nil }
                    var rest = a
                    rest.remove(at: j)
                    rest.remove(at: i)
                    return Schedule(actions: rest, order: current.order)
                }
                guard let s = firstFailing(candidates) else { break }
                current = s
            }
            // The orders: none at all, then one bit at a time.
            if current.order != 0 {
                if let s = firstFailing([Schedule(actions: current.actions, order: 0)]) { current = s }
                while current.order != 0 {
                    let bits = (0..<64).filter { current.order >> UInt64($0) & 1 == 1 }
                    guard let s = firstFailing(bits.map { Schedule(actions: current.actions, order: current.order & ~(1 << UInt64($0))) }) else { break }
                    current = s
                }
            }
            // The gaps: move an action and all after it earlier, by all, most or half of its gap
            // (the first action's gap is from t = 0), keeping the order of the actions and at
            // least 1 ms between two of them (a person never does two things in one millisecond).
            for fraction in [1.0, 0.9, 0.5] {
                var moved = true
                while moved {
                    moved = false
                    let candidates: [Schedule] = current.actions.indices.compactMap { i in
                        let previous = i == 0 ? 0 : current.actions[i - 1].time + 1
                        let shift = Millis(Double(current.actions[i].time - previous) * fraction)
                        guard shift >= 1 else { return nil }
                        var s = current
                        for j in i..<s.actions.count { s.actions[j].time -= shift }
                        return s
                    }
                    if let s = firstFailing(candidates) { current = s; moved = true }
                }
            }
        }
        return current
    }
}

/// One run's schedule as explore draws it from the seed (SPEC 10): swarm testing (each run turns
/// on a random subset of the action kinds, each at a random rate, so some runs are dense in one
/// kind), bursts (half of the gaps drawn log-uniformly from 50 ms to 10 s), pairs of actions a
/// moment apart in a random order, actions placed relative to milestones of the app's life (while
/// a task, a grant or a request is open, just before a deadline, right after a suspension or a
/// launch into the background), and the orders of SPEC 12.4's choice points.
public struct ExplorePlan: Equatable, Sendable {
    /// Where an anchored action lands, from the milestone's moment `now` and its window's end.
    public enum Placement: Equatable, Sendable {
        /// `now + offset`.
        case after(Millis)
        /// A point of the window (now, end], as a fraction (no window: 1 ms later).
        case within(Double)
        /// `end - offset` (no window: never).
        case before(Millis)
    }

    public struct Anchored: Equatable, Sendable {
        public var milestone: World.Milestone
        /// The how-many-th time the milestone is reached (1-based).
        public var occurrence: Int
        public var placement: Placement
        public var kind: InjectedAction.Kind

        public init(milestone: World.Milestone, occurrence: Int, placement: Placement, kind: InjectedAction.Kind) {
            self.milestone = milestone; self.occurrence = occurrence; self.placement = placement; self.kind = kind
        }
    }

    public var actions: [InjectedAction]
    public var anchored: [Anchored]
    public var order: UInt64
    /// One action of each kind the run uses, in the table's order: when a planned action would do
    /// nothing at its time, the first useful one after it (wrapping around) is injected instead,
    /// so a burst of Home-or-open draws becomes Home, open, Home.
    public var alternatives: [InjectedAction.Kind] = []
    /// Guided explore: the actions the mutations that derived it added (none in a fresh plan), the
    /// step its children repeat first (ExploreGuide's deterministic stage). Not carried out as such.
    public var step: [InjectedAction] = []

    public init(actions: [InjectedAction], anchored: [Anchored] = [], order: UInt64 = 0, alternatives: [InjectedAction.Kind] = []) {
        self.actions = actions; self.anchored = anchored; self.order = order; self.alternatives = alternatives
    }

    /// The plan of the run with `seed`; absolute times fall in [0, horizon).
    public static func random(seed: Int64, horizon: Millis) -> ExplorePlan {
        var rng = SeededStream(seed: seed, stream: "explore")
        let table = ActionSpec.explored
        // Swarm: each kind on with p = 1/2 (at least one), at 1/4 to 4 times its weight.
        var mix: [(row: Int, weight: Int)] = []
        mix.reserveCapacity(table.count)
        for a in table where rng.next() % 2 == 0 {
            mix.append((a, ActionSpec.all[a].exploreWeight << Int(rng.next() % 5)))  // × 1, 2, 4, 8 or 16
        }
        if mix.isEmpty { mix = [(table[Int(rng.next() % UInt64(table.count))], 1)] }
        let total = mix.reduce(0) { $0 + $1.weight }
        func kind(_ row: Int) -> InjectedAction.Kind { InjectedAction.Kind(row: row, ActionSpec.all[row].draw(&rng)) }
        func pick() -> InjectedAction.Kind {
            var roll = Int(rng.next() % UInt64(total))
            for (a, w) in mix {
                if roll < w { return kind(a) }
                roll -= w
            }
            return kind(mix[mix.count - 1].row)
        }
        let h = max(horizon, 1)
        var actions: [InjectedAction] = []
        actions.reserveCapacity(32)
        // Clusters: one to six, each of one to five actions a moment apart (gaps log-uniform from
        // 50 ms to 10 s), placed anywhere; so about half the gaps are bursts.
        for _ in 0..<(1 + Int(rng.next() % 6)) {
            var t = Millis(rng.next() % UInt64(h))
            for _ in 0..<(1 + Int(rng.next() % 5)) {
                guard t < h else { break }
                actions.append(InjectedAction(time: t, kind: pick()))
                t += InjectedAction.logUniform(50, 10 * Time.second, &rng)
            }
        }
        // A pair a moment apart, in either order (both kinds drawn, then the order).
        if rng.next() % 4 == 0 {
            let first = pick(), second = pick()
            let at = Millis(rng.next() % UInt64(h))
            let gap = InjectedAction.logUniform(1, 2 * Time.second, &rng)
            let swap = rng.next() % 2 == 0
            actions.append(InjectedAction(time: at, kind: swap ? second : first))
            if at + gap < h { actions.append(InjectedAction(time: at + gap, kind: swap ? first : second)) }
        }
        // Actions anchored to what the app is doing.
        var anchored: [Anchored] = []
        for _ in 0..<Int(rng.next() % 4) {
            let milestone = World.Milestone(rawValue: Int(rng.next() % UInt64(World.Milestone.count)))!
            let occurrence = 1 + Int(rng.next() % 3)
            let placement: Placement
            switch rng.next() % 3 {
            case 0: placement = .after(InjectedAction.logUniform(1, 5 * Time.second, &rng))
            case 1: placement = .within(rng.unit())
            default: placement = .before(InjectedAction.logUniform(1, 10 * Time.second, &rng))
            }
            anchored.append(Anchored(milestone: milestone, occurrence: occurrence, placement: placement, kind: pick()))
        }
        let order = rng.next() % 3 == 0 ? rng.next() : 0
        let alternatives = mix.map { kind($0.row) }
        actions.sort { $0.time < $1.time }
        return ExplorePlan(actions: actions, anchored: anchored, order: order, alternatives: alternatives)
    }
}

public struct InjectError: Error, Sendable {
    public var item: String
    public var why: String
}

// ExploreDriver: carries out one run's ExplorePlan (Explore.swift) in a World: its actions at
// their times, the anchored ones when their milestone is reached, only what is useful then, and
// what a person does again after their own actions (a Home after an open, ...: docs/EXPLORE.md,
// "A person leaves again"); records what it did as the replayable Schedule. Pure Swift.

/// Carries out a plan in one world: schedules its actions, places anchored ones when their
/// milestone is reached, injects only what is useful then (`ActionSpec.isUseful`), and records
/// what it did as a replayable schedule.
public final class ExploreDriver {
    public private(set) var performed: [InjectedAction] = []
    private let plan: ExplorePlan
    private unowned let world: World
    private let end: Millis
    private var reached = [Int](repeating: 0, count: World.Milestone.count)
    /// The actions put on the timeline, by number (the World hands the number back when due).
    private var planned: [InjectedAction.Kind] = []
    /// What a person does again after an action of theirs (by number in `planned`): leave the app
    /// they opened (when nothing moved it since: the app's `foregroundExits` then), open again an
    /// app they force-quit (unless they launched it since: a launch for a fetch does not make it
    /// eligible for background work again), or undo a setting (when it still holds).
    private enum Restore { case leave(exits: Int), reopen(entries: Int), undo }
    private var restores: [Int: Restore] = [:]
    /// Draws how long until the person restores (the run's seed, a stream of its own).
    private var sessions: SeededStream

    /// How long a person stays in an app explore opened (or keeps it force-quit, Low Power Mode
    /// on, the network off): log-uniform from 10 s to an hour.
    public static let sessionLength = (shortest: 10 * Time.second, longest: Time.hour)

    /// Attach after the scenario loaded; anchored actions land no later than `end`. `seed`: the
    /// run's seed, from which the sessions' lengths are drawn.
    public init(plan: ExplorePlan, world: World, end: Millis, seed: Int64 = 0) {
        self.plan = plan; self.world = world; self.end = end
        sessions = SeededStream(seed: seed, stream: "session")
        planned.reserveCapacity(plan.actions.count + plan.anchored.count)
        world.onExploreAction = { [unowned self] n in carryOut(n) }
        for a in plan.actions { fire(a.kind, at: a.time) }
        if !plan.anchored.isEmpty {
            world.onMilestone = { [unowned self] m, until in self.reach(m, until) }
        }
    }

    /// The schedule that replays this run.
    public var schedule: Schedule { Schedule(actions: performed, order: plan.order) }

    private func reach(_ m: World.Milestone, _ until: Millis?) {
        reached[m.rawValue] += 1
        let now = world.now
        for r in plan.anchored where r.milestone == m && r.occurrence == reached[m.rawValue] {
            let t: Millis
            switch r.placement {
            case .after(let d): t = now + d
            case .within(let f):
                guard let u = until, u > now + 1 else { t = now + 1; break }
                t = now + 1 + Millis(f * Double(u - now - 1))
            case .before(let d):
                guard let u = until else { continue }
                t = max(now + 1, u - d)
            }
            if t <= end { fire(r.kind, at: t) }
        }
    }

    @discardableResult
    private func fire(_ kind: InjectedAction.Kind, at time: Millis) -> Int {
        planned.append(kind)
        world.atExploreAction(planned.count - 1, time)
        return planned.count - 1
    }

    private func carryOut(_ n: Int) {
        let restore = restores.removeValue(forKey: n)
        // Two injected actions are never in the same millisecond (SPEC 10): a second one comes
        // 1 ms later, when the app's blocks of this instant have run.
        if performed.last?.time == world.now {
            if world.now + 1 <= end {
                let again = fire(planned[n], at: world.now + 1)
                if let restore { restores[again] = restore }
            }
            return
        }
        if let restore {
            // The person restores, unless something else already did or moved the app.
            let kind = planned[n]
            switch restore {
            case .leave(let exits): guard world.isForeground, world.stats.foregroundExits == exits else { return }
            case .reopen(let entries): guard world.stats.foregroundEntries == entries, !world.isForeground else { return }
            case .undo: guard kind.spec.isUseful(kind.argument, in: world) else { return }
            }
            perform(kind)
            return
        }
        guard let kind = usefulKind(planned[n]) else { return }
        perform(kind)
    }

    /// Carries out `kind` now, recording it, and plans what the person does again after it: an
    /// open is left (Home), a force quit opened again, Low Power Mode turned off, the network on.
    private func perform(_ kind: InjectedAction.Kind) {
        performed.append(InjectedAction(time: world.now, kind: kind))
        kind.spec.perform(kind.argument, in: world)
        let restore: (InjectedAction.Kind, Restore)
        switch (kind.name, kind.argument) {
        case ("open", _): restore = (.home, .leave(exits: world.stats.foregroundExits))
        case ("forceQuit", _): restore = (.open, .reopen(entries: world.stats.foregroundEntries))
        case ("lowPower", .flag(true)): restore = (.lowPower(false), .undo)
        case ("network", .flag(false)): restore = (InjectedAction.Kind("network", .flag(true)), .undo)
        default: return
        }
        guard world.now < end else { return }
        let length = InjectedAction.logUniform(Self.sessionLength.shortest, Self.sessionLength.longest, &sessions)
        restores[fire(restore.0, at: min(end, world.now + length))] = restore.1
    }

    /// `planned`, or when it would do nothing now the first useful alternative after it.
    private func usefulKind(_ planned: InjectedAction.Kind) -> InjectedAction.Kind? {
        if planned.spec.isUseful(planned.argument, in: world) { return planned }
        let others = plan.alternatives
        guard let i = others.firstIndex(where: { $0.row == planned.row }) else { return nil }
        for k in 1..<max(1, others.count) {
            let alt = others[(i + k) % others.count]
            if alt.spec.isUseful(alt.argument, in: world) { return alt }
        }
        return nil
    }
}

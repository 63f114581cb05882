// Coverage-guided explore (AFL's idea on explore's plans): runs go in rounds of `roundSize` seeds.
// After each round, its runs are folded in seed order: a run whose coverage reached a pair of
// consecutive scenario lines no earlier run reached (an edge), reached one a new number of times
// (AFL's count classes), or showed an observation (violation, failed expectation) no earlier run
// showed, joins the corpus with its plan. A run of a later round plays either a fresh plan drawn
// from its seed or one derived from an entry of the corpus as it stood after the round before,
// mutated with the run's own stream (`guide`): actions shifted, inserted, deleted, duplicated or
// swapped, actions anchored to milestones added or moved, other choice-point orders, another
// entry's tail spliced in; the run's own seed gives it other stub draws and network timings. So a
// run depends only on its seed and the rounds before it: never on --jobs or timing, and it still
// replays as `--seed N --inject ...` (what the driver performed). Uses ExplorePlan, ActionSpec and
// SeededStream. Pure Swift.

public struct ExploreGuide: Sendable {
    /// Seeds per round.
    public static let roundSize = 32
    /// Entries of the map of line pairs (CLuaHost's CLUA_COVERAGE_EDGES).
    public static let edges = 1 << 16

    struct Entry: Sendable {
        var plan: ExplorePlan
        /// How many new features it brought (its weight when a parent is picked).
        var gain: Int
        /// Choice points its run met (the order bits worth flipping).
        var choicePoints: Int
    }

    /// Per edge, the count classes seen so far.
    private var seen = [UInt8](repeating: 0, count: ExploreGuide.edges)
    private var keys = Set<String>()
    private(set) var corpus: [Entry] = []
    private var totalGain = 0

    public init() {}

    public var corpusSize: Int { corpus.count }

    /// AFL's count classes: 1, 2, 3, 4–7, 8–15, 16–31, 32–127, 128+ (one bit each).
    static func countClass(_ n: UInt8) -> UInt8 {
        switch n {
        case 0: return 0
        case 1: return 1
        case 2: return 2
        case 3: return 4
        case 4...7: return 8
        case 8...15: return 16
        case 16...31: return 32
        case 32...127: return 64
        default: return 128
        }
    }

    /// A run's features from its map of line pairs: `edge << 8 | class`, in edge order.
    public static func features(_ map: UnsafeBufferPointer<UInt8>) -> [UInt32] {
        var out: [UInt32] = []
        map.withMemoryRebound(to: UInt64.self) { words in
            for (w, word) in words.enumerated() where word != 0 {
                for b in 0..<8 {
                    let n = UInt8(truncatingIfNeeded: word >> UInt64(b * 8))
                    if n != 0 { out.append(UInt32(w * 8 + b) << 8 | UInt32(countClass(n))) }
                }
            }
        }
        return out
    }

    /// Folds in a finished run (call in seed order, a round at a time): it joins the corpus when it
    /// brought something new. Returns whether it did.
    @discardableResult
    public mutating func add(plan: ExplorePlan, features: [UInt32], observations: [String], choicePoints: Int) -> Bool {
        var gain = 0
        for f in features {
            let e = Int(f >> 8), c = UInt8(truncatingIfNeeded: f)
            if seen[e] & c == 0 { seen[e] |= c; gain += 1 }
        }
        for k in observations where keys.insert(k).inserted { gain += 4 }
        guard gain > 0 else { return false }
        corpus.append(Entry(plan: plan, gain: gain, choicePoints: choicePoints))
        totalGain += gain
        return true
    }

    /// The plan of the run with `seed` (`horizon`: where absolute actions fall): fresh in the first
    /// round (or with an empty corpus), else fresh one time in four and derived from the corpus
    /// otherwise.
    public func plan(seed: Int64, horizon: Millis) -> ExplorePlan {
        var rng = SeededStream(seed: seed, stream: "guide")
        guard !corpus.isEmpty, rng.next() % 4 != 0 else { return ExplorePlan.random(seed: seed, horizon: horizon) }
        let parent = pick(&rng)
        var plan = parent.plan
        let h = max(horizon, 1)
        // One to eight stacked mutations, fewer more often (AFL's havoc).
        let count = 1 << Int(rng.next() % 4)
        for _ in 0..<Int(1 + rng.next() % UInt64(count)) { mutate(&plan, parent: parent, horizon: h, &rng) }
        plan.actions.sort { $0.time < $1.time }
        return plan
    }

    /// A parent: half the time one of the eight newest entries, else one weighted by what it brought.
    private func pick(_ rng: inout SeededStream) -> Entry {
        if rng.next() % 2 == 0 {
            let recent = min(8, corpus.count)
            return corpus[corpus.count - 1 - Int(rng.next() % UInt64(recent))]
        }
        var roll = Int(rng.next() % UInt64(max(1, totalGain)))
        for e in corpus {
            if roll < e.gain { return e }
            roll -= e.gain
        }
        return corpus[corpus.count - 1]
    }

    /// A kind of action to add: one the parent's run used, or any explore draws.
    private func kind(_ plan: ExplorePlan, _ rng: inout SeededStream) -> InjectedAction.Kind {
        if !plan.alternatives.isEmpty, rng.next() % 4 != 0 {
            let k = plan.alternatives[Int(rng.next() % UInt64(plan.alternatives.count))]
            return InjectedAction.Kind(row: k.row, ActionSpec.all[k.row].draw(&rng))
        }
        let table = ActionSpec.explored
        let row = table[Int(rng.next() % UInt64(table.count))]
        return InjectedAction.Kind(row: row, ActionSpec.all[row].draw(&rng))
    }

    private func mutate(_ plan: inout ExplorePlan, parent: Entry, horizon h: Millis, _ rng: inout SeededStream) {
        func clamp(_ t: Millis) -> Millis { min(max(t, 0), h - 1) }
        func near(_ t: Millis) -> Millis {
            let d = InjectedAction.logUniform(1, 30 * Time.second, &rng)
            return clamp(rng.next() % 2 == 0 ? t + d : t - d)
        }
        let n = plan.actions.count
        switch rng.next() % 10 {
        case 0 where n > 0:  // shift one action
            let i = Int(rng.next() % UInt64(n))
            plan.actions[i].time = near(plan.actions[i].time)
        case 1, 2:  // insert one: beside another (a burst) or anywhere
            let t = n > 0 && rng.next() % 3 != 0 ? near(plan.actions[Int(rng.next() % UInt64(n))].time) : Millis(rng.next() % UInt64(h))
            plan.actions.append(InjectedAction(time: t, kind: kind(plan, &rng)))
        case 3 where n > 0:  // delete one
            plan.actions.remove(at: Int(rng.next() % UInt64(n)))
        case 4 where n > 0:  // duplicate one, or it and the one after, a moment later (a second Home)
            let i = Int(rng.next() % UInt64(n))
            let span = i + 1 < n && rng.next() % 2 == 0 ? 2 : 1
            let base = plan.actions[i].time
            let shift = max(1, (i + span - 1 < n ? plan.actions[i + span - 1].time - base : 0) + InjectedAction.logUniform(50, 60 * Time.second, &rng))
            for k in i..<(i + span) {
                var a = plan.actions[k]
                a.time = clamp(a.time + shift)
                plan.actions.append(a)
            }
        case 5 where n > 0:  // another kind for one
            plan.actions[Int(rng.next() % UInt64(n))].kind = kind(plan, &rng)
        case 6:  // an action anchored to a milestone, or one moved
            if !plan.anchored.isEmpty, rng.next() % 2 == 0 {
                let i = Int(rng.next() % UInt64(plan.anchored.count))
                if rng.next() % 2 == 0 {
                    plan.anchored[i].occurrence = max(1, plan.anchored[i].occurrence + (rng.next() % 2 == 0 ? 1 : -1))
                } else {
                    plan.anchored[i].placement = Self.placement(&rng)
                }
            } else {
                let milestone = World.Milestone(rawValue: Int(rng.next() % UInt64(World.Milestone.count)))!
                plan.anchored.append(ExplorePlan.Anchored(milestone: milestone, occurrence: 1 + Int(rng.next() % 3),
                                                          placement: Self.placement(&rng), kind: kind(plan, &rng)))
            }
        case 7 where !plan.anchored.isEmpty:  // drop an anchored one
            plan.anchored.remove(at: Int(rng.next() % UInt64(plan.anchored.count)))
        case 8:  // another order at a choice point the run met (or just past them)
            let bits = UInt64(min(63, parent.choicePoints + 1))
            plan.order ^= 1 << (rng.next() % bits)
        case 9 where corpus.count > 1:  // splice: another entry's actions after a moment
            let other = corpus[Int(rng.next() % UInt64(corpus.count))].plan
            let cut = Millis(rng.next() % UInt64(h))
            plan.actions = plan.actions.filter { $0.time < cut } + other.actions.filter { $0.time >= cut }
            for k in other.alternatives where !plan.alternatives.contains(where: { $0.row == k.row }) { plan.alternatives.append(k) }
        default:  // a case whose condition failed: insert anywhere
            plan.actions.append(InjectedAction(time: Millis(rng.next() % UInt64(h)), kind: kind(plan, &rng)))
        }
    }

    static func placement(_ rng: inout SeededStream) -> ExplorePlan.Placement {
        switch rng.next() % 3 {
        case 0: return .after(InjectedAction.logUniform(1, 5 * Time.second, &rng))
        case 1: return .within(rng.unit())
        default: return .before(InjectedAction.logUniform(1, 10 * Time.second, &rng))
        }
    }
}

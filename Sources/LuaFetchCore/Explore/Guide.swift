// Coverage-guided explore (AFL's idea on explore's plans): runs go in rounds of `roundSize` seeds.
// After each round, its runs are folded in seed order: a run whose coverage reached a pair of
// consecutive scenario lines no earlier run reached (an edge), reached one a new number of times
// (AFL's count classes), or showed an observation (violation, failed expectation) no earlier run
// showed, joins the corpus with its plan. A run of a later round plays either a fresh plan drawn
// from its seed or one derived from an entry of the corpus as it stood after the round before,
// mutated with the run's own stream (`guide`): actions shifted, inserted, deleted, duplicated or
// swapped, actions anchored to milestones added or moved, other choice-point orders, another
// entry's tail spliced in, an action answered by its opposite (open after Home, network back on);
// the run's own seed gives it other stub draws and network timings. The first runs of a round
// build on the entries the round before added (`childrenOfNew` each); the rest pick a parent by
// weight (`reweigh`, AFLFast's idea: runs reaching line pairs few runs reach weigh more). So a
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
        /// The line pairs its run reached.
        var edges: [UInt16]
        /// Its weight when a parent is picked (`reweigh`): high when it reaches pairs few runs reach.
        var weight: UInt64 = 1
        /// Choice points its run met (the order bits worth flipping).
        var choicePoints: Int
    }

    /// Per edge, the count classes seen so far, and how many runs reached it.
    private var seen = [UInt8](repeating: 0, count: ExploreGuide.edges)
    private var reached = [UInt32](repeating: 0, count: ExploreGuide.edges)
    private var keys = Set<String>()
    private(set) var corpus: [Entry] = []
    private var totalWeight: UInt64 = 0
    /// The entries the last round added (each gets `childrenOfNew` runs in the next round), and
    /// where the round being folded started in the corpus.
    private var fresh: [Int] = []
    private var roundStart = 0
    /// Runs given to each entry the round before added (AFL fuzzes a new entry at once).
    static let childrenOfNew = 4

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
        out.reserveCapacity(256)
        map.withMemoryRebound(to: UInt64.self) { words in
            guard let base = words.baseAddress else { return }
            var w = 0
            while w < words.count {
                let word = base[w]
                if word != 0 {
                    var rest = word, b = 0
                    while rest != 0 {
                        let n = UInt8(truncatingIfNeeded: rest)
                        if n != 0 { out.append(UInt32(w &* 8 &+ b) << 8 | UInt32(countClass(n))) }
                        rest >>= 8
                        b += 1
                    }
                }
                w += 1
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
            reached[e] &+= 1
            if seen[e] & c == 0 { seen[e] |= c; gain += 1 }
        }
        for k in observations where keys.insert(k).inserted { gain += 1 }
        guard gain > 0 else { return false }
        corpus.append(Entry(plan: plan, edges: features.map { UInt16(truncatingIfNeeded: $0 >> 8) }, choicePoints: choicePoints))
        return true
    }

    /// Weighs the corpus after a round (AFLFast's idea): an entry weighs the sum, over the line
    /// pairs its run reached, of how rare each is among all runs so far, so the runs at the edge
    /// of what explore reached are picked more often than those that go where every run goes.
    public mutating func reweigh() {
        fresh = Array(roundStart..<corpus.count)
        roundStart = corpus.count
        totalWeight = 0
        for i in corpus.indices {
            var w: UInt64 = 1
            for e in corpus[i].edges { w &+= (1 << 20) / UInt64(max(1, reached[Int(e)])) }
            corpus[i].weight = w
            totalWeight &+= w
        }
    }

    /// The plan of the run with `seed` (`horizon`: where absolute actions fall): fresh in the first
    /// round (or with an empty corpus), else fresh one time in four and derived from the corpus
    /// otherwise.
    /// `slot`: the run's place in its round: the first ones derive from the entries the round
    /// before added, so a new step is built on at once.
    public func plan(seed: Int64, horizon: Millis, slot: Int = Int.max) -> ExplorePlan {
        var rng = SeededStream(seed: seed, stream: "guide")
        let kids = Self.childrenOfNew
        let parent: Entry
        if slot < min(fresh.count * kids, Self.roundSize / 2) {
            parent = corpus[fresh[slot / kids]]
        } else {
            guard !corpus.isEmpty, rng.next() % 4 != 0 else { return ExplorePlan.random(seed: seed, horizon: horizon) }
            parent = pick(&rng)
        }
        var plan = parent.plan
        let h = max(horizon, 1)
        // One to eight stacked mutations, fewer more often (AFL's havoc).
        let count = 1 << Int(rng.next() % 4)
        for _ in 0..<Int(1 + rng.next() % UInt64(count)) { mutate(&plan, parent: parent, horizon: h, &rng) }
        plan.actions.sort { $0.time < $1.time }
        return plan
    }

    /// A parent: one time in four one of the eight newest entries, else one by weight (`reweigh`).
    private func pick(_ rng: inout SeededStream) -> Entry {
        if rng.next() % 4 == 0 || totalWeight == 0 {
            let recent = min(8, corpus.count)
            return corpus[corpus.count - 1 - Int(rng.next() % UInt64(recent))]
        }
        var roll = rng.next() % totalWeight
        // By index: an entry is copied (its plan and line pairs retained) only once it is picked.
        for i in corpus.indices {
            let w = corpus[i].weight
            if roll < w { return corpus[i] }
            roll -= w
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

    /// The action that undoes or answers `k`: open for home and home for open, the other setting
    /// of a switch (network, Low Power Mode, ...), expiring a BGTask for launching one and the
    /// reverse; else `k` again, its argument drawn anew.
    static func opposite(_ k: InjectedAction.Kind, _ rng: inout SeededStream) -> InjectedAction.Kind {
        switch (k.name, k.argument) {
        case ("home", _): return .open
        case ("open", _): return .home
        case ("launchTask", _): return .expireTask
        case ("expireTask", _): return .launchTask
        case (_, .flag(let on)): return InjectedAction.Kind(row: k.row, .flag(!on))
        case (_, .optionalFlag(let on)): return InjectedAction.Kind(row: k.row, .optionalFlag(on == true ? false : on == false ? nil : true))
        default: return InjectedAction.Kind(row: k.row, ActionSpec.all[k.row].draw(&rng))
        }
    }

    /// The most actions a derived plan keeps (inserting gives way to deleting past it).
    static let maxActions = 40

    private func mutate(_ plan: inout ExplorePlan, parent: Entry, horizon h: Millis, _ rng: inout SeededStream) {
        func clamp(_ t: Millis) -> Millis { min(max(t, 0), h - 1) }
        func near(_ t: Millis) -> Millis {
            let d = InjectedAction.logUniform(1, 30 * Time.second, &rng)
            return clamp(rng.next() % 2 == 0 ? t + d : t - d)
        }
        let n = plan.actions.count
        let full = n + plan.anchored.count >= Self.maxActions
        switch rng.next() % 12 {
        case 0 where n > 0:  // shift one action
            let i = Int(rng.next() % UInt64(n))
            plan.actions[i].time = near(plan.actions[i].time)
        case 1 where !full:  // insert one: beside another (a burst) or anywhere
            let t = n > 0 && rng.next() % 3 != 0 ? near(plan.actions[Int(rng.next() % UInt64(n))].time) : Millis(rng.next() % UInt64(h))
            plan.actions.append(InjectedAction(time: t, kind: kind(plan, &rng)))
        case 3 where n > 0 && !full:  // duplicate one, or it and the one after, a moment later (a second Home)
            let i = Int(rng.next() % UInt64(n))
            let span = i + 1 < n && rng.next() % 2 == 0 ? 2 : 1
            let base = plan.actions[i].time
            let shift = plan.actions[i + span - 1].time - base + InjectedAction.logUniform(50, 60 * Time.second, &rng)
            for k in i..<(i + span) {
                var a = plan.actions[k]
                a.time = clamp(a.time + shift)
                plan.actions.append(a)
            }
        case 4 where n > 0:  // another kind for one
            plan.actions[Int(rng.next() % UInt64(n))].kind = kind(plan, &rng)
        case 5 where n > 0 && !full:  // answer one a moment later (network back on, open after Home)
            let a = plan.actions[Int(rng.next() % UInt64(n))]
            plan.actions.append(InjectedAction(time: clamp(a.time + InjectedAction.logUniform(50, 60 * Time.second, &rng)),
                                               kind: Self.opposite(a.kind, &rng)))
        case 6 where !full:  // a pair somewhere: an action and its answer a moment apart (a visit: open, then Home)
            let k = kind(plan, &rng)
            let t = Millis(rng.next() % UInt64(h))
            plan.actions.append(InjectedAction(time: t, kind: k))
            plan.actions.append(InjectedAction(time: clamp(t + InjectedAction.logUniform(50, 30 * Time.second, &rng)), kind: Self.opposite(k, &rng)))
        case 7 where !full:  // an action anchored to a milestone: an answer to one of the plan's, or any
            let k = n > 0 && rng.next() % 2 == 0 ? Self.opposite(plan.actions[Int(rng.next() % UInt64(n))].kind, &rng) : kind(plan, &rng)
            let milestone = World.Milestone(rawValue: Int(rng.next() % UInt64(World.Milestone.count)))!
            plan.anchored.append(ExplorePlan.Anchored(milestone: milestone, occurrence: 1 + Int(rng.next() % 3),
                                                      placement: Self.placement(&rng), kind: k))
        case 8 where !plan.anchored.isEmpty:  // move an anchored one
            let i = Int(rng.next() % UInt64(plan.anchored.count))
            if rng.next() % 2 == 0 {
                plan.anchored[i].occurrence = max(1, plan.anchored[i].occurrence + (rng.next() % 2 == 0 ? 1 : -1))
            } else {
                plan.anchored[i].placement = Self.placement(&rng)
            }
        case 9 where !plan.anchored.isEmpty:  // drop an anchored one
            plan.anchored.remove(at: Int(rng.next() % UInt64(plan.anchored.count)))
        case 10:  // another order at a choice point the run met (or just past them)
            let bits = UInt64(min(63, parent.choicePoints + 1))
            plan.order ^= 1 << (rng.next() % bits)
        case 11 where corpus.count > 1:  // splice: another entry's actions after a moment
            let other = corpus[Int(rng.next() % UInt64(corpus.count))].plan
            let cut = Millis(rng.next() % UInt64(h))
            plan.actions = Array((plan.actions.filter { $0.time < cut } + other.actions.filter { $0.time >= cut }).prefix(Self.maxActions))
            for k in other.alternatives where !plan.alternatives.contains(where: { $0.row == k.row }) { plan.alternatives.append(k) }
        default:  // delete one (also what a case whose condition failed does), else insert anywhere
            if n > 0 {
                plan.actions.remove(at: Int(rng.next() % UInt64(n)))
            } else if !plan.anchored.isEmpty {
                plan.anchored.remove(at: Int(rng.next() % UInt64(plan.anchored.count)))
            } else {
                plan.actions.append(InjectedAction(time: Millis(rng.next() % UInt64(h)), kind: kind(plan, &rng)))
            }
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

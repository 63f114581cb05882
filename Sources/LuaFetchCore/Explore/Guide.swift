// Coverage-guided explore (AFL's idea on explore's plans): runs go in rounds, the first of
// `firstRound` seeds, then `roundSize` each. After each round, its runs are folded in seed order:
// a run whose coverage reached a pair of consecutive scenario lines no earlier run reached (an
// edge), reached one a new number of times (AFL's count classes), or showed an observation
// (violation, failed expectation) no earlier run showed, joins the corpus with its plan. A run of
// a later round plays either a fresh plan drawn from its seed or one derived from an entry of the
// corpus as it stood after the round before, with the run's own stream (`guide`). The first runs
// of a round are the deterministic stage of the entries the round before added (rarest first, at
// most half the round): each entry's step (what the mutations that made it added) repeated once,
// then twice, right after itself; a setting (Low Power Mode, the network, ...) switched just
// before the step; and havoc; an entry that reached a new edge also gets every setting value
// before its step (AFL's interesting values). The rest pick a parent by weight (`reweigh`:
// AFLFast's rarity of the line pairs it reached, AFL's favoured entries, fewer actions weigh
// more) and stack havoc mutations (`mutate`): actions shifted, inserted, deleted, duplicated or
// swapped, settings switched, actions anchored to milestones added or moved, other choice-point
// orders, another entry's tail spliced in, an action answered by its opposite. The run's own seed
// gives it other stub draws and network timings. So a run depends only on its seed and the
// rounds before it: never on --jobs or timing, and it still replays as `--seed N --inject ...`
// (what the driver performed). Uses ExplorePlan, ActionSpec and SeededStream. Pure Swift.

public struct ExploreGuide: Sendable {
    /// Seeds of the first round (all fresh: a corpus to start from), and of each later round.
    public static let firstRound = 16
    public static let roundSize = 32
    /// Where the round that starts at seed index `start` ends.
    public static func roundEnd(_ start: Int) -> Int { start == 0 ? firstRound : start + roundSize }
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
        /// Whether its run reached a line pair no earlier run reached (not only a new count).
        var newEdge = false
        var size: Int { plan.actions.count + plan.anchored.count }
    }

    /// Per edge, the count classes seen so far, and how many runs reached it.
    private var seen = [UInt8](repeating: 0, count: ExploreGuide.edges)
    private var reached = [UInt32](repeating: 0, count: ExploreGuide.edges)
    private var keys = Set<String>()
    private(set) var corpus: [Entry] = []
    private var totalWeight: UInt64 = 0
    /// The deterministic stage's runs of the round being planned: (entry, which child), and where
    /// the round being folded started in the corpus.
    private(set) var stage: [(entry: Int, kid: Int)] = []
    private var roundStart = 0
    /// Stage runs given to each entry the round before added (AFL fuzzes a new entry at once); one
    /// that reached a new edge also gets one per setting value (`settings`).
    static let childrenOfNew = 4
    /// A parent not favoured (no line pair for which it is the entry with the fewest actions)
    /// weighs this many times less; and an entry's weight is scaled by `short / (short + actions)`.
    static let unfavoured: UInt64 = 8, short: UInt64 = 8

    /// Every kind explore draws, each value of a setting apart (a flag's on and off, ...); nil
    /// argument: drawn.
    static let variants: [(row: Int, argument: ActionArgument?)] = ActionSpec.explored.flatMap { row -> [(row: Int, argument: ActionArgument?)] in
        switch ActionSpec.all[row].takes {
        case .flag: return [(row, .flag(true)), (row, .flag(false))]
        case .optionalFlag: return [(row, .optionalFlag(true)), (row, .optionalFlag(false)), (row, .optionalFlag(nil))]
        default: return [(row, nil)]
        }
    }
    /// The settings among them: Low Power Mode and the network on and off, charging and the
    /// device idle on, off and back to the default (what stays as set until set again).
    static let settings: [InjectedAction.Kind] = variants.compactMap { v in v.argument.map { InjectedAction.Kind(row: v.row, $0) } }

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
        var gain = 0, newEdge = false
        for f in features {
            let e = Int(f >> 8), c = UInt8(truncatingIfNeeded: f)
            reached[e] &+= 1
            if seen[e] == 0 { newEdge = true }
            if seen[e] & c == 0 { seen[e] |= c; gain += 1 }
        }
        for k in observations where keys.insert(k).inserted { gain += 1 }
        guard gain > 0 else { return false }
        corpus.append(Entry(plan: plan, edges: features.map { UInt16(truncatingIfNeeded: $0 >> 8) }, choicePoints: choicePoints, newEdge: newEdge))
        return true
    }

    /// Weighs the corpus after a round and lays out the next round's stage. An entry weighs the
    /// sum, over the line pairs its run reached, of how rare each is among all runs so far
    /// (AFLFast's idea: the runs at the edge of what explore reached are picked more often than
    /// those that go where every run goes); `unfavoured` times less when for none of its pairs it
    /// is the entry with the fewest actions (AFL's favoured entries); scaled by
    /// `short / (short + its actions)` (short plans are cheap to run and to build on).
    public mutating func reweigh() {
        let fresh = Array(roundStart..<corpus.count)
        roundStart = corpus.count
        // Per line pair, the entry with the fewest actions reaching it (ties: the first).
        var best = [Int32](repeating: -1, count: Self.edges)
        for i in corpus.indices {
            for e in corpus[i].edges where best[Int(e)] < 0 || corpus[Int(best[Int(e)])].size > corpus[i].size { best[Int(e)] = Int32(i) }
        }
        var favoured = [Bool](repeating: false, count: corpus.count)
        for i in corpus.indices { for e in corpus[i].edges where best[Int(e)] == Int32(i) { favoured[i] = true } }
        totalWeight = 0
        for i in corpus.indices {
            var w: UInt64 = 1
            for e in corpus[i].edges { w &+= (1 << 20) / UInt64(max(1, reached[Int(e)])) }
            if !favoured[i] { w = w / Self.unfavoured + 1 }
            w = w * Self.short / (Self.short + UInt64(corpus[i].size)) + 1
            corpus[i].weight = w
            totalWeight &+= w
        }
        // The stage: the new entries, the rarest first (ties: the lower seed's run), at most half a round.
        stage = []
        for i in fresh.sorted(by: { (corpus[$0].weight, $1) > (corpus[$1].weight, $0) }) {
            let n = Self.childrenOfNew + (corpus[i].newEdge ? Self.settings.count : 0)
            for k in 0..<n where stage.count < Self.roundSize / 2 { stage.append((i, k)) }
        }
    }

    /// The plan of the run with `seed` (`horizon`: where absolute actions fall): fresh in the first
    /// round (or with an empty corpus). `slot`: the run's place in its round: the first ones are
    /// the stage (`reweigh`) of the entries the round before added: the entry's step repeated once
    /// (child 0) and twice (child 1) right after itself (`repeatStep`), a setting drawn put before
    /// the step (child 2, `precedeStep`), havoc (child 3), and for an entry that reached a new edge
    /// each setting value before the step (children 4...). The others are fresh one time in four,
    /// else derived from a parent picked by weight with one to eight stacked havoc mutations.
    public func plan(seed: Int64, horizon: Millis, slot: Int = Int.max) -> ExplorePlan {
        var rng = SeededStream(seed: seed, stream: "guide")
        let parent: Entry
        let h = max(horizon, 1)
        var plan: ExplorePlan
        if slot < stage.count {
            parent = corpus[stage[slot].entry]
            plan = parent.plan
            switch stage[slot].kid {
            case 0: Self.repeatStep(&plan, times: 1, horizon: h, &rng); return plan
            case 1: Self.repeatStep(&plan, times: 2, horizon: h, &rng); return plan
            case 2: Self.precedeStep(&plan, with: Self.settings[Int(rng.next() % UInt64(Self.settings.count))], &rng); return plan
            case 3: break
            case let k: Self.precedeStep(&plan, with: Self.settings[k - 4], &rng); return plan
            }
        } else {
            guard !corpus.isEmpty, rng.next() % 4 != 0 else { return ExplorePlan.random(seed: seed, horizon: horizon) }
            parent = pick(&rng)
            plan = parent.plan
        }
        // One to eight stacked mutations, fewer more often (AFL's havoc).
        let count = 1 << Int(rng.next() % 4)
        for _ in 0..<Int(1 + rng.next() % UInt64(count)) { mutate(&plan, parent: parent, horizon: h, &rng) }
        plan.actions.sort { $0.time < $1.time }
        // The step: what the mutations added to the parent's actions (the parent's when none).
        var before = parent.plan.actions
        var added: [InjectedAction] = []
        for a in plan.actions {
            if let i = before.firstIndex(of: a) { before.remove(at: i) } else { added.append(a) }
        }
        plan.step = added.isEmpty ? parent.plan.step : added
        return plan
    }

    /// The plan's step, sorted by time; a fresh plan's (it has none) is one of its bursts, drawn:
    /// an action and its neighbours less than 10 s apart.
    static func stepOf(_ plan: ExplorePlan, _ rng: inout SeededStream) -> [InjectedAction] {
        if !plan.step.isEmpty { return plan.step.sorted { $0.time < $1.time } }
        let actions = plan.actions.sorted { $0.time < $1.time }
        guard !actions.isEmpty else { return [] }
        var lo = Int(rng.next() % UInt64(actions.count)), hi = lo
        while lo > 0, actions[lo].time - actions[lo - 1].time < 10 * Time.second { lo -= 1 }
        while hi + 1 < actions.count, actions[hi + 1].time - actions[hi].time < 10 * Time.second { hi += 1 }
        return Array(actions[lo...hi])
    }

    /// A stage rule: the step (`stepOf`) copied `times` times, each copy right after the one before
    /// (shifted by the step's length and a gap of 50 ms to 10 s): a second visit after a first,
    /// another push after the ones that piled up. The copies become the step. Copies past the
    /// horizon or past `maxActions` are left out.
    static func repeatStep(_ plan: inout ExplorePlan, times: Int, horizon h: Millis, _ rng: inout SeededStream) {
        let step = stepOf(plan, &rng)
        guard !step.isEmpty else { return }
        let length = step[step.count - 1].time - step[0].time
        var copies: [InjectedAction] = []
        var shift: Millis = 0
        for _ in 0..<times {
            shift += length + InjectedAction.logUniform(50, 10 * Time.second, &rng)
            for a in step where a.time + shift < h && plan.actions.count + plan.anchored.count < maxActions {
                let copy = InjectedAction(time: a.time + shift, kind: a.kind)
                plan.actions.append(copy)
                copies.append(copy)
            }
        }
        plan.actions.sort { $0.time < $1.time }
        if !copies.isEmpty { plan.step = copies }
    }

    /// A stage rule: `kind` (a setting: Low Power Mode on, the network off, ...) a moment (50 ms to
    /// 10 s) before the step (`stepOf`; at 0 when the plan has no actions): the conditions tried
    /// where the new code was reached. It and the step become the step. Not past `maxActions`.
    static func precedeStep(_ plan: inout ExplorePlan, with kind: InjectedAction.Kind, _ rng: inout SeededStream) {
        guard plan.actions.count + plan.anchored.count < maxActions else { return }
        let step = stepOf(plan, &rng)
        let a = InjectedAction(time: max(0, (step.first?.time ?? 0) - InjectedAction.logUniform(50, 10 * Time.second, &rng)), kind: kind)
        plan.actions.append(a)
        plan.actions.sort { $0.time < $1.time }
        plan.step = [a] + step
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
        case 2 where !full:  // a setting switched before an action (Low Power Mode on, the network off)
            Self.switchSetting(&plan, horizon: h, &rng)
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

    /// A havoc mutation: a setting drawn (`settings`) switched before one of the plan's actions
    /// (any time when it has none): half the time a moment (50 ms to 10 s) before it, else any
    /// time from 0 to it, since a setting holds until set again.
    static func switchSetting(_ plan: inout ExplorePlan, horizon h: Millis, _ rng: inout SeededStream) {
        let n = plan.actions.count
        let k = settings[Int(rng.next() % UInt64(settings.count))]
        let before = n > 0 ? plan.actions[Int(rng.next() % UInt64(n))].time : Millis(rng.next() % UInt64(h))
        let t = rng.next() % 2 == 0 ? min(max(before - InjectedAction.logUniform(50, 10 * Time.second, &rng), 0), h - 1)
                                    : Millis(rng.next() % UInt64(before + 1))
        plan.actions.append(InjectedAction(time: t, kind: k))
    }

    static func placement(_ rng: inout SeededStream) -> ExplorePlan.Placement {
        switch rng.next() % 3 {
        case 0: return .after(InjectedAction.logUniform(1, 5 * Time.second, &rng))
        case 1: return .within(rng.unit())
        default: return .before(InjectedAction.logUniform(1, 10 * Time.second, &rng))
        }
    }
}

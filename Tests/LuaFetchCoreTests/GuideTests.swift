// Coverage-guided explore's rules (ExploreGuide): the rounds, the deterministic stage given to a new
// corpus entry (its step repeated, settings switched before it), the havoc mutation that switches
// a setting, and the weights that favour the shortest entry reaching a line pair.
import Testing
@testable import LuaFetchCore

@Suite struct GuideTests {
    static let push = InjectedAction.Kind("push", .push(nil, contentAvailable: true))
    static let horizon: Millis = 30 * 60 * Time.second

    /// A plan whose step is two pushes 2 s apart (the mutation that made it added them).
    static func pushes() -> ExplorePlan {
        var plan = ExplorePlan(actions: [InjectedAction(time: 1000, kind: .home),
                                         InjectedAction(time: 10_000, kind: push), InjectedAction(time: 12_000, kind: push)])
        plan.step = Array(plan.actions[1...])
        return plan
    }

    @Test func roundsStartSmallThenGrow() {
        #expect(ExploreGuide.roundEnd(0) == ExploreGuide.firstRound)
        #expect(ExploreGuide.roundEnd(ExploreGuide.firstRound) == ExploreGuide.firstRound + ExploreGuide.roundSize)
        #expect(ExploreGuide.firstRound < ExploreGuide.roundSize)
    }

    @Test func theStepIsRepeatedRightAfterItself() {
        for seed in Int64(1)...50 {
            var rng = SeededStream(seed: seed, stream: "test")
            var once = Self.pushes()
            ExploreGuide.repeatStep(&once, times: 1, horizon: Self.horizon, &rng)
            #expect(once.actions.count == 5)
            #expect(once.step.count == 2 && once.step.allSatisfy { $0.kind == Self.push })
            // The copy keeps the step's spacing and starts 50 ms to 10 s after it ends.
            #expect(once.step[1].time - once.step[0].time == 2000)
            #expect(once.step[0].time >= 12_050 && once.step[0].time <= 22_000)
            #expect(once.actions == once.actions.sorted { $0.time < $1.time })

            var twice = Self.pushes()
            ExploreGuide.repeatStep(&twice, times: 2, horizon: Self.horizon, &rng)
            #expect(twice.actions.count == 7)
            #expect(twice.step.count == 4 && twice.step[2].time > twice.step[1].time)
        }
    }

    @Test func copiesPastTheHorizonOrTheMostActionsAreLeftOut() {
        var rng = SeededStream(seed: 3, stream: "test")
        var late = Self.pushes()
        ExploreGuide.repeatStep(&late, times: 3, horizon: 12_001, &rng)
        #expect(late == Self.pushes())
        var full = ExplorePlan(actions: (0..<ExploreGuide.maxActions).map { InjectedAction(time: Millis($0) * 100, kind: Self.push) })
        full.step = [full.actions[0]]
        ExploreGuide.repeatStep(&full, times: 2, horizon: Self.horizon, &rng)
        #expect(full.actions.count == ExploreGuide.maxActions)
    }

    @Test func aFreshPlansStepIsOneOfItsBursts() {
        let plan = ExplorePlan(actions: [0, 5000, 100_000, 105_000, 300_000].map { InjectedAction(time: $0, kind: .home) })
        var seen = Set<[Millis]>()
        for seed in Int64(1)...40 {
            var rng = SeededStream(seed: seed, stream: "test")
            seen.insert(ExploreGuide.stepOf(plan, &rng).map(\.time))
        }
        #expect(seen == [[0, 5000], [100_000, 105_000], [300_000]])
    }

    @Test func aSettingGoesJustBeforeTheStep() {
        for seed in Int64(1)...20 {
            var rng = SeededStream(seed: seed, stream: "test")
            var plan = Self.pushes()
            ExploreGuide.precedeStep(&plan, with: .lowPower(true), &rng)
            let added = plan.actions.filter { $0.kind == .lowPower(true) }
            #expect(added.count == 1 && added[0].time >= 0 && added[0].time <= 10_000 - 50)
            #expect(plan.step.count == 3 && plan.step[0] == added[0])
        }
    }

    @Test func theSettingsAreEachValueOfEachSwitch() {
        let names = ExploreGuide.settings.map { InjectedAction(time: 0, kind: $0).spec }
        #expect(names.contains("0:lowPower=on") && names.contains("0:lowPower=off"))
        #expect(names.contains("0:network=off") && names.contains("0:charging=default"))
        #expect(Set(names).count == names.count)
        #expect(!names.contains { $0.hasPrefix("0:home") || $0.hasPrefix("0:push") })
    }

    @Test func havocSwitchesASettingBeforeAnAction() {
        for seed in Int64(1)...40 {
            var rng = SeededStream(seed: seed, stream: "test")
            var plan = Self.pushes()
            ExploreGuide.switchSetting(&plan, horizon: Self.horizon, &rng)
            #expect(plan.actions.count == 4)
            let added = plan.actions[3]
            #expect(ExploreGuide.settings.contains(added.kind))
            #expect(added.time <= 12_000)
        }
    }

    /// A new entry gets its stage at the start of the next round: its step once and twice again,
    /// a setting before it, havoc; and, when it reached a new line pair, every setting before it.
    @Test func aNewEntryGetsItsStageFirst() {
        var guide = ExploreGuide()
        guide.add(plan: Self.pushes(), features: [7 << 8 | 1], observations: [], choicePoints: 0)
        guide.reweigh()
        #expect(guide.stage.count == min(ExploreGuide.roundSize / 2, ExploreGuide.childrenOfNew + ExploreGuide.settings.count))
        let once = guide.plan(seed: 11, horizon: Self.horizon, slot: 0)
        #expect(once.actions.count == 5 && once.actions.filter { $0.kind == Self.push }.count == 4)
        let twice = guide.plan(seed: 12, horizon: Self.horizon, slot: 1)
        #expect(twice.actions.filter { $0.kind == Self.push }.count == 6)
        for (j, setting) in ExploreGuide.settings.enumerated() where 4 + j < guide.stage.count {
            let p = guide.plan(seed: 13, horizon: Self.horizon, slot: 4 + j)
            #expect(p.actions.filter { $0.kind == setting }.count == 1 && p.actions.count == 4, "\(j)")
        }
        // Only a new count of a known pair: the four children, not the settings.
        guide.add(plan: Self.pushes(), features: [7 << 8 | 2], observations: [], choicePoints: 0)
        guide.reweigh()
        #expect(guide.stage.count == ExploreGuide.childrenOfNew)
        // Nothing new: no entry, no stage.
        guide.add(plan: Self.pushes(), features: [7 << 8 | 2], observations: [], choicePoints: 0)
        guide.reweigh()
        #expect(guide.stage.isEmpty)
    }

    /// Of entries reaching the same pairs, the one with the fewest actions is favoured and weighs more.
    @Test func theShortestEntryReachingAPairWeighsMore() {
        var guide = ExploreGuide()
        let long = ExplorePlan(actions: (0..<12).map { InjectedAction(time: Millis($0) * 1000, kind: .home) })
        let short = ExplorePlan(actions: [InjectedAction(time: 0, kind: .home)])
        guide.add(plan: long, features: [5 << 8 | 1, 6 << 8 | 1], observations: [], choicePoints: 0)
        guide.add(plan: short, features: [5 << 8 | 2, 6 << 8 | 2], observations: [], choicePoints: 0)
        guide.reweigh()
        #expect(guide.corpus.count == 2)
        #expect(guide.corpus[1].weight > 8 * guide.corpus[0].weight)
    }
}

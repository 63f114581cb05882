// Explore's injected actions: their text forms round-trip, random schedules follow the seed, and
// shrinking keeps exactly what a failure needs.
import Testing
@testable import LuaFetchCore

@Suite struct InjectedActionTests {
    @Test func specsRoundTrip() throws {
        let text = "12.5:home,30:open,31:forceQuit,40:interrupt=20,50:backgroundFetch,60:memoryPressure,70:lowPower=on,80:lowPower=off"
        let actions = try InjectedAction.parse(text).get()
        #expect(actions.count == 8)
        #expect(actions.map(\.spec).joined(separator: ",") == text)
        #expect(actions[3] == InjectedAction(time: 40_000, kind: .interrupt(20_000)))
        #expect(actions[0].luaLine == "at(12.5, user.home)")
        #expect(actions[3].luaLine == "at(40, function() user.interrupt(20) end)")
        #expect(actions[6].luaLine == "at(70, function() system.setLowPowerMode(true) end)")
    }

    @Test(arguments: ["home", "x:home", "-1:home", "5:fly", "5:interrupt", "5:interrupt=0", "5:lowPower=maybe", "5:home=1"])
    func badSpecsAreRejected(text: String) {
        guard case .failure = InjectedAction.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
    }

    @Test func plansFollowTheSeedAndStayInTheHorizon() {
        let a = ExplorePlan.random(seed: 5, horizon: 3_600_000)
        #expect(a == ExplorePlan.random(seed: 5, horizon: 3_600_000))
        #expect(a != ExplorePlan.random(seed: 6, horizon: 3_600_000))
        for seed in Int64(1)...200 {
            let p = ExplorePlan.random(seed: seed, horizon: 3_600_000)
            #expect(p.actions.allSatisfy { $0.time >= 0 && $0.time < 3_600_000 })
            #expect(p.actions.map(\.time) == p.actions.map(\.time).sorted())
            #expect(p.anchored.count <= 3)
        }
    }

    /// Swarm testing: runs differ in which kinds they use, and some use only a few.
    @Test func plansAreSwarmsWithBursts() {
        var kindsPerRun: [Int] = []
        var closeGaps = 0, gaps = 0
        for seed in Int64(1)...500 {
            let p = ExplorePlan.random(seed: seed, horizon: 2 * 86_400_000)
            kindsPerRun.append(Set(p.actions.map(\.kind.name)).count)
            for (x, y) in zip(p.actions, p.actions.dropFirst()) {
                gaps += 1
                if y.time - x.time <= 1000 { closeGaps += 1 }
            }
        }
        #expect(kindsPerRun.contains(1))
        #expect(kindsPerRun.contains { $0 >= 4 })
        // About half of the gaps are bursts (50 ms to 10 s), a fifth of them within a second.
        #expect(closeGaps * 20 > gaps)
        // Some runs take other orders at choice points, and some place actions at milestones.
        let plans = (Int64(1)...100).map { ExplorePlan.random(seed: $0, horizon: 1_000_000) }
        #expect(plans.contains { $0.order != 0 } && plans.contains { $0.order == 0 })
        #expect(plans.contains { !$0.anchored.isEmpty })
    }

    @Test func logUniformStaysInItsRangeAndFavoursShortGaps() {
        var rng = SeededStream(seed: 1, stream: "t")
        let draws = (0..<2000).map { _ in InjectedAction.logUniform(50, 10_000, &rng) }
        #expect(draws.allSatisfy { (50...10_000).contains($0) })
        #expect(draws.filter { $0 < 1000 }.count > 800)  // 5 of 8 octaves lie below 1 s
    }

    @Test func shrinkingKeepsOnlyWhatTheFailureNeeds() {
        let actions = (1...8).map { InjectedAction(time: Millis($0) * 1000, kind: $0 % 2 == 0 ? .home : .open) }
        var calls = 0
        let minimal = Schedule.shrink(Schedule(actions: actions, order: 0b1011)) { batch in
            batch.map { s in
                calls += 1
                // Needs the action that was at 3 s and the one at 6 s, at least 2 s apart, and order bit 1.
                guard let a = s.actions.firstIndex(where: { $0.kind == .home && $0.time <= 3000 && $0.time >= 0 }),
                      s.actions.contains(where: { $0.kind == .home && $0.time >= s.actions[a].time + 2000 }),
                      s.order & 0b10 != 0 else { return false }
                return true
            }
        }
        #expect(minimal.actions.count == 2)
        #expect(minimal.order == 0b10)
        // The gaps are as short as the failure allows: the second action 2 s after the first, the first at 0.
        #expect(minimal.actions.map(\.time) == [0, 2000])
        #expect(calls < 200)
        #expect(Schedule.shrink(Schedule(actions: actions, order: 3)) { $0.map { _ in true } } == Schedule(actions: [], order: 0))
    }

    /// A switch and its switching back go together when other actions lie between them: the
    /// walkthrough's "minimal" schedule kept a network off … on (and Low Power Mode on … off)
    /// around the open and Home the finding needed, since neither half could go alone.
    @Test func shrinkingDropsASwitchAndItsSwitchingBackTogether() {
        let network = { (on: Bool) in InjectedAction.Kind(row: ActionSpec.injectedRows["network"]!, .flag(on)) }
        let actions = [InjectedAction(time: 1000, kind: .lowPower(true)), InjectedAction(time: 1001, kind: .open),
                       InjectedAction(time: 1002, kind: network(false)), InjectedAction(time: 1003, kind: .home),
                       InjectedAction(time: 1004, kind: network(true)), InjectedAction(time: 1005, kind: .lowPower(false))]
        let minimal = Schedule.shrink(Schedule(actions: actions)) { batch in
            batch.map { s in
                // A half switch is not a person's; the failure needs an open and a Home after it.
                for name in ["lowPower", "network"] where s.actions.filter({ $0.kind.name == name }).count == 1 { return false }
                guard let o = s.actions.firstIndex(where: { $0.kind == .open }) else { return false }
                return s.actions[(o + 1)...].contains { $0.kind == .home }
            }
        }
        #expect(minimal.actions.map(\.kind.name) == ["open", "home"], "\(minimal.actions.map(\.spec))")
    }

    /// The action table is the one vocabulary: every injectable action parses, prints and replays.
    @Test func everyInjectableActionOfTheTableRoundTrips() throws {
        let injectable = ActionSpec.all.filter { $0.injectName != nil }
        #expect(injectable.map(\.exploreWeight).reduce(0, +) == 100)
        // Every kind of the SPEC the world can do, Part II's too, is a candidate.
        for name in ["home", "open", "forceQuit", "interrupt", "backgroundFetch", "memoryPressure", "lowPower", "push",
                     "launchTask", "expireTask", "cancelTask", "disconnectScene", "network", "charging", "deviceIdle", "outage"] {
            #expect(injectable.contains { $0.injectName == name }, "\(name)")
        }
        for a in injectable {
            let arg: String
            switch a.takes {
            case .nothing: arg = ""
            case .duration: arg = "=7"
            case .flag, .optionalFlag: arg = "=off"
            case .identifier: arg = "=com.example.refresh"
            case .push: arg = ""
            }
            let parsed = try InjectedAction.parse("3:\(a.injectName!)\(arg)").get()
            #expect(parsed.count == 1 && parsed[0].spec == "3:\(a.injectName!)\(arg)")
            #expect(parsed[0].luaLine.contains(a.qualifiedName))
            #expect(InjectedAction.usage.contains(a.injectName!))
        }
        // Every kind explore draws is an injectable row.
        for seed in Int64(1)...50 {
            let plan = ExplorePlan.random(seed: seed, horizon: 1_000_000)
            for kind in plan.actions.map(\.kind) + plan.anchored.map(\.kind) {
                #expect(ActionSpec.injected(kind.name) != nil)
            }
        }
    }
}

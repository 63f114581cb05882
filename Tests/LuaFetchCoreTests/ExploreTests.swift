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

    @Test func randomSchedulesFollowTheSeedAndStayInTheHorizon() {
        let a = InjectedAction.random(seed: 5, horizon: 3_600_000)
        #expect(a == InjectedAction.random(seed: 5, horizon: 3_600_000))
        #expect(a != InjectedAction.random(seed: 6, horizon: 3_600_000))
        #expect((3...12).contains(a.count))
        #expect(a.allSatisfy { $0.time >= 0 && $0.time < 3_600_000 })
        #expect(a.map(\.time) == a.map(\.time).sorted())
    }

    @Test func shrinkingKeepsOnlyWhatTheFailureNeeds() {
        let actions = (1...8).map { InjectedAction(time: Millis($0) * 1000, kind: $0 % 2 == 0 ? .home : .open) }
        var calls = 0
        let minimal = InjectedAction.shrink(actions) { subset in
            calls += 1
            return subset.contains { $0.time == 3000 } && subset.contains { $0.time == 6000 }
        }
        #expect(minimal.map(\.time) == [3000, 6000])
        #expect(calls < 40)
        #expect(InjectedAction.shrink(actions) { _ in true }.isEmpty)
    }

    /// The action table is the one vocabulary: every injectable action parses, prints and replays.
    @Test func everyInjectableActionOfTheTableRoundTrips() throws {
        let injectable = ActionSpec.all.filter { $0.injectName != nil }
        #expect(injectable.map(\.exploreWeight).reduce(0, +) == 100)
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
        for action in InjectedAction.random(seed: 9, horizon: 1_000_000) {
            #expect(ActionSpec.injected(action.kind.name) != nil)
        }
    }
}

// Tests of the pure-Swift simulator: the clock's queue, time formatting, profiles, randomness,
// suggestions, URL parsing, and lifecycle / task / fetch rules driven through a FakeHost.
import Testing
@testable import LuaFetchCore

@Suite struct ClockTests {
    @Test func eventsOrderByTimeThenPhaseThenSequence() {
        let q = EventQueue()
        q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 1), at: 10, phase: .deadline)
        q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 2), at: 10)
        q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 3), at: 5)
        q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 4), at: 10)
        q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 5), at: 10, phase: .late)
        var order: [Int] = []
        while let e = q.pop() { order.append(e.event.a) }
        #expect(order == [3, 2, 4, 1, 5])
    }

    /// The heap with its sorted run pops every entry in order, whatever the mix of in-order
    /// (appended to the run) and out-of-order (sifted into the heap) inserts between pops.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func theHeapAndItsRunPopInOrder(seed: Int) {
        var rng = SeededStream(seed: Int64(seed), stream: "heap")
        var heap = QuaternaryHeap<Int>()
        var reference: [Int] = []  // sorted
        func add(_ v: Int) {
            heap.insert(v)
            var lo = 0, hi = reference.count
            while lo < hi { let mid = (lo + hi) / 2; if reference[mid] <= v { lo = mid + 1 } else { hi = mid } }
            reference.insert(v, at: lo)
        }
        var popped: [Int] = [], expected: [Int] = [], mins: [Int?] = [], counts: [Int] = []
        var next = 0, bursts = 0
        for _ in 0..<20_000 {
            switch rng.next() % 8 {
            case 0, 1, 2:  // in order (a timer one period on)
                next += Int(rng.next() % 5)
                add(next)
            case 3:  // anywhere
                add(Int(rng.next() % UInt64(next + 10)))
            case 4 where bursts < 3 && rng.next() % 64 == 0:  // a burst in order, across the run's pages
                bursts += 1
                for _ in 0..<5_000 { next += Int(rng.next() % 3); add(next) }
            default:
                counts.append(heap.count - reference.count)
                guard !reference.isEmpty else { popped.append(heap.popMin() ?? -1); expected.append(-1); continue }
                expected.append(reference.removeFirst())
                mins.append(heap.min)
                popped.append(heap.popMin()!)
            }
            if rng.next() % 997 == 0 { var copy = QuaternaryHeap<Int>(); copy.assign(heap); heap = copy }
        }
        #expect(counts.allSatisfy { $0 == 0 })
        #expect(mins == popped.filter { $0 != -1 }.map { Optional($0) })
        while let v = heap.popMin() { popped.append(v) }
        #expect(popped == expected + reference)
        #expect(heap.isEmpty && heap.count == 0)
    }

    /// Messages built piece by piece read as interpolation would, past the stack buffer too.
    @Test func textBuildsWhatInterpolationWould() {
        let long = String(repeating: "é/x", count: 120)
        for (n, ms) in [(0, 5), (-42, 999), (Int.max, 1000), (Int.min + 1, 61_500), (7, 3_600_000)] {
            let built = Text.build { t in t.add("#"); t.add(n); t.add(" → "); t.add(long); t.add(" after "); t.add(human: Millis(ms)) }
            #expect(built == "#\(n) → \(long) after \(Time.human(Millis(ms)))")
        }
        #expect(Text.build { _ in } == "")
    }

    @Test func timesBeyondTheKeyRangeDoNotWrapAround() {
        let q = EventQueue()
        q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 1), at: 1 << 50)
        q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 2), at: 5)
        var order: [Int] = []
        while let e = q.pop() { order.append(e.event.a) }
        #expect(order == [2, 1])
    }

    @Test func cancelledEventsAreSkippedAndStopKeepingTheRunAlive() {
        let q = EventQueue()
        let a = q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 1), at: 10)
        q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 2), at: 20, recurring: true)
        #expect(q.liveNonRecurring == 1)
        q.cancel(a)
        #expect(q.liveNonRecurring == 0)
        let next = q.peekTime()
        #expect(next == 20)
    }

    /// An EventID names one taking of a slot: once its event ran (or was cancelled and skipped),
    /// cancelling it leaves the event that took the slot next alone.
    @Test func aStaleEventIDCancelsNothingLater() {
        let q = EventQueue()
        let first = q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 1), at: 10)
        #expect(q.pop()?.event.a == 1)
        let second = q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 2), at: 20)
        #expect(second.slot == first.slot && second.generation != first.generation)
        q.cancel(first)
        #expect(q.liveNonRecurring == 1)
        q.cancel(second)
        q.cancel(second)  // twice: counted once
        #expect(q.liveNonRecurring == 0 && q.pop() == nil)
        let third = q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 3), at: 30)
        q.cancel(second)
        #expect(third.slot == first.slot && q.pop()?.event.a == 3)
    }

    /// `cancelAll` (a process ending) cancels what it picks, returns it in slot order, and once
    /// the cancelled entries are most of the heap they go: the heap holds only the live ones,
    /// which still pop in order, and a stale EventID of a dropped one cancels nothing later.
    @Test(arguments: [1, 2, 3])
    func cancelAllDropsTheDeadAndKeepsTheOrder(seed: Int) {
        var rng = SeededStream(seed: Int64(seed), stream: "cancelAll")
        let q = EventQueue()
        var ids: [(EventID, Int, Int)] = []  // id, a, time
        for i in 0..<400 {
            let time = Int64(rng.next() % 1000)
            ids.append((q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: i, b: i % 3 == 0 ? 1 : 0), at: time), i, Int(time)))
        }
        let out = q.cancelAll { $0.b == 0 }
        #expect(out.map(\.a) == ids.map(\.1).filter { $0 % 3 != 0 })
        #expect(q.count == ids.count { $0.1 % 3 == 0 })  // the dead are gone
        #expect(q.liveNonRecurring == q.count)
        let stale = ids[1].0
        let later = q.schedule(Event(.expectations, ExpectationBook.Kind.at, a: 9999), at: 5)
        q.cancel(stale)  // names a dropped event's slot, perhaps the one `later` took
        var popped: [(Int, Int64)] = []
        while let e = q.pop() { popped.append((e.event.a, e.time)) }
        let expected = (ids.filter { $0.1 % 3 == 0 }.map { ($0.1, Int64($0.2)) } + [(9999, 5)])
        #expect(popped.map(\.1) == popped.map(\.1).sorted())
        #expect(Set(popped.map(\.0)) == Set(expected.map(\.0)))
        _ = later
    }

    /// A pending event costs 24 bytes of slot and 16 of queue entry (issue #19's memory goal).
    @Test func aPendingEventIsSmall() {
        #expect(MemoryLayout<Event>.size == 18)
        #expect(MemoryLayout<EventQueue.Slot>.stride == 24)
        #expect(MemoryLayout<EventQueue.Entry>.stride == 16)
        let every = Event(.timeline, Timeline.Kind.every, a: 90 * 86_400_000, b: Int(Int32.max))
        #expect(every.a == 90 * 86_400_000 && every.b == Int(Int32.max))
    }

    @Test func stampsAndDurations() {
        #expect(Time.stamp(93_784_005) == "+1d02:03:04.005")
        #expect(Time.stamp(0) == "+0d00:00:00.000")
        #expect(Time.stamp(-1_500) == "-0d00:00:01.500")
        #expect(Time.stamp(123 * 86_400_000 + 59_999) == "+123d00:00:59.999")
        #expect(Time.stamp(Int64.min).hasPrefix("-106751991167d"))
        #expect(Time.parseDuration("90") == 90_000)
        #expect(Time.parseDuration("90s") == 90_000)
        #expect(Time.parseDuration("15m") == 900_000)
        #expect(Time.parseDuration("2h") == 7_200_000)
        #expect(Time.parseDuration("3d") == 259_200_000)
        #expect(Time.parseDuration("250ms") == 250)
        #expect(Time.parseDuration("x") == nil)
        #expect(Time.parseDuration("-5s") == nil)
        #expect(Time.parseDuration("5m12s") == 312_000)          // SPEC 1: combinations
        #expect(Time.parseDuration("1h30m") == 5_400_000)
        #expect(Time.parseDuration("1d2h3m4s5ms") == 93_784_005)
        #expect(Time.parseDuration("1.5h") == 5_400_000)
        #expect(Time.parseDuration(" 2h ") == 7_200_000)
        #expect(Time.parseDuration("5m12") == nil)                // a bare number only alone
        #expect(Time.parseDuration("5x") == nil)
        #expect(Time.parseDuration("m") == nil)
        #expect(Time.parseDuration("1e9d") == nil)
        #expect(Time.millis(fromSeconds: 0.0004) == 0)
        #expect(Time.millis(fromSeconds: 0.0005) == 1)
        #expect(Time.seconds(2_000) == .integer(2))
        #expect(Time.seconds(2_500) == .float(2.5))
    }
}

@Suite struct ProfileTests {
    @Test func numbersOfSection5() {
        let s = Time.second
        let ios6 = OSProfile.ios6.budgets, ios7 = OSProfile.ios7.budgets, ios13 = OSProfile.ios13.budgets
        #expect([ios6.backgroundTask, ios7.backgroundTask, ios13.backgroundTask] == [600 * s, 180 * s, 30 * s])
        #expect([ios6.backgroundTaskLaunched, ios7.backgroundTaskLaunched, ios13.backgroundTaskLaunched] == [nil, 30 * s, 30 * s])
        #expect(Set([ios6.expirationWarning, ios7.expirationWarning, ios13.expirationWarning]) == [5 * s])
        #expect([ios6.fetch, ios7.fetch, ios13.fetch] == [nil, 30 * s, 30 * s])
        #expect(Set([ios6.didEnterBackground, ios7.willTerminate, ios13.didEnterBackground]) == [5 * s])
        #expect(Set([ios6.launch, ios7.launch, ios13.launch]) == [20 * s])
        #expect([ios6.fetchFloor, ios7.fetchFloor, ios13.fetchFloor] == [nil, 600 * s, 900 * s])
        #expect([ios6.taskHeldWarning, ios7.taskHeldWarning, ios13.taskHeldWarning] == [nil, nil, 30 * s])
        #expect([ios6.maxTasks, ios7.maxTasks, ios13.maxTasks] == [nil, 1000, 1000])
        #expect(!OSProfile.ios6.hasFetchAPI && OSProfile.ios7.hasFetchAPI)
    }

    @Test func overridesByName() {
        var b = OSProfile.ios13.budgets
        let setTask = b.set("backgroundTask", seconds: 12.5)
        let setMax = b.set("maxTasks", seconds: 3)
        let setNope = b.set("nope", seconds: 1)
        #expect(setTask && setMax && !setNope)
        #expect(b.backgroundTask == 12_500)
        #expect(b.maxTasks == 3)
    }

    @Test func severitiesAndExceptionCodes() {
        #expect(ViolationCode.allCases.count == 30)
        let warnings = ViolationCode.allCases.filter { $0.severity == .warning }.map(\.rawValue)
        #expect(warnings == ["task-not-ended-in-handler", "task-unknown", "task-held-too-long", "fetch-not-configured", "unmatched-request", "pending-at-end", "deadlock", "timer-on-background-thread", "masked-by-debugger", "bgtask-double-completion", "bgtask-submit-refused", "session-no-completion", "scene-lifecycle-required"])
        #expect(ViolationCode.tooManyTasks.exceptionCode == "0xbada5e47")
        #expect(ViolationCode.appHang.exceptionCode == "0x8badf00d")
    }
}

@Suite struct HelperTests {
    @Test func streamsAreDeterministicAndIndependent() {
        var a = SeededStream(seed: 7, stream: "network"), b = SeededStream(seed: 7, stream: "network")
        var c = SeededStream(seed: 7, stream: "scheduler"), d = SeededStream(seed: 8, stream: "network")
        let xa = (0..<5).map { _ in a.next() }
        let xb = (0..<5).map { _ in b.next() }
        let xc = (0..<5).map { _ in c.next() }
        let xd = (0..<5).map { _ in d.next() }
        #expect(xa == xb)
        #expect(xa != xc)
        #expect(xa != xd)
        var u = SeededStream(seed: 1)
        let units = (0..<1000).map { _ in u.unit() }
        #expect(units.allSatisfy { $0 >= 0 && $0 < 1 })
    }

    @Test func suggestionsFindTheClosestName() {
        #expect(closest("beginBackgroudTask", among: ["beginBackgroundTask", "endBackgroundTask"]) == "beginBackgroundTask")
        #expect(closest("scenari", among: ["scenario", "server"]) == "scenario")
        #expect(closest("zzzzzz", among: ["scenario"]) == nil)
        #expect(closest("nmae", among: ["name", "seed"]) == "name")
        #expect(closest("g1", among: ["at", "os"]) == nil)       // short words: only close names
        #expect(closest("hom", among: ["home", "open"]) == "home")
        #expect(closest("G", among: ["_G", "at"]) == nil)         // no leading-underscore names
        #expect(closest(String(repeating: "x", count: 65), among: ["x"]) == nil)
    }

    @Test func urls() {
        let u = ParsedURL("https://API.test:8443/a/b?x=1#frag")
        #expect(u?.host == "api.test")
        #expect(u?.path == "/a/b")
        #expect(u?.query == "x=1")
        #expect(ParsedURL("https://api.test")?.path == "/")
        #expect(ParsedURL("api.test/x") == nil)
        // Edges of the byte-level parser.
        for bad in ["://x", "https:///x", "https://a b/x", "https://:80/x", "", "https:/", "x:/"] {
            #expect(ParsedURL(bad) == nil, "\(bad)")
        }
        let q = ParsedURL("https://h?q=1#f")
        #expect(q?.host == "h" && q?.path == "/" && q?.query == "q=1")
        let h = ParsedURL("https://h/p#f?x")
        #expect(h?.path == "/p" && h?.query == nil)
        #expect(ParsedURL("https://ÄPI.test/x")?.host == "äpi.test")
        let p = ParsedURL("http://H:80")
        #expect(p?.scheme == "http" && p?.host == "h" && p?.path == "/")
        #expect(ParsedURL("https://h/a?b?c")?.query == "b?c")
        #expect(ParsedURL("https://h/ä/ö?ü=1")?.path == "/ä/ö")
    }

    @Test func jsonEscapesOnlyWhatItMust() {
        #expect(JSON.string("plain text · ünïcode").text == "\"plain text · ünïcode\"")
        #expect(JSON.string("a\"b\\c\nd\u{1}").text == "\"a\\\"b\\\\c\\nd\\u0001\"")
    }
}

@Suite struct WorldRuleTests {
    @Test func homeSuspendsAnAppWithNothingToDo() {
        let h = FakeHost()
        h.world.at(0) { h.world.userLaunch() }
        h.world.at(10_000) { h.world.userHome() }
        try? h.world.run()
        #expect(h.world.state == .suspended)
        #expect(h.messages(.state) == ["● inactive (launched by the user)", "● active", "● inactive", "● background", "● suspended"])
    }

    @Test func delegateMethodsAreCalledInOrder() {
        let h = FakeHost()
        var calls: [String] = []
        for m in DelegateMethod.allCases { h.world.app.delegate[m] = h.fn { _ in calls.append(m.rawValue) } }
        h.world.at(0) { h.world.userLaunch() }
        h.world.at(1_000) { h.world.userHome() }
        h.world.at(2_000) { h.world.userLaunch() }
        try? h.world.run()
        #expect(calls == ["didFinishLaunching", "didBecomeActive", "willResignActive", "didEnterBackground", "willEnterForeground", "didBecomeActive"])
    }

    @Test func aTaskLeftOpenExpiresAtTheBudget() {
        let h = FakeHost()
        h.world.app.delegate[.didEnterBackground] = h.fn { _ in _ = h.world.beginBackgroundTask(name: nil, handler: nil, at: nil) }
        h.world.at(0) { h.world.userLaunch() }
        h.world.at(10_000) { h.world.userHome() }
        try? h.world.run()
        #expect(h.world.violations.map(\.code) == [.taskExpired])
        #expect(h.world.violations.first?.time == 40_000)
        #expect(h.world.state == .notRunning)
        #expect(h.world.exitCode == 1)
    }

    @Test func expirationWarningRunsHandlersBeforeTheDeadline() {
        let h = FakeHost()
        var id = 0
        var at: Millis = 0
        let handler = h.fn { _ in at = h.world.now; h.world.endBackgroundTask(id, at: nil) }
        h.world.app.delegate[.didEnterBackground] = h.fn { _ in id = h.world.beginBackgroundTask(name: "x", handler: handler, at: nil) }
        h.world.at(0) { h.world.userLaunch() }
        h.world.at(10_000) { h.world.userHome() }
        try? h.world.run()
        #expect(at == 35_000)
        #expect(h.world.violations.isEmpty)
        #expect(h.world.state == .suspended)
    }

    @Test func fixedScheduleWakesTheAppAtExactGaps() {
        let h = FakeHost()
        h.world.config.fetchPolicy = .fixed
        h.world.config.duration = 3_000_000
        h.world.app.backgroundModes = ["fetch"]
        var starts: [Millis] = []
        h.world.app.delegate[.didFinishLaunching] = h.fn { _ in _ = h.world.setMinimumBackgroundFetchInterval(0) }
        h.world.app.grantHandlers[.fetch] = h.fn { inv in
            starts.append(h.world.now)
            if case .completion(let key) = inv[1] { _ = h.world.completeGrant(key, with: .string("noData"), at: nil) }
        }
        h.world.at(0) { h.world.userLaunch() }
        h.world.at(5_000) { h.world.userHome() }
        try? h.world.run()
        #expect(starts == [900_000, 1_800_000, 2_700_000])
        #expect(h.world.stats.wakes == 3)
    }

    @Test func worldErrorsEndTheRun() {
        let h = FakeHost()
        h.functions[99] = { _ in .failed(ScriptFailure(kind: .error, message: "fake.lua:3: boom")) }
        h.world.at(1_000, ScriptRef(id: 99))
        #expect(throws: ScenarioError.self) { try h.world.run() }
    }
}

@Suite struct SeamTests {
    /// The World asks its subsystems in SubsystemID order, each event reaches its owner.
    @Test func subsystemsAreListedInTheirIDOrder() {
        let h = FakeHost()
        #expect(h.world.subsystems.count == SubsystemID.allCases.count)
        #expect(h.world.subsystems[Int(SubsystemID.grants.rawValue)] === h.world.grants)
        #expect(h.world.subsystems[Int(SubsystemID.appTime.rawValue)] === h.world.appTime)
    }

    /// Device settings changed at run time live in the world, not in the scenario's configuration.
    @Test func deviceChangesAreWorldState() {
        let h = FakeHost()
        h.world.at(5_000) { h.world.systemSetLowPowerMode(true) }
        h.world.advance(to: 10_000)
        #expect(h.world.device.lowPowerMode)
        #expect(!h.world.config.device.lowPowerMode)
    }

    /// A grant's second completion crashes with the kind's code; a completion of a gone process
    /// is ignored.
    @Test func grantsCompleteOnce() {
        let h = FakeHost()
        h.world.app.backgroundModes = ["fetch"]
        var key: GrantKey?
        h.world.app.grantHandlers[.fetch] = h.fn { inv in if case .completion(let k) = inv[1] { key = k } }
        h.world.at(0) { h.world.userLaunch() }
        h.world.at(1_000) { h.world.systemBackgroundFetch() }
        h.world.advance(to: 2_000)
        guard let key else { Issue.record("no completion handler"); return }
        #expect(h.world.grants.pending.count == 1)
        #expect(h.world.completeGrant(key, with: .string("newData"), at: nil))
        #expect(h.world.grants.pending.isEmpty)
        #expect(!h.world.completeGrant(key, with: .string("newData"), at: nil))
        #expect(h.world.violations.map(\.code) == [.fetchDoubleCompletion])
        #expect(h.world.completeGrant(GrantKey(kind: .fetch, serial: 99), with: .string("newData"), at: nil))
    }
}

@Suite struct InstantThrottleTests {
    @Test func capsAnInstantAndDoublesItsWait() {
        var t = InstantThrottle(limit: 3)
        for _ in 0..<3 { #expect(!t.isFull(at: 5)); t.note(at: 5) }
        #expect(t.isFull(at: 5))
        #expect(!t.isFull(at: 6))  // a new instant starts over
        #expect(t.wait(at: 5) == 1_000)
        #expect(t.wait(at: 5) == 1_000)  // the same all through one instant
        #expect(t.wait(at: 1_005) == 2_000)
        #expect(t.wait(at: 3_005) == 4_000)
        for i in 0..<20 { _ = t.wait(at: 10_000 + Millis(i)) }
        #expect(t.wait(at: 99_999_999) == 3_600_000)  // at most an hour
    }
}

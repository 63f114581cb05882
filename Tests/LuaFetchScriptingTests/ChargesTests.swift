// Issue 40: what work costs the run's instruction limit beyond its VM instructions, so that the
// default limits bound a run's time and not only its counts: a new string more than a found one,
// a float formatted, an error caught, a timeline line whatever the output, the walk over
// observers. Each rule compares the units two runs spent (LuaState.unitsSpent): counts, never
// clocks (what a unit costs in time is measured by bench/costs.py and scripts/bench).
import Testing
import LuaFetchCore
@testable import LuaFetchScripting

@Suite struct ChargesTests {
    /// Units a scenario spent by the end of its run.
    func units(_ source: String, timeline: Bool = true) -> Int64 {
        let runtime = ScenarioRuntime(path: "test.lua", options: RunOptions(), instructionBudget: 100_000_000, memoryCap: 64 << 20)
        runtime.world.recordTimeline = timeline
        do {
            try runtime.run(source: Array(source.utf8), chunkName: "@test.lua")
            try runtime.run()
        } catch {
            Issue.record("\(error)")
        }
        return runtime.lua.unitsSpent
    }

    /// The same instructions: 1,000 new strings against one string found 1,000 times (Lua makes a
    /// string only when it is new, after formatting and hashing it).
    @Test func aNewStringCostsMoreThanAFoundOne() {
        let made = units("at(1, function() for i = 1, 1000 do local s = 'k' .. (i + 0.5) end end)")
        let found = units("at(1, function() local j = 1 for i = 1, 1000 do local s = 'k' .. (j + 0.5) end end)")
        #expect(made - found >= 1000 * 40, "\(made) \(found)")
    }

    /// tostring of a float formats it (snprintf's %.14g); of a boolean, it does not.
    @Test func formattingAFloatCosts() {
        let float = units("at(1, function() for i = 1, 1000 do local s = tostring(1.5) end end)")
        let boolean = units("at(1, function() for i = 1, 1000 do local s = tostring(true) end end)")
        #expect(float - boolean >= 1000 * 30, "\(float) \(boolean)")
    }

    /// `..` formats a number even when the string it makes exists already (no allocation, so no
    /// allocation charge): formatting.c charges the C library's formatting itself. The same
    /// instructions, the same strings found 1,000 times: a float formatted costs more than an
    /// integer, and an integer more than a string that needs no formatting.
    @Test func aNumberFormattedCostsEvenWhenItsStringExists() {
        let float = units("at(1, function() local j = 1 for i = 1, 1000 do local s = 'k' .. (j + 0.5) end end)")
        let integer = units("at(1, function() local j = 1 for i = 1, 1000 do local s = 'k' .. (j + 1) end end)")
        let string = units("at(1, function() local j = '2' for i = 1, 1000 do local s = 'k' .. j end end)")
        #expect(float - integer >= 1000 * 40, "\(float) \(integer)")
        #expect(integer - string >= 1000 * 8, "\(integer) \(string)")
    }

    /// string.format charges each conversion its pattern holds: two floats cost about twice one.
    @Test func stringFormatChargesEachFloatItFormats() {
        let two = units("at(1, function() for i = 1, 1000 do local s = string.format('%.3f %.3f', 1.5, 2.5) end end)")
        let one = units("at(1, function() for i = 1, 1000 do local s = string.format('%.3f %s', 1.5, 'x') end end)")
        #expect(two - one >= 1000 * 50, "\(two) \(one)")
    }

    /// An error raised and caught costs its message and the unwinding, beyond the calls, with
    /// pcall and xpcall, in a handler as at the top level. (A handler runs in a coroutine, where
    /// Lua finishes a call that caught an error through pcall's continuation: a charge placed after
    /// Lua's own pcall returned was never made there, and `error`'s call was all it cost.)
    @Test func aCaughtErrorCosts() {
        let raised = units("at(1, function() for i = 1, 1000 do pcall(error, 'x') end end)")
        let returned = units("at(1, function() for i = 1, 1000 do pcall(type, 'x') end end)")
        #expect(raised - returned >= 1000 * 40, "\(raised) \(returned)")
        let xraised = units("at(1, function() local h = function(m) return m end for i = 1, 1000 do xpcall(error, h, 'x') end end)")
        let xreturned = units("at(1, function() local h = function(m) return m end for i = 1, 1000 do xpcall(type, h, 'x') end end)")
        #expect(xraised - xreturned >= 1000 * 40, "\(xraised) \(xreturned)")
        let top = units("for i = 1, 1000 do pcall(error, 'x') end") - units("for i = 1, 1000 do pcall(type, 'x') end")
        #expect(top >= 1000 * 40, "\(top)")
    }

    /// Every call of a library function written in C costs more than its instructions: `abs(i)` is
    /// two more than `local x = i` (MOVE MOVE CALL against MOVE), and the call is charged on top.
    @Test func aLibraryCallCostsMoreThanItsInstructions() {
        let called = units("at(1, function() local abs = math.abs for i = 1, 1000 do local x = abs(i) end end)")
        let moved = units("at(1, function() local abs = math.abs for i = 1, 1000 do local x = i end end)")
        #expect(called - moved >= 1000 * (2 + 2), "\(called) \(moved)")
    }

    /// string.upper passes over every byte: upper-casing a 100 KB string costs a unit per 4 bytes
    /// on top of its allocation, against the same calls on a 2-byte string.
    @Test func upperCasingCostsByLength() {
        let long = units("at(1, function() local s = ('ab'):rep(50000) for i = 1, 10 do local t = s:upper() end end)")
        let short = units("at(1, function() local s = ('ab'):rep(50000) for i = 1, 10 do local t = ('ab'):upper() end end)")
        #expect(long - short >= 10 * 100_000 / 4, "\(long) \(short)")
    }

    /// A timeline line costs what writing it does, whether or not the run writes it: the limit is
    /// reached at the same point with --quiet, text or JSON Lines.
    @Test func aTimelineLineCostsTheSameWhateverTheOutput() {
        let source = "at(1, function() for i = 1, 100 do print(i) end end)"
        let kept = units(source, timeline: true)
        let quiet = units(source, timeline: false)
        #expect(kept == quiet)
        #expect(kept - units("at(1, function() for i = 1, 100 do tostring(i) end end)") >= 100 * World.unitsPerEntry)
    }

    /// notifications.post walks every observer: a post among 400 observers of other names costs
    /// the walk (about 100 posts, each past 400 observers).
    @Test func postingWalksEveryObserver() {
        let observers = "for i = 1, 400 do notifications.observe('other', function() end) end\n"
        let posts = "scenario { duration = 100 }\nevery(1, function() notifications.post('x', {}) end)\n"
        let walks = (units(observers + posts) - units(observers)) - (units(posts) - units(""))
        #expect(walks >= 90 * 100, "\(walks)")
    }
}

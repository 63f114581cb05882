// The stubs of imported scenarios, on the World's side (SPEC 18.4, 18.7.11): their draws are a
// function of the run's seed, the call site, how many times it ran and what is drawn (no stream
// to shift: a new stub elsewhere changes no other draw), and the explore-only draws a run took
// are noted (the timeline says so, and explore's findings name them). The Lua side is the
// `swift` runtime (LuaFetchScripting/API/Swift/stubs.lua).

extension World {
    /// A draw in [0, 1) for stub call `count` of `site` (`k`: which of its draws).
    public func stubDraw(site: Int, count: Int, k: Int) -> Double {
        var s = SeededStream(seed: seed, stream: "stubs")
        let base = s.next()
        var mix = SeededStream(seed: base ^ (UInt64(truncatingIfNeeded: site) &* 0x9e37_79b9_7f4a_7c15)
                                    ^ (UInt64(truncatingIfNeeded: count) &* 0xc2b2_ae3d_27d4_eb4f)
                                    ^ (UInt64(truncatingIfNeeded: k) &* 0x1656_67b1_9e37_79f9))
        _ = mix.next()
        stats.stubCalls += 1
        return mix.unit()
    }

    /// Whether stubs draw as explore's runs do (`--stub-draws explore`).
    public var exploreStubDraws: Bool { options.stubDraws == .explore }

    /// A stub call took an explore-only path: noted on the timeline and for findings.
    public func noteStubDraw(_ name: String, at location: String, _ what: String) {
        log("stub", .info, "\(name) (\(location)) → \(what) (explore's draw; --stub-draws explore replays it)")
        if stats.stubNotes.count < 32 { stats.stubNotes.append("\(Time.stamp(now)) \(name) (\(location)) → \(what)") }
    }

    /// `unsupported(...)` ran: code the importer could not translate.
    public func noteUnsupported(_ text: String) {
        log("app", .info, "(\(text))")
    }
}

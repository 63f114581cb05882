// Seeded randomness for luafetch (SPEC 2): one family of SplitMix64 generators derived from the
// run's seed, a separate stream per subsystem (network, scheduler, explore, scenario) so a new
// draw in one place never shifts another. Pure Swift.

/// A small, fast, seedable generator (SplitMix64). Deterministic on every platform.
public struct SeededStream: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The stream `name` of the family seeded by `seed`.
    public init(seed: Int64, stream name: String) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a of the stream name
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        var mix = SeededStream(seed: UInt64(bitPattern: seed) ^ h)
        state = mix.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform in [-1, 1].
    public mutating func symmetric() -> Double { unit() * 2 - 1 }
}

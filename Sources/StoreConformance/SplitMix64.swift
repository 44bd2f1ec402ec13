/// A small, fast, seeded random number generator (SplitMix64): the same seed gives the same
/// sequence on every machine, so generated data and queries reproduce exactly.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<n`.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
}

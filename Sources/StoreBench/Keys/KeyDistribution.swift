import StoreConformance
import StoreBenchKit

/// How a workload picks the keys it touches, in YCSB's terms (`requestdistribution`).
///
/// - `uniform`: every key equally likely.
/// - `zipfian`: a Zipf distribution (θ = 0.99) whose popular keys are scattered over the key
///   space, as YCSB's scrambled Zipfian generator does, so they do not sit side by side in a page.
/// - `latest`: Zipf over recency: the most recently inserted key is the most popular.
public enum KeyDistribution: String, CaseIterable, Sendable, Codable {
    case uniform, zipfian, latest
}

/// Draws key numbers in `0..<count` with a `KeyDistribution`; `grow(to:)` after inserts.
///
/// ```swift
/// var keys = KeyChooser(.zipfian, count: 10_000)
/// var rng = SplitMix64(seed: 7)
/// let id = keys.next(&rng) + 1       // a user id, skewed
/// ```
///
/// A value type: give each thread its own copy.
public struct KeyChooser: Sendable {
    public let distribution: KeyDistribution
    public private(set) var count: Int
    private var zipf: ZipfianGenerator?
    private var scramble: KeyScramble

    public init(_ distribution: KeyDistribution, count: Int, theta: Double = ZipfianGenerator.ycsbConstant) {
        self.distribution = distribution
        self.count = max(count, 1)
        zipf = distribution == .uniform ? nil : ZipfianGenerator(itemCount: self.count, theta: theta)
        scramble = KeyScramble(count: self.count)
    }

    /// Extends the key space to `count` keys (the new ones are the latest).
    public mutating func grow(to newCount: Int) {
        guard newCount > count else { return }
        count = newCount
        zipf?.grow(to: newCount)
        if distribution == .zipfian { scramble = KeyScramble(count: newCount) }
    }

    /// The next key number, in `0..<count`.
    public mutating func next(_ rng: inout SplitMix64) -> Int {
        switch distribution {
        case .uniform: return rng.below(count)
        case .zipfian: return scramble.apply(zipf!.next(&rng))
        case .latest: return count - 1 - zipf!.next(&rng)
        }
    }
}

/// A fixed bijection of `0..<count` onto itself: an affine map modulo the next power of two,
/// applied again while the result falls outside the range (cycle walking). Internal helper.
struct KeyScramble: Sendable {
    let count: Int
    private let mask: UInt64
    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15   // odd: invertible mod 2^k
    private static let offset: UInt64 = 0x2545_F491_4F6C_DD1D

    init(count: Int) {
        self.count = count
        var m: UInt64 = 1
        while m < UInt64(count) { m <<= 1 }
        mask = m - 1
    }

    func apply(_ i: Int) -> Int {
        var x = UInt64(i)
        repeat { x = (x &* Self.multiplier &+ Self.offset) & mask } while x >= UInt64(count)
        return Int(x)
    }
}

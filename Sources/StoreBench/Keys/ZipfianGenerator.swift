import Foundation
import StoreConformance
import StoreBenchKit

/// Draws item numbers in `0..<itemCount` with a Zipf distribution: item `i` is drawn with
/// probability `(i + 1)^-θ / Σ_k k^-θ`, so item 0 is the most popular; θ defaults to YCSB's
/// `zipfian.constant`, 0.99.
///
/// Exact, by rejection-inversion (Hörmann and Derflinger, "Rejection-inversion to generate
/// variates from monotone discrete distributions", 1996): O(1) per draw and per `grow(to:)`,
/// with no sum over the items. YCSB's own generator (Gray et al. 1994) approximates every item
/// past the second; its frequencies of items 2… drift from Zipf's by several percent.
///
/// ```swift
/// var zipf = ZipfianGenerator(itemCount: 10_000)
/// var rng = SplitMix64(seed: 1)
/// let key = zipf.next(&rng)          // 0 about 10% of the time at this size
/// ```
///
/// A value type: each thread draws from its own copy.
public struct ZipfianGenerator: Sendable {
    /// YCSB's default skew (`zipfian.constant`).
    public static let ycsbConstant = 0.99

    public private(set) var itemCount: Int
    public let theta: Double
    private let hIntegralX1: Double
    private var hIntegralN: Double
    private let squeeze: Double

    /// - Precondition: `itemCount >= 1` and `theta > 0`.
    public init(itemCount: Int, theta: Double = ZipfianGenerator.ycsbConstant) {
        precondition(itemCount >= 1, "a Zipf distribution needs at least one item")
        precondition(theta > 0, "θ must be positive")
        self.itemCount = itemCount
        self.theta = theta
        hIntegralX1 = Self.hIntegral(1.5, theta) - 1
        hIntegralN = Self.hIntegral(Double(itemCount) + 0.5, theta)
        squeeze = 2 - Self.hIntegralInverse(Self.hIntegral(2.5, theta) - Self.h(2, theta), theta)
    }

    /// Extends the distribution to `count` items (after inserts), keeping θ.
    public mutating func grow(to count: Int) {
        guard count > itemCount else { return }
        itemCount = count
        hIntegralN = Self.hIntegral(Double(count) + 0.5, theta)
    }

    /// The next item number, in `0..<itemCount`.
    public mutating func next(_ rng: inout SplitMix64) -> Int {
        while true {
            let u01 = Double(rng.next() >> 11) / Double(1 << 53)
            let u = hIntegralN + u01 * (hIntegralX1 - hIntegralN)
            let x = Self.hIntegralInverse(u, theta)
            let k = min(max((x + 0.5).rounded(.down), 1), Double(itemCount))
            // Accept at once inside the squeeze, else when u falls under the step at k.
            if k - x <= squeeze || u >= Self.hIntegral(k + 0.5, theta) - Self.h(k, theta) {
                return Int(k) - 1
            }
        }
    }

    /// The exact probabilities of items `0..<count` (an O(count) sum): what draws converge to.
    public static func probabilities(count: Int, theta: Double = ycsbConstant) -> [Double] {
        let weights = (1...max(count, 1)).map { pow(Double($0), -theta) }
        let total = weights.reduce(0, +)
        return weights.map { $0 / total }
    }

    // MARK: Internal helpers

    /// The density's hat, `x^-θ`.
    private static func h(_ x: Double, _ theta: Double) -> Double { exp(-theta * log(x)) }

    /// An antiderivative of `h`: `(x^(1-θ) - 1) / (1-θ)`, or `log x` at θ = 1.
    private static func hIntegral(_ x: Double, _ theta: Double) -> Double {
        let logX = log(x)
        return expm1OverX((1 - theta) * logX) * logX
    }

    private static func hIntegralInverse(_ x: Double, _ theta: Double) -> Double {
        let t = max(x * (1 - theta), -1)   // rounding can push it just past its bound
        return exp(log1pOverX(t) * x)
    }

    /// `(e^x - 1) / x`, 1 at 0.
    private static func expm1OverX(_ x: Double) -> Double {
        abs(x) > 1e-8 ? expm1(x) / x : 1 + x / 2 * (1 + x / 3 * (1 + x / 4))
    }

    /// `log(1 + x) / x`, 1 at 0.
    private static func log1pOverX(_ x: Double) -> Double {
        abs(x) > 1e-8 ? log1p(x) / x : 1 - x * (1 / 2 - x * (1 / 3 - x / 4))
    }
}

import Foundation

/// A median with a distribution-free confidence interval: the value every table prints, and
/// the range within which the true median lies at the stated confidence.
///
/// The interval comes from order statistics (the sign test): for `n` samples, the `k`-th
/// smallest and `k`-th largest bound the median with probability `1 − 2·P(Binomial(n, ½) < k)`,
/// whatever the distribution. `k` is the largest that keeps that at or above 95%; with fewer
/// than 6 samples no such `k` exists, and the interval is the full range at its lower
/// confidence (93.8% for 5 samples, 87.5% for 4), which `confidence` states.
///
/// ```swift
/// let e = Estimate(medianOf: [1.02, 0.97, 1.10, 1.01, 0.99, 1.03])
/// e.value        // 1.015
/// e.low, e.high  // 0.97, 1.10 (96.9%)
/// ```
public struct Estimate: Codable, Sendable, Hashable {
    public var value: Double
    public var low: Double
    public var high: Double
    /// The probability that the interval holds the true median (0…1); 0 for a single sample.
    public var confidence: Double

    public init(value: Double, low: Double, high: Double, confidence: Double) {
        self.value = value
        self.low = low
        self.high = high
        self.confidence = confidence
    }

    /// The median of `samples` and its order-statistic interval (see the type's summary).
    public init(medianOf samples: [Double]) {
        precondition(!samples.isEmpty, "an estimate needs at least one sample")
        let s = samples.sorted()
        let n = s.count
        value = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
        let k = Self.rank(n)
        low = s[k - 1]
        high = s[n - k]
        confidence = n < 2 ? 0 : 1 - 2 * Self.binomialBelow(k, n)
    }

    /// True when the whole interval lies above `x`.
    public func isAbove(_ x: Double) -> Bool { low > x }

    /// True when the whole interval lies below `x`.
    public func isBelow(_ x: Double) -> Bool { high < x }
    /// True when `x` lies inside the interval.
    public func contains(_ x: Double) -> Bool { low <= x && x <= high }

    public func scaled(by f: Double) -> Estimate {
        Estimate(value: value * f, low: low * f, high: high * f, confidence: confidence)
    }

    // MARK: Order statistics (internal)

    /// The largest rank `k ≥ 1` whose interval keeps at least 95% confidence, else 1.
    package static func rank(_ n: Int) -> Int {
        var k = 1
        while k + 1 <= (n + 1) / 2 && 1 - 2 * binomialBelow(k + 1, n) >= 0.95 { k += 1 }
        return k
    }

    /// P(Binomial(n, ½) < k).
    package static func binomialBelow(_ k: Int, _ n: Int) -> Double {
        var total = 0.0
        var choose = 1.0  // C(n, i)
        for i in 0..<k {
            total += choose
            choose = choose * Double(n - i) / Double(i + 1)
        }
        return total / pow(2, Double(n))
    }
}

extension Estimate {
    private enum Keys: String, CodingKey { case value, low, high, confidence }

    /// Reads an estimate, or a bare number as results schema 1 wrote ratios (no interval).
    public init(from decoder: Decoder) throws {
        if let c = try? decoder.container(keyedBy: Keys.self), c.contains(.value) {
            self.init(value: try c.decode(Double.self, forKey: .value), low: try c.decode(Double.self, forKey: .low),
                      high: try c.decode(Double.self, forKey: .high), confidence: try c.decode(Double.self, forKey: .confidence))
        } else {
            let x = try decoder.singleValueContainer().decode(Double.self)
            self.init(value: x, low: x, high: x, confidence: 0)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(value, forKey: .value)
        try c.encode(low, forKey: .low)
        try c.encode(high, forKey: .high)
        try c.encode(confidence, forKey: .confidence)
    }
}

import Foundation

/// What many comparisons' noise says about each one's: the empirical-Bayes prior of limma's
/// moderated t (Smyth 2004). Each comparison rests on a handful of rounds, so its own variance
/// is a poor estimate; the report holds a few hundred of them, whose variances together give a
/// scaled inverse-χ² prior (`degreesOfFreedom` d₀, `variance` s₀²). A comparison's moderated
/// variance is (d₀·s₀² + d·s²) ÷ (d₀ + d), with d₀ + d degrees of freedom: noisy estimates are
/// pulled toward the typical noise, and intervals at a high confidence become usable. The more
/// the variances differ, the smaller d₀ comes out and the less each is moved.
///
/// ```swift
/// let prior = VariancePrior(fitting: ratios)      // many paired LogRatios
/// let moderated = prior?.moderate(ratios[0])      // narrower when the noise is typical
/// ```
public struct VariancePrior: Sendable, Hashable {
    public let degreesOfFreedom: Double
    public let variance: Double

    public init(degreesOfFreedom: Double, variance: Double) {
        self.degreesOfFreedom = degreesOfFreedom
        self.variance = variance
    }

    /// Fits the prior to the per-sample variances of paired log ratios (those with at least
    /// two samples and some spread); nil with fewer than three.
    public init?(fitting ratios: [LogRatio]) {
        let usable = ratios.filter { $0.kind == .paired && $0.degreesOfFreedom >= 1 && $0.standardError > 0 }
        guard usable.count >= 3 else { return nil }
        let d = usable.map(\.degreesOfFreedom)
        let e = zip(usable, d).map { r, d in log(r.sampleVariance) - Gamma.digamma(d / 2) + log(d / 2) }
        let g = Double(e.count), mean = e.reduce(0, +) / g
        let spread = zip(e, d).map { e, d in (e - mean) * (e - mean) * g / (g - 1) - Gamma.trigamma(d / 2) }.reduce(0, +) / g
        let cap = d.reduce(0, +)
        let d0 = spread > 0 ? min(cap, 2 * Gamma.inverseTrigamma(spread)) : cap
        self.init(degreesOfFreedom: d0, variance: exp(mean + Gamma.digamma(d0 / 2) - log(d0 / 2)))
    }

    /// `ratio` with its variance moderated (paired ratios only; others come back as they are).
    public func moderate(_ ratio: LogRatio) -> LogRatio {
        guard ratio.kind == .paired, ratio.degreesOfFreedom >= 0, ratio.samples >= 1 else { return ratio }
        let d = ratio.degreesOfFreedom
        let s2 = (degreesOfFreedom * variance + d * ratio.sampleVariance) / (degreesOfFreedom + d)
        var out = ratio
        out.standardError = (s2 / Double(ratio.samples)).squareRoot()
        out.degreesOfFreedom = degreesOfFreedom + d
        return out
    }
}

/// The polygamma functions the prior needs, by recurrence and asymptotic series.
enum Gamma {
    static func digamma(_ x: Double) -> Double {
        var x = x, shift = 0.0
        while x < 6 { shift -= 1 / x; x += 1 }
        let x2 = 1 / (x * x)
        return shift + log(x) - 0.5 / x - x2 * (1.0 / 12 - x2 * (1.0 / 120 - x2 / 252))
    }

    static func trigamma(_ x: Double) -> Double {
        var x = x, shift = 0.0
        while x < 6 { shift += 1 / (x * x); x += 1 }
        let x2 = 1 / (x * x)
        return shift + 1 / x + x2 / 2 + x2 / x * (1.0 / 6 - x2 * (1.0 / 30 - x2 / 42))
    }

    static func tetragamma(_ x: Double) -> Double {
        var x = x, shift = 0.0
        while x < 6 { shift -= 2 / (x * x * x); x += 1 }
        let x2 = 1 / (x * x)
        return shift - x2 - x2 / x - x2 * x2 / 2 + x2 * x2 * x2 / 6 - x2 * x2 * x2 * x2 / 6
    }

    /// The y > 0 with trigamma(y) = `value` (Newton's method from limma's start).
    static func inverseTrigamma(_ value: Double) -> Double {
        if value > 1e7 { return 1 / value.squareRoot() }
        if value < 1e-6 { return 1 / value }
        var y = 0.5 + 1 / value
        for _ in 0..<50 {
            let t = trigamma(y)
            let step = t * (1 - t / value) / tetragamma(y)
            y += step
            if -step / y < 1e-8 { break }
        }
        return y
    }
}

import Foundation

/// Student's t distribution: its cumulative probability and its quantiles, for the intervals
/// and tests every comparison in a report uses.
///
/// ```swift
/// StudentT.quantile(0.975, degreesOfFreedom: 4)   // 2.776
/// ```
public enum StudentT {
    /// P(T ≤ t) for `degreesOfFreedom` ν > 0 (through the regularized incomplete beta function).
    public static func cdf(_ t: Double, degreesOfFreedom nu: Double) -> Double {
        guard nu > 0, t.isFinite else { return t > 0 ? 1 : 0 }
        let tail = 0.5 * incompleteBeta(nu / (nu + t * t), a: nu / 2, b: 0.5)
        return t >= 0 ? 1 - tail : tail
    }

    /// The t with P(T ≤ t) = `p`, by bisection (monotone, so exact to 1e-10 relative).
    public static func quantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
        guard p > 0, p < 1, nu > 0 else { return p >= 0.5 ? .infinity : -.infinity }
        if p < 0.5 { return -quantile(1 - p, degreesOfFreedom: nu) }
        var low = 0.0, high = 1.0
        while cdf(high, degreesOfFreedom: nu) < p { low = high; high *= 2; if high > 1e12 { return .infinity } }
        for _ in 0..<200 where high - low > 1e-10 * high {
            let mid = (low + high) / 2
            if cdf(mid, degreesOfFreedom: nu) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// The regularized incomplete beta function I_x(a, b), by its continued fraction.
    static func incompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logBeta: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let front = exp(logBeta + logPowers)
        if x < (a + 1) / (a + b + 2) { return front * continuedFraction(x, a, b) / a }
        return 1 - front * continuedFraction(1 - x, b, a) / b
    }

    /// Lentz's evaluation of the incomplete beta's continued fraction.
    private static func continuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0, d = 1 - (a + b) * x / (a + 1)
        d = abs(d) < tiny ? 1 / tiny : 1 / d
        var h = d
        for m in 1...300 {
            let m = Double(m)
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + even * d; c = 1 + even / c
            d = abs(d) < tiny ? 1 / tiny : 1 / d; c = abs(c) < tiny ? tiny : c
            h *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + odd * d; c = 1 + odd / c
            d = abs(d) < tiny ? 1 / tiny : 1 / d; c = abs(c) < tiny ? tiny : c
            let step = d * c
            h *= step
            if abs(step - 1) < 1e-14 { break }
        }
        return h
    }
}

import Foundation

/// How much slower one thing is than another, on the log scale where ratios become
/// differences: the mean of log(numerator ÷ denominator), its standard error and degrees of
/// freedom. Every comparison in a report is one; `Comparison` turns it into a decision.
///
/// - `paired`: rounds run back to back (numerator and denominator of round i side by side), so
///   drift between rounds cancels: a one-sample t on the per-round log ratios.
/// - `unpaired`: two independent sets of samples (per-interval times of two cells, or rounds of
///   unequal count): Welch's t on the logs.
/// - `mean(of:)`: the average of several (a use case over its workloads), errors added in quadrature.
///
/// ```swift
/// let r = LogRatio(paired: [2.1, 2.0, 2.2], over: [1.0, 1.0, 1.1])
/// r.ratio                          // ≈ 2.03
/// r.interval(confidence: 0.95)     // an Estimate around it
/// ```
public struct LogRatio: Sendable, Hashable {
    /// Where the estimate comes from.
    public enum Kind: Sendable, Hashable { case paired, unpaired, mean }

    public var kind: Kind
    /// Mean of log(numerator ÷ denominator).
    public var mean: Double
    public var standardError: Double
    /// Of the t distribution the interval uses; 0 when there is no estimate of the noise.
    public var degreesOfFreedom: Double
    /// The samples the estimate rests on (pairs, or the smaller of the two sets).
    public var samples: Int

    public init(mean: Double, standardError: Double, degreesOfFreedom: Double, samples: Int, kind: Kind = .mean) {
        self.kind = kind
        self.mean = mean
        self.standardError = standardError
        self.degreesOfFreedom = degreesOfFreedom
        self.samples = samples
    }

    /// From paired positive samples; nil unless both hold the same number (at least one).
    public init?(paired numerators: [Double], over denominators: [Double]) {
        guard numerators.count == denominators.count, !numerators.isEmpty,
              !(numerators + denominators).contains(where: { !($0 > 0) }) else { return nil }
        let d = zip(numerators, denominators).map { log($0 / $1) }
        let (m, v) = Self.meanAndVariance(d)
        self.init(mean: m, standardError: (v / Double(d.count)).squareRoot(), degreesOfFreedom: Double(d.count - 1), samples: d.count,
                  kind: .paired)
    }

    /// From two independent sets of positive samples (Welch); nil when either is empty. A
    /// factor above 1 says a set's samples are correlated (consecutive intervals of one run):
    /// its variance of the mean grows by it and its effective count shrinks by it.
    public init?(unpaired numerators: [Double], over denominators: [Double], numeratorFactor: Double = 1, denominatorFactor: Double = 1) {
        guard !numerators.isEmpty, !denominators.isEmpty,
              !(numerators + denominators).contains(where: { !($0 > 0) }) else { return nil }
        let (ma, va) = Self.meanAndVariance(numerators.map(log)), (mb, vb) = Self.meanAndVariance(denominators.map(log))
        let na = Double(numerators.count) / max(1, numeratorFactor), nb = Double(denominators.count) / max(1, denominatorFactor)
        let sa = va / na, sb = vb / nb
        let df: Double = na < 2 || nb < 2 ? 0
            : (sa + sb) > 0 ? (sa + sb) * (sa + sb) / (sa * sa / (na - 1) + sb * sb / (nb - 1)) : na + nb - 2
        self.init(mean: ma - mb, standardError: (sa + sb).squareRoot(), degreesOfFreedom: df,
                  samples: min(numerators.count, denominators.count), kind: .unpaired)
    }

    /// The average of independent log ratios (a geometric mean of ratios), its error from
    /// theirs and its degrees of freedom by Welch–Satterthwaite; nil for none.
    public static func mean(of parts: [LogRatio]) -> LogRatio? {
        guard !parts.isEmpty else { return nil }
        let k = Double(parts.count)
        let variances = parts.map { $0.standardError * $0.standardError / (k * k) }
        let total = variances.reduce(0, +)
        let noDF = parts.contains { $0.degreesOfFreedom <= 0 }
        let spread = zip(variances, parts).map { v, p in p.degreesOfFreedom > 0 ? v * v / p.degreesOfFreedom : 0 }.reduce(0, +)
        let df = noDF ? 0 : spread > 0 ? total * total / spread : parts.map(\.degreesOfFreedom).reduce(0, +)
        return LogRatio(mean: parts.map(\.mean).reduce(0, +) / k, standardError: total.squareRoot(), degreesOfFreedom: df,
                        samples: parts.map(\.samples).min()!)
    }

    /// The per-sample variance of the log ratios (paired): standard error² × samples.
    public var sampleVariance: Double { standardError * standardError * Double(samples) }

    /// numerator ÷ denominator (the geometric mean of the ratios).
    public var ratio: Double { exp(mean) }

    /// The half-width on the log scale of a two-sided interval at `confidence`; infinite
    /// without an estimate of the noise.
    public func halfWidth(confidence: Double) -> Double {
        guard degreesOfFreedom > 0 else { return .infinity }
        return StudentT.quantile(1 - (1 - confidence) / 2, degreesOfFreedom: degreesOfFreedom) * standardError
    }

    /// The ratio with its two-sided t interval at `confidence`.
    public func interval(confidence: Double) -> Estimate {
        let h = halfWidth(confidence: confidence)
        return Estimate(value: ratio, low: exp(mean - h), high: exp(mean + h), confidence: h.isFinite ? confidence : 0)
    }

    private static func meanAndVariance(_ xs: [Double]) -> (Double, Double) {
        let m = xs.reduce(0, +) / Double(xs.count)
        guard xs.count > 1 else { return (m, 0) }
        return (m, xs.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(xs.count - 1))
    }
}

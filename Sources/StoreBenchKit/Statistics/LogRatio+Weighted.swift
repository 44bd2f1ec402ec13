import Foundation

extension LogRatio {
    /// The weighted average of independent log ratios (a weighted geometric mean of ratios):
    /// mean Σ wᵢ·mᵢ, variance Σ wᵢ²·seᵢ², degrees of freedom by Welch–Satterthwaite, with the
    /// weights scaled to sum to 1. Equal weights give `mean(of:)`. Parts of weight 0 are left
    /// out; nil when no part has a positive weight, or a weight is negative or not finite.
    ///
    /// ```swift
    /// let mix = LogRatio.weightedMean(of: [(reads, 0.8), (writes, 0.2)])
    /// ```
    public static func weightedMean(of parts: [(LogRatio, weight: Double)]) -> LogRatio? {
        guard !parts.contains(where: { !($0.weight >= 0) || !$0.weight.isFinite }) else { return nil }
        let used = parts.filter { $0.weight > 0 }
        let total = used.map(\.weight).reduce(0, +)
        guard total > 0 else { return nil }
        let w = used.map { $0.weight / total }
        let variances = zip(used, w).map { p, w in w * w * p.0.standardError * p.0.standardError }
        let sum = variances.reduce(0, +)
        let noDF = used.contains { $0.0.degreesOfFreedom <= 0 }
        let spread = zip(variances, used).map { v, p in p.0.degreesOfFreedom > 0 ? v * v / p.0.degreesOfFreedom : 0 }.reduce(0, +)
        let df = noDF ? 0 : spread > 0 ? sum * sum / spread : used.map(\.0.degreesOfFreedom).reduce(0, +)
        return LogRatio(mean: zip(used, w).map { $0.0.mean * $1 }.reduce(0, +), standardError: sum.squareRoot(),
                        degreesOfFreedom: df, samples: used.map(\.0.samples).min()!)
    }
}

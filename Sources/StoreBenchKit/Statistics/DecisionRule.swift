import Foundation

/// How a report turns a ratio into a decision: the equivalence margin, and the confidence each
/// interval is drawn at so that all of the report's comparisons together err with probability
/// at most 1 − `familyConfidence` (Bonferroni: each at 1 − α ÷ comparisons).
///
/// ```swift
/// let rule = DecisionRule(margin: 0.05, comparisons: 200)
/// rule.decide(LogRatio(paired: slow, over: fast)!).outcome   // .slower, .faster, .equivalent or .undecided
/// ```
public struct DecisionRule: Sendable, Hashable {
    /// Two times within this fraction of each other (either way) count as equivalent; one
    /// must be beyond it to count as faster.
    public var margin: Double
    /// The probability that no comparison of the report is wrongly decided.
    public var familyConfidence: Double
    /// How many comparisons the report decides.
    public var comparisons: Int
    /// The noise the report's paired comparisons share, which moderates each (`VariancePrior`).
    public var prior: VariancePrior?

    public static let defaultMargin = 0.05

    public init(margin: Double = DecisionRule.defaultMargin, familyConfidence: Double = 0.95, comparisons: Int,
                prior: VariancePrior? = nil) {
        self.margin = margin
        self.familyConfidence = familyConfidence
        self.comparisons = max(1, comparisons)
        self.prior = prior
    }

    /// `ratio` moderated by the prior when it is a paired one (as `decide` does): combine
    /// moderated parts before deciding their mean.
    public func moderated(_ ratio: LogRatio) -> LogRatio { prior?.moderate(ratio) ?? ratio }

    /// The confidence of each interval: 1 − (1 − family) ÷ comparisons.
    public var confidence: Double { 1 - (1 - familyConfidence) / Double(comparisons) }

    /// The decision the interval of `ratio` (numerator ÷ denominator) supports.
    public func decide(_ raw: LogRatio) -> Comparison {
        let ratio = moderated(raw)
        let estimate = ratio.interval(confidence: confidence)
        let top = 1 + margin, bottom = 1 / (1 + margin)
        let outcome: Comparison.Outcome = estimate.confidence == 0 ? .undecided
            : estimate.low > top ? .slower
            : estimate.high < bottom ? .faster
            : estimate.low >= bottom && estimate.high <= top ? .equivalent : .undecided
        return Comparison(ratio: estimate, outcome: outcome, samples: ratio.samples,
                          samplesNeeded: outcome == .undecided ? samplesNeeded(raw) : nil)
    }

    /// For an undecided ratio: the fewest samples that would decide it if its mean and noise
    /// held (searched in steps of a quarter: the t quantile falls and, for a moderated ratio,
    /// its own variance gains weight against the prior's as samples grow); nil when none up to
    /// 10,000 would (it sits on the margin) or the noise is unknown.
    func samplesNeeded(_ r: LogRatio) -> Int? {
        let delta = log(1 + margin)
        let gap = abs(abs(r.mean) - delta)
        guard r.degreesOfFreedom > 0, r.samples > 0, gap > 0 else { return nil }
        var n = Double(r.samples) + 1
        while n <= 10_000 {
            if halfWidth(r, at: n) < gap { return Int(n.rounded(.up)) }
            n = max(n + 1, n * 1.25)
        }
        return nil
    }

    /// `r`'s interval half-width had it rested on `n` samples.
    private func halfWidth(_ r: LogRatio, at n: Double) -> Double {
        let quantile = 1 - (1 - confidence) / 2
        if r.kind == .paired, let prior {
            let own = n - 1, d0 = prior.degreesOfFreedom
            let variance = (d0 * prior.variance + own * r.sampleVariance) / (d0 + own)
            return StudentT.quantile(quantile, degreesOfFreedom: d0 + own) * (variance / n).squareRoot()
        }
        let scale = n / Double(r.samples)
        return StudentT.quantile(quantile, degreesOfFreedom: r.degreesOfFreedom * scale) * r.standardError / scale.squareRoot()
    }
}

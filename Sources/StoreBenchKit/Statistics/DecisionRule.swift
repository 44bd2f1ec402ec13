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
    public func decide(_ ratio: LogRatio) -> Comparison {
        let ratio = moderated(ratio)
        let estimate = ratio.interval(confidence: confidence)
        let top = 1 + margin, bottom = 1 / (1 + margin)
        let outcome: Comparison.Outcome = estimate.confidence == 0 ? .undecided
            : estimate.low > top ? .slower
            : estimate.high < bottom ? .faster
            : estimate.low >= bottom && estimate.high <= top ? .equivalent : .undecided
        return Comparison(ratio: estimate, outcome: outcome, samples: ratio.samples,
                          samplesNeeded: outcome == .undecided ? samplesNeeded(ratio) : nil)
    }

    /// For an undecided ratio: the samples that would decide it if its mean and noise held
    /// (the interval narrows as 1/√n); nil when no number would (it sits on the margin) or the
    /// noise is unknown.
    func samplesNeeded(_ r: LogRatio) -> Int? {
        let h = r.halfWidth(confidence: confidence), delta = log(1 + margin)
        let gap = abs(abs(r.mean) - delta)
        guard h.isFinite, gap > delta / 20 else { return nil }
        let n = Double(r.samples) * (h / gap) * (h / gap)
        return n < 10_000 ? Int(n.rounded(.up)) : nil
    }
}

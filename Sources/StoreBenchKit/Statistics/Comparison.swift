/// One decided comparison: a ratio (numerator ÷ denominator) with its interval at the report's
/// confidence, and what it lets a reader conclude under a `DecisionRule`.
public struct Comparison: Sendable, Hashable {
    /// What the numerator is against the denominator.
    public enum Outcome: String, Sendable, Hashable {
        /// Slower by more than the margin: the whole interval lies above 1 + margin.
        case slower
        /// Faster by more than the margin: the whole interval lies below 1 ÷ (1 + margin).
        case faster
        /// Within the margin either way: the whole interval lies inside it.
        case equivalent
        /// The interval reaches across a margin's edge: more samples are needed.
        case undecided
    }

    public let ratio: Estimate
    public let outcome: Outcome
    /// The samples (rounds or intervals) the estimate rests on.
    public let samples: Int
    /// For an undecided comparison: how many samples would decide it at its present noise.
    public let samplesNeeded: Int?

    public var isDecided: Bool { outcome != .undecided }
}

/// A named set of run settings: which scales, how many repetitions, how long a cell may take.
public enum Profile: String, CaseIterable, Codable, Sendable {
    /// `make bench`: the quick scale, 3 repetitions; a few minutes.
    case quick
    /// The reference report: quick and standard scales, 5 rounds of 1 repetition; under 30 minutes.
    case standard
    /// Everything up to the large scale (1M users); hours, mostly loading.
    case full

    public var scales: [String] {
        switch self {
        case .quick: ["tiny", "quick"]
        case .standard: ["quick", "standard"]
        case .full: ["quick", "standard", "large"]
        }
    }

    /// Measured repetitions per cell and round.
    public var repetitions: Int {
        switch self {
        case .quick, .full: 3
        case .standard: 1
        }
    }

    /// Rounds: the standard profile runs every workload five times in turn across the
    /// targets (one measured repetition each), so each ratio is the median of five ratios
    /// taken seconds apart; the quick profile stays at one round to stay near a minute.
    public var rounds: Int { self == .standard ? 5 : 1 }
    public var warmup: Int { 1 }

    /// Seconds one cell may run before it is stopped and reported as timed out.
    public var cellTimeout: Double {
        switch self {
        case .quick: 180
        case .standard: 900
        case .full: 7_200
        }
    }
}

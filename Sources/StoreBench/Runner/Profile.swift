/// A named set of run settings: which scales, how many repetitions, how long a cell may take.
public enum Profile: String, CaseIterable, Codable, Sendable {
    /// `make bench`: the quick scale, 3 repetitions; a few minutes.
    case quick
    /// The reference report: quick and standard scales, 5 repetitions; under 30 minutes.
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

    public var repetitions: Int { self == .quick ? 3 : 5 }
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

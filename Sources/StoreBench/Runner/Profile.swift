import StoreBenchKit

/// A named set of run settings: which scales, how many repetitions, how long a cell may take.
public enum Profile: String, CaseIterable, Codable, Sendable {
    /// `make bench`: the quick scale, 5 rounds; under 5 minutes on 2 cores (254 s and 271 s measured).
    case quick
    /// The reference report: quick and standard scales, 5 rounds of 1 repetition; within 30 minutes on 2 cores.
    case standard
    /// Everything up to the large scale (1M users); hours, mostly loading.
    case full
    /// The growth sweeps alone at their full size (`Fixtures/sweep.json`: up to 1M records and
    /// 4 GiB of values per store and backend): long, opt-in.
    case sweep

    public var scales: [String] {
        switch self {
        case .quick: ["quick"]
        case .standard: ["quick", "standard"]
        case .full: ["quick", "standard", "large"]
        case .sweep: ["sweep"]
        }
    }

    /// The workloads the profile runs when none are named: the quick profile leaves out the
    /// concurrency workloads outside its reduced set (`Workload.inQuickProfile`).
    public var defaultWorkloads: [Workload] {
        switch self {
        case .quick: WorkloadRegistry.all.filter(\.inQuickProfile)
        case .sweep: WorkloadRegistry.all.filter { $0.category == .growth }
        case .standard, .full: WorkloadRegistry.all
        }
    }

    /// Measured repetitions per cell and round.
    public var repetitions: Int { self == .full ? 3 : 1 }

    /// Rounds: every workload runs this many times in turn across the targets (one warm-up and
    /// one measured repetition each, in a fresh process), so each ratio is the median of that
    /// many paired per-round ratios with an order-statistic interval (five give 93.8%, six 96.9%).
    public var rounds: Int {
        switch self {
        case .quick: 5
        case .standard: 5
        case .full: 1
        case .sweep: 5
        }
    }
    /// Workloads with a comparison not yet decided get more rounds, up to this many, while the budget lasts.
    public var maxRounds: Int {
        switch self {
        case .quick: 12
        case .standard: 16
        case .full, .sweep: 1
        }
    }
    /// Seconds the extra rounds may take over the whole run.
    public var extraRoundsBudget: Double {
        switch self {
        case .quick: 30
        case .standard: 120
        case .full, .sweep: 0
        }
    }
    public var warmup: Int { 1 }

    /// Seconds one cell may run before it is stopped and reported as timed out.
    public var cellTimeout: Double {
        switch self {
        case .quick: 180
        case .standard: 900
        case .full, .sweep: 7_200
        }
    }
}

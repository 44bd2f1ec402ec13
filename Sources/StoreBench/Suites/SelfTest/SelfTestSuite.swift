import StoreBenchKit

extension WorkloadCategory {
    /// Workloads that test the runner itself (`selftest.*`); never part of a profile.
    public static let selftest = WorkloadCategory("selftest")
}

/// A crash and a hang, for the runner's own tests.
struct SelfTestSuite: WorkloadSuite {
    var category: WorkloadCategory { .selftest }
    var title: String { "Runner self-tests" }
    var workloads: [Workload] { SelfTestWorkloads.all.map { $0.with { $0.isCompared = false } } }
    var inProfiles: Bool { false }
    var chartedByCategory: Bool { false }
    func useCases(of workload: String) -> [UseCase] { [] }
}

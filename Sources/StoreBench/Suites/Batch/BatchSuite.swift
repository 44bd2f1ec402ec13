import StoreBenchKit

extension WorkloadCategory {
    /// Many records per operation (`batch.*`).
    public static let batch = WorkloadCategory("batch")
}

/// Bulk and chunked inserts, update-where and delete-where.
struct BatchSuite: WorkloadSuite {
    var category: WorkloadCategory { .batch }
    var title: String { "Batch writes" }

    var workloads: [Workload] {
        BatchWorkloads.all.map { w in w.with { $0.chartedAcrossScales = w.name == "batch.bulk-insert" } }
    }

    func useCases(of workload: String) -> [UseCase] { [.overall, .mostlyWrites] }
}

import StoreBenchKit

extension WorkloadCategory {
    /// Single-record operations (`crud.*`).
    public static let crud = WorkloadCategory("crud")
}

/// Inserts, reads by key, updates, deletes and upserts, one transaction each or batched.
struct CRUDSuite: WorkloadSuite {
    var category: WorkloadCategory { .crud }
    var title: String { "Create, read, update, delete" }

    var workloads: [Workload] {
        CRUDWorkloads.all.map { w in w.with { $0.chartedAcrossScales = w.name == "crud.read-pk.single" } }
    }

    func useCases(of workload: String) -> [UseCase] {
        [.overall, workload.hasPrefix("crud.read") ? .mostlyReads : .mostlyWrites]
            + (workload.hasSuffix(".single") ? [.smallTransactions] : [])
    }
}

import StoreBenchKit

extension WorkloadCategory {
    /// GRDB's 10-integer rows (`rows.*`).
    public static let rows = WorkloadCategory("rows")
}

/// Inserting and fetching rows of 10 integers, GRDB's published method; the C references check
/// the floors on them.
struct RowsSuite: WorkloadSuite {
    var category: WorkloadCategory { .rows }
    var title: String { "Rows of ten integers" }

    var workloads: [Workload] {
        RowsWorkloads.all.map { w in w.with { $0.isCompared = w.name != "rows.load" } }
    }

    func useCases(of workload: String) -> [UseCase] {
        switch workload {
        case "rows.fetch": [.overall, .mostlyReads]
        case "rows.insert": [.overall, .mostlyWrites]
        default: [.overall]
        }
    }

    /// The workloads the C references implement.
    static let referenceWorkloads: Set<String> = ["rows.load", "rows.insert", "rows.fetch"]
}

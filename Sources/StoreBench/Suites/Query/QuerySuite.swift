import StoreBenchKit

extension WorkloadCategory {
    /// Queries over the social dataset (`query.*`).
    public static let query = WorkloadCategory("query")
}

/// Indexed and unindexed predicates, text, sorts and pages, counts, key paths, traversals, scans.
struct QuerySuite: WorkloadSuite {
    var category: WorkloadCategory { .query }
    var title: String { "Queries" }

    var workloads: [Workload] {
        QueryWorkloads.all.map { w in
            w.with { $0.chartedAcrossScales = ["query.full-scan", "query.unindexed-eq"].contains(w.name) }
        }
    }

    func useCases(of workload: String) -> [UseCase] { [.overall, .mostlyReads] }

    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        switch placement {
        case .section: view.queryFloorSection(workloads.map(\.name))
        case .afterWorkloads: view.queryResultsCheck()
        default: ""
        }
    }
}

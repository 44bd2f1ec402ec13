import StoreBenchKit

extension WorkloadCategory {
    /// Loading and walking the whole dataset, with resident memory (`memory.*`).
    public static let memory = WorkloadCategory("memory")
}

/// Loading the social dataset (the load every social workload's store is copied from) and
/// walking all of it, with resident memory and disk measured around both.
struct MemorySuite: WorkloadSuite {
    static let residentAfterLoad = Figure("residentAfterLoadBytes", .bytes)
    static let walkPeak = Figure("walkPeakBytes", .bytes)
    /// What `walkPeak` is, in the words every place that shows it uses.
    static let walkPeakMeaning = "peak resident memory of the cell process during the walk, above its resident memory before the walk began"

    var category: WorkloadCategory { .memory }
    var title: String { "Memory" }
    var workloads: [Workload] { MemoryWorkloads.all }
    var figures: [Figure] { [Self.residentAfterLoad, Self.walkPeak] }
    /// A load's and a walk's times per record are not comparable with the other categories'.
    var chartedByCategory: Bool { false }

    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        switch placement {
        case .advice: view.memoryAdvice()
        case .charts: view.memoryChart()
        case .afterWorkloads: view.memoryTables()
        case .section: ""
        }
    }
}

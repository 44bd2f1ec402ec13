import StoreBenchKit

extension WorkloadCategory {
    /// Opening an existing store, file size through churn, compaction (`lifecycle.*`).
    public static let lifecycle = WorkloadCategory("lifecycle")
}

/// The storage lifecycle: how long opening a store blocks a launch, cold and warm, and what
/// the files do as data churns and is compacted.
struct LifecycleSuite: WorkloadSuite {
    /// The figures its workloads report.
    enum Figures {
        static let cachedAfterDrop = Figure("cached after drop %", .percent)
        static let open = Figure("open ns", .nanoseconds)
        static let firstResult = Figure("first result ns", .nanoseconds)
        static let sizeLoad = Figure("size load bytes", .bytes)
        static let sizeChurn = Figure("size churn bytes", .bytes)
        static let sizeCompact = Figure("size compact bytes", .bytes)
        static let compact = Figure("compact ns", .nanoseconds)
        static let compactPeak = Figure("compact peak bytes", .bytes)
        /// `delete ns/op`, `update ns/op`, `insert ns/op`: the time per write of a churn phase.
        static func phase(_ name: String) -> Figure { Figure("\(name) ns/op", .nanoseconds) }
        static let phases = ["delete", "update", "insert"]
        static var all: [Figure] {
            [cachedAfterDrop, open, firstResult, sizeLoad, sizeChurn, sizeCompact, compact, compactPeak] + phases.map(phase)
        }
    }

    enum Parameters {
        static let churnBatch = Parameter("writes per transaction", "writes in one churn transaction")
    }

    var category: WorkloadCategory { .lifecycle }
    var title: String { "Opening, churn and compaction" }
    var workloads: [Workload] { LifecycleWorkloads.all }
    var figures: [Figure] { Figures.all }
    var parameters: [Parameter] { [Parameters.churnBatch] }

    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        placement == .section ? view.lifecycle() : ""
    }
}

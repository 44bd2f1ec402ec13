import StoreBenchKit

extension WorkloadCategory {
    /// Cost as the data grows (`growth.*`).
    public static let growth = WorkloadCategory("growth")
}

/// Cost as the data grows: one store per cell grown through four record counts, at one value
/// size per workload; at each count the time of an insert, a read by key, a sorted page and
/// the resident memory per record. The report fits time against record count on log-log axes.
struct GrowthSuite: WorkloadSuite {
    /// The figures of point `i` (0…3) of a sweep.
    enum Figures {
        static let points = 0..<GrowthWorkloads.pointCount
        static func records(_ i: Int) -> Figure { Figure("records @\(i)", .count, better: .neither) }
        static func insert(_ i: Int) -> Figure { Figure("insert ns @\(i)", .nanoseconds) }
        static func read(_ i: Int) -> Figure { Figure("read ns @\(i)", .nanoseconds) }
        static func query(_ i: Int) -> Figure { Figure("page ns @\(i)", .nanoseconds) }
        /// The process's resident memory above what it held when the store opened.
        static func resident(_ i: Int) -> Figure { Figure("resident bytes @\(i)", .bytes) }
        static var all: [Figure] { points.flatMap { [records($0), insert($0), read($0), query($0), resident($0)] } }
    }

    enum Parameters {
        static let valueBytes = Parameter("value bytes", "bytes of each record's payload")
    }

    var category: WorkloadCategory { .growth }
    var title: String { "Cost as the data grows" }
    var workloads: [Workload] { GrowthWorkloads.all }
    var figures: [Figure] { Figures.all }
    var parameters: [Parameter] { [Parameters.valueBytes] }
    /// Its time per operation is one point of a curve; the report draws the curve.
    var chartedByCategory: Bool { false }
    func useCases(of workload: String) -> [UseCase] { [] }

    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        placement == .section ? view.growth() : ""
    }
}

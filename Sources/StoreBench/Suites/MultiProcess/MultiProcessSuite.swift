import StoreBenchKit

extension WorkloadCategory {
    /// Several processes on one store (`multiprocess.*`).
    public static let multiprocess = WorkloadCategory("multiprocess")
}

extension UseCase {
    public static let sharedBetweenProcesses = UseCase(
        "processes", "Shared between processes (an app and its extension: readers and a writer in processes of their own)", rank: 55)
}

/// Several processes on one store file, each opening it itself: reader processes scaling, and
/// readers beside a writer process. Backends without `multiProcess` do not run it.
struct MultiProcessSuite: WorkloadSuite {
    enum Figures {
        static let processes = Figure("processes", .count, better: .neither)
        static let commitsPerSecond = Figure("writer commits per second", .perSecond, better: .higher)
        static var all: [Figure] { [processes, commitsPerSecond] }
    }

    enum Parameters {
        static let processes = Parameter("processes", "processes sharing the store at once")
        static let readsPerProcess = Parameter("reads per process", "reads each reader process issues in a repetition")
        static let commits = Parameter("writer commits", "commits of the writer process in a repetition")
        static var all: [Parameter] { [processes, readsPerProcess, commits] }
    }

    var category: WorkloadCategory { .multiprocess }
    var title: String { "Multi-process" }
    var workloads: [Workload] { MultiProcessWorkloads.all }
    var figures: [Figure] { Figures.all }
    var parameters: [Parameter] { Parameters.all }
    func useCases(of workload: String) -> [UseCase] { [.sharedBetweenProcesses] }

    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        placement == .section ? view.multiProcess() : ""
    }
}

import StoreBenchKit

extension WorkloadCategory {
    /// Commits under each engine's commit modes (`durability.*`).
    public static let durability = WorkloadCategory("durability")
}

/// What a commit costs and what it guarantees: small commits on every backend at the run's
/// durability, and on each engine in each of its commit modes (`CommitMode`: the programs
/// `<mode>:<engine>` beside the engine's floor), with the syncs each commit makes and the bytes
/// written per byte committed.
struct DurabilitySuite: WorkloadSuite {
    /// The figures its workloads report.
    enum Figures {
        static let syncsPerCommit = Figure("syncs per commit", .count)
        /// Bytes passed to write calls (`wchar`) ÷ the packed bytes of the records committed.
        static let writtenPerByte = Figure("bytes written per byte committed", .count)
        /// Bytes the kernel sent or queued to storage (`write_bytes`) ÷ the same.
        static let storagePerByte = Figure("storage bytes per byte committed", .count)
        static var all: [Figure] { [syncsPerCommit, writtenPerByte, storagePerByte] }
    }

    enum Parameters {
        static let commits = Parameter("commits", "write transactions in one repetition")
        static let perCommit = Parameter("records per commit", "new users in one write transaction")
    }

    var category: WorkloadCategory { .durability }
    var title: String { "Commit modes and durability" }
    var workloads: [Workload] { DurabilityWorkloads.all }
    var figures: [Figure] { Figures.all }
    var parameters: [Parameter] { [Parameters.commits, Parameters.perCommit] }

    func useCases(of workload: String) -> [UseCase] {
        workload == DurabilityWorkloads.commitOne.name ? [.overall, .mostlyWrites] : []
    }

    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        placement == .section ? view.durability() : ""
    }
}

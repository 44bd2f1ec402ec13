import StoreBenchKit

extension WorkloadCategory {
    /// YCSB's core workloads over its own `usertable` (`ycsb.*`).
    public static let ycsb = WorkloadCategory("ycsb")
}

extension UseCase {
    public static let ycsb = UseCase("ycsb", "YCSB core workloads (run-phase throughput)", rank: 60)
}

/// YCSB's core workloads A–F, and any YCSB property file (`--ycsb FILE`), in YCSB's terms.
struct YCSBSuite: WorkloadSuite {
    /// The figures its workloads report.
    enum Figures {
        static let loadRate = Figure("load ops/s", .perSecond, better: .higher)
        static let records = Figure("records", .count, better: .neither)
        static let threads = Figure("threads", .count, better: .neither)
        /// `<KIND> count`, `<KIND> avg ns`, `<KIND> p95 ns`, `<KIND> p99 ns`: one operation kind's count and latencies.
        static func count(_ kind: YCSBRun.Operation) -> Figure { Figure("\(kind.rawValue) count", .count, better: .neither) }
        static func latency(_ kind: YCSBRun.Operation, _ statistic: String) -> Figure {
            Figure("\(kind.rawValue) \(statistic) ns", .nanoseconds)
        }
        static let statistics = ["avg", "p95", "p99"]
        static var all: [Figure] {
            [loadRate, records, threads] + YCSBRun.Operation.allCases.flatMap { k in [count(k)] + statistics.map { latency(k, $0) } }
        }
    }

    /// The parameters its workloads record: the file's settings as they ran.
    enum Parameters {
        static let mix = Parameter("mix", "the operation proportions")
        static let distribution = Parameter("request distribution", "how keys are chosen")
        static let recordCount = Parameter("record count", "records loaded")
        static let operationCount = Parameter("operation count", "operations in the run phase")
        static let threads = Parameter("threads", "client threads")
        static let fieldCount = Parameter("field count", "fields per record")
        static let fieldLength = Parameter("field length", "bytes per field")
        /// `key=value` pairs joined by `; `, recorded only when the file has any.
        static let withoutEffect = Parameter("settings without effect", "YCSB settings of the file that change nothing here")
        static var all: [Parameter] { [mix, distribution, recordCount, operationCount, threads, fieldCount, fieldLength, withoutEffect] }

        /// The `settings without effect` value of `settings`, sorted by key.
        static func withoutEffectValue(_ settings: [String: String]) -> String {
            settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
    }

    var category: WorkloadCategory { .ycsb }
    var title: String { "YCSB core workloads" }
    var workloads: [Workload] { YCSBWorkloads.all }
    var figures: [Figure] { Figures.all }
    var parameters: [Parameter] { Parameters.all }
    func useCases(of workload: String) -> [UseCase] { [.ycsb] }
    func workload(definedBy file: String) throws -> Workload? { try YCSBWorkloads.workload(file: file) }

    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        placement == .section ? view.ycsb() : ""
    }
}

import StoreBenchKit

extension WorkloadCategory {
    /// Several threads at once (`concurrency.*`).
    public static let concurrency = WorkloadCategory("concurrency")
}

extension UseCase {
    public static let concurrent = UseCase(
        "concurrent", "Concurrent reads and writes (reader threads, paced readers beside a writer, a long reader)", rank: 50)
}

/// Several threads on one store: readers scaling, paced readers beside a writer, a long reader
/// during a write burst, observers on other threads.
struct ConcurrencySuite: WorkloadSuite {
    /// The figures its workloads report.
    enum Figures {
        static let threads = Figure("threads", .count, better: .neither)
        static let writerLate = Figure("writer late", .count)
        static let readLate = Figure("read late", .count)
        static let storeGrowth = Figure("store growth bytes", .bytes)
        static let walBytes = Figure("wal bytes", .bytes)
        static let walBytesBefore = Figure("wal bytes before", .bytes)
        static let walBytesAfterRecovery = Figure("wal bytes after recovery", .bytes)
        static let baselineCommitP50 = Figure("baseline commit p50 ns", .nanoseconds)
        static let recovery = Figure("recovery ms", .milliseconds)
        static let slowCommitsAfter = Figure("slow commits after", .count)
        static let firstCommitAfter = Figure("first commit after ns", .nanoseconds)
        static let observers = Figure("observers", .count, better: .neither)
        static let results = Figure("results", .count, better: .neither)
        static let notifyP50 = Figure("notify p50 ns", .nanoseconds)
        static let notifyP99 = Figure("notify p99 ns", .nanoseconds)
        /// `read p50 ns`, `writer p99.9 ns` and so on: a percentile of one side's latency.
        static func percentile(_ side: String, _ p: String) -> Figure { LatencyFigures.percentile(side, p) }
        static let percentiles = LatencyFigures.percentiles
        static var all: [Figure] {
            [threads, writerLate, readLate, storeGrowth, walBytes, walBytesBefore, walBytesAfterRecovery, baselineCommitP50,
             recovery, slowCommitsAfter, firstCommitAfter, observers, results, notifyP50, notifyP99]
                + LatencyFigures.all
        }
    }

    /// The parameters its workloads record.
    enum Parameters {
        static let threads = Parameter("threads", "threads reading (or observing) at once")
        static let readsPerThread = Parameter("reads per thread", "reads each thread issues in a repetition")
        static let readIntervalNanos = Parameter("read interval ns", "a paced reader's interval")
        static let commitIntervalNanos = Parameter("commit interval ns", "the paced writer's interval")
        static let commits = Parameter("commits", "commits in a repetition")
        static let burstCommits = Parameter("burst commits", "commits while the long reader holds its snapshot")
        static let afterCommits = Parameter("after commits", "commits after the long reader ends")
        static let resultsSize = Parameter("results", "records each observer watches")
        static var all: [Parameter] { [threads, readsPerThread, readIntervalNanos, commitIntervalNanos, commits, burstCommits, afterCommits, resultsSize] }
    }

    var category: WorkloadCategory { .concurrency }
    var title: String { "Concurrency" }
    var workloads: [Workload] { ConcurrencyWorkloads.all }
    var figures: [Figure] { Figures.all }
    var parameters: [Parameter] { Parameters.all }

    func useCases(of workload: String) -> [UseCase] {
        workload.hasPrefix("concurrency.observe") ? [] : [.concurrent]
    }

    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        placement == .section ? view.concurrency() : ""
    }
}

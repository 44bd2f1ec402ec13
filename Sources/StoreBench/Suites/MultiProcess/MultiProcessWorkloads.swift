import Foundation
import Histogram
import StoreCore
import StoreBenchKit

/// Several processes on one store (category `multiprocess`): an app beside its extension, a
/// CLI beside a daemon. Each process opens the store itself (`storebench peer`), so they share
/// it only through the engine's files and locks, as such apps do; the cell's own process holds
/// it open too. Reads and writes are those of the concurrency suite: a random post by key in its
/// own read transaction, two attributes of a random post in its own write transaction. Every
/// process times each of its operations; their histograms merge exactly.
enum MultiProcessWorkloads {
    static var all: [Workload] {
        ([1, 2, 4].map(reads) + [2, 4].map(readsBesideWriter) + [1, 2, 4].map(writes)).map { $0.with { $0.countsAllocations = false } }
    }

    /// Commits of each process of `multiprocess.write.*`.
    static let commitsPerWriter = 100

    /// Reads per reader process in a repetition.
    static let readsPerProcess = 4_000
    /// Commits of the writer process in a repetition.
    static let commits = 200

    static func reads(_ processes: Int) -> Workload {
        .define(name("read", processes), .multiprocess,
                "\(processes) reader process\(processes == 1 ? "" : "es"), each opening the store itself, \(readsPerProcess) random posts by key each at full speed, one read transaction per read; time per operation is 1 ÷ the throughput of all together",
                requires: .multiProcess, maxRounds: 3, largestScaleOnly: true, inQuickProfile: processes != 2,
                setup: { ctx in
                    ctx.record(MultiProcessSuite.Parameters.processes, processes)
                    ctx.record(MultiProcessSuite.Parameters.readsPerProcess, readsPerProcess)
                    return try alike(ctx, .reader, processes, each: readsPerProcess)
                },
                body: { _, input, timer in try throughput(input.0.run(input.1), processes: processes, side: "read", timer: timer) })
    }

    static func readsBesideWriter(_ processes: Int) -> Workload {
        .define(name("read-under-write", processes), .multiprocess,
                "1 writer process committing \(commits) small updates at full speed and \(processes - 1) reader process\(processes == 2 ? "" : "es") reading random posts by key until it is done, each process with the store opened itself; time per operation is the readers' mean read latency, the writer's in `writer p…` figures",
                mutatesStore: true, requires: .multiProcess, maxRounds: 2, largestScaleOnly: true, inQuickProfile: processes == 4,
                setup: { ctx in
                    ctx.record(MultiProcessSuite.Parameters.processes, processes)
                    ctx.record(MultiProcessSuite.Parameters.commits, commits)
                    let gang = try gang(ctx)
                    let writes = ctx.randomKeys(ctx.scaledForWarmUp(commits), upTo: ctx.generator.posts)
                    let reads = ctx.postKeysPerThread(processes - 1, each: readsPerProcess)
                    return (gang, [gang.task(0, .writer, keys: writes, stopFile: true)]
                                + reads.enumerated().map { gang.task($0 + 1, .reader, keys: $1, stopFile: true) })
                },
                body: { _, input, timer in try readBesideWriter(input.0.run(input.1), processes: processes, timer: timer) })
    }

    static func writes(_ processes: Int) -> Workload {
        .define(name("write", processes), .multiprocess,
                "\(processes) writer process\(processes == 1 ? "" : "es"), each opening the store itself and committing \(commitsPerWriter) small updates of random posts at full speed, one write transaction each; the engine serializes them across processes; time per operation is 1 ÷ the commits per second of all together",
                mutatesStore: true, requires: .multiProcess, maxRounds: 2, largestScaleOnly: true, inQuickProfile: false,
                setup: { ctx in
                    ctx.record(MultiProcessSuite.Parameters.processes, processes)
                    ctx.record(MultiProcessSuite.Parameters.commits, commitsPerWriter)
                    return try alike(ctx, .writer, processes, each: commitsPerWriter)
                },
                body: { _, input, timer in try throughput(input.0.run(input.1), processes: processes, side: "writer", timer: timer) })
    }

    /// All processes' operations over the wall time from the first start to the last end (time
    /// per operation = 1 ÷ their throughput together), their latencies merged, and the
    /// percentiles as `<side> p…` figures.
    static func throughput(_ results: [PeerResult], processes: Int, side: String, timer: OperationTimer) -> Int {
        let m = results.merged
        timer.record(total: m.wall, operations: m.operations, latencies: m.latency)
        LatencyFigures.report(m.latency, as: side, to: timer)
        timer.report(MultiProcessSuite.Figures.processes, Double(processes))
        return m.sink &+ m.operations
    }

    /// The readers' latencies as the cell's, the writer's as `writer p…` figures.
    static func readBesideWriter(_ results: [PeerResult], processes: Int, timer: OperationTimer) -> Int {
        let readers = Array(results.dropFirst()).merged, writer = results[0]
        timer.record(total: LatencyFigures.sum(readers.latency), operations: readers.operations, latencies: readers.latency)
        LatencyFigures.report(readers.latency, as: "read", to: timer)
        LatencyFigures.report(writer.latency, as: "writer", to: timer)
        timer.report(MultiProcessSuite.Figures.processes, Double(processes))
        timer.report(MultiProcessSuite.Figures.commitsPerSecond, Double(writer.operations) * 1e9 / Double(max(1, writer.ended &- writer.started)))
        return readers.sink &+ writer.operations
    }

    /// `multiprocess.<kind>.<n>-process(es)`.
    static func name(_ kind: String, _ processes: Int) -> String { "multiprocess.\(kind).\(processes)-process\(processes == 1 ? "" : "es")" }

    /// `processes` processes of one role, each with its own `each` random post keys.
    private static func alike(_ ctx: WorkloadContext, _ role: PeerTask.Role, _ processes: Int, each: Int) throws -> (PeerGang, [PeerTask]) {
        let gang = try gang(ctx)
        return (gang, ctx.postKeysPerThread(processes, each: each).enumerated().map { gang.task($0, role, keys: $1, stopFile: false) })
    }

    private static func gang(_ ctx: WorkloadContext) throws -> PeerGang {
        guard let launcher = ctx.peers else {
            throw BenchError("\(ctx.workload) starts processes of the storebench executable on the store; this run has none to start "
                             + "(a run inside the runner's own process, or a floor)")
        }
        return PeerGang(launcher: launcher)
    }
}

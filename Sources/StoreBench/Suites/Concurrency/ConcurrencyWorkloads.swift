import Foundation
import Histogram
import StoreCore
import StoreBenchKit

/// Several threads on one store (category `concurrency`): how read throughput scales with
/// reader threads, what a paced writer does to readers' latency and readers to the writer's,
/// what a long-lived reader costs the writer and the file (see `+LongReader`), and how fast
/// observers on other threads hear of a commit (see `+Observation`).
///
/// Reads fetch a random post by primary key and touch every field, one read transaction each;
/// writes change two attributes of a random post, one write transaction each (the same
/// operations as `crud.read-pk.single` and `crud.update.single`). Paced operations are due on a
/// fixed schedule and their latency counts from the due time (`PacedLoop`), so a thread
/// stalled behind a writer or a checkpoint shows the delay it caused. Object graphs run
/// through their `Repository` face: each transaction gets its own context on its thread.
/// No floors: the bare loops are single-threaded.
enum ConcurrencyWorkloads {
    static var all: [Workload] {
        [1, 2, 4, 8].map(readScaling) + [readersPaced, readersBesideWriter, writerPaced, longReader] + observation
    }

    /// Reads per thread in a scaling repetition.
    static let readsPerThread = 4_000
    /// Paced readers beside the writer (LMDB's author's benchmark shape: 4 readers, 1 writer).
    static let pacedReaders = 4
    /// Each paced reader's interval: 1,000 reads per second, for one second.
    static let readInterval: UInt64 = 1_000_000
    static let readsPerReader = 1_000
    /// The paced writer's interval: 200 commits per second, for one second.
    static let commitInterval: UInt64 = 5_000_000
    static let commits = 200

    // MARK: Workloads

    static func readScaling(_ threads: Int) -> Workload {
        .define("concurrency.read.\(threads)-threads", .concurrency,
                "\(threads) reader thread\(threads == 1 ? "" : "s") at full speed, no writer: \(readsPerThread) random posts by key each, one read transaction per read; time per operation is 1 ÷ total throughput",
                maxRounds: 3, largestScaleOnly: true, inQuickProfile: threads == 1 || threads == 4,
                setup: { ctx in
                    ctx.record(ConcurrencySuite.Parameters.threads, threads)
                    ctx.record(ConcurrencySuite.Parameters.readsPerThread, readsPerThread)
                    return ctx.postKeysPerThread(threads, each: readsPerThread)
                },
                body: { repo, keys, timer in try readOnThreads(keys, timer) { try readPost(repo, $0) } },
                floor: { floor, keys, timer in
                    guard let reads = floor as? ConcurrentReads else { throw BenchError("a \(floor.engine) program without concurrent reads") }
                    nonisolated(unsafe) let pool = reads  // its one call is safe from several threads (`ConcurrentReads`)
                    return try readOnThreads(keys, timer) { try pool.readPostConcurrently($0) }
                })
            .with { $0.namedProgramsOnly = true }
    }

    /// Each thread reads its keys through `read` at full speed; one operation per read.
    static func readOnThreads(_ keys: [[Int64]], _ timer: OperationTimer, _ read: @escaping @Sendable (Int64) throws -> Int) throws -> Int {
        let reads = ThreadResults()
        let minimumSpan = timer.minimumSpan
        let wall = try ThreadGang.run(threads: keys.count) { i in
            let t = OperationTimer(minimumSpan: minimumSpan)
            var sink = 0
            t.markProgress(expecting: keys[i].count)
            try t.each(keys[i].count) { k in sink &+= try read(keys[i][k]) }
            reads.add(t.histogram, operations: t.operations, sink: sink, marks: t.marks)
        }
        timer.record(total: wall, operations: reads.operations, latencies: reads.histogram)
        timer.record(intervals: Intervals.throughput(reads.marks))
        timer.report(ConcurrencySuite.Figures.threads, Double(keys.count))
        return reads.sink
    }

    static var readersPaced: Workload {
        .define("concurrency.read-paced.\(pacedReaders)-threads", .concurrency,
                "\(pacedReaders) reader threads, each reading a random post every \(readInterval / 1_000_000) ms, no writer; latency from each read's due time",
                maxRounds: 2, largestScaleOnly: true, inQuickProfile: false,
                setup: { ctx in
                    recordPace(ctx, readers: true, writer: false)
                    return ctx.postKeysPerThread(pacedReaders, each: readsPerReader)
                },
                body: { repo, keys, timer in try pacedMix(repo, readerKeys: keys, writerKeys: [], timer: timer) })
    }

    static var readersBesideWriter: Workload {
        .define("concurrency.read-under-write.\(pacedReaders)-threads", .concurrency,
                "The same \(pacedReaders) paced readers beside a writer committing a small update every \(commitInterval / 1_000_000) ms; read latency from due times, the writer's in `writer p…` figures",
                mutatesStore: true, maxRounds: 2, largestScaleOnly: true,
                setup: { ctx in
                    recordPace(ctx, readers: true, writer: true)
                    return (ctx.postKeysPerThread(pacedReaders, each: readsPerReader),
                     ctx.randomKeys(ctx.scaledForWarmUp(commits), upTo: ctx.generator.posts).reversed().map { $0 })
                },
                body: { repo, input, timer in try pacedMix(repo, readerKeys: input.0, writerKeys: input.1, timer: timer) })
    }

    static var writerPaced: Workload {
        .define("concurrency.write-paced", .concurrency,
                "The writer alone, committing a small update every \(commitInterval / 1_000_000) ms; latency from each commit's due time",
                mutatesStore: true, maxRounds: 2, largestScaleOnly: true, inQuickProfile: false,
                setup: { ctx in
                    recordPace(ctx, readers: false, writer: true)
                    return ctx.randomKeys(ctx.scaledForWarmUp(commits), upTo: ctx.generator.posts).reversed().map { $0 }
                },
                body: { repo, keys, timer in try pacedMix(repo, readerKeys: [], writerKeys: keys, timer: timer) })
    }

    // MARK: Shared pieces

    /// Records the paced readers' and writer's settings.
    static func recordPace(_ ctx: WorkloadContext, readers: Bool, writer: Bool) {
        typealias P = ConcurrencySuite.Parameters
        if readers {
            ctx.record(P.threads, pacedReaders)
            ctx.record(P.readsPerThread, readsPerReader)
            ctx.record(P.readIntervalNanos, readInterval)
        }
        if writer {
            ctx.record(P.commits, commits)
            ctx.record(P.commitIntervalNanos, commitInterval)
        }
    }

    /// Reads post `k` in its own read transaction and touches every field.
    static func readPost(_ repo: any Repository, _ k: Int64) throws -> Int { try repo.readByKey("Post", k) }

    /// Changes two attributes of post `k` in its own write transaction.
    static func updatePost(_ repo: any Repository, _ k: Int64, _ n: Int) throws {
        try repo.write { tx in try tx.update("Post", id: .int64(k), set: ["score": .int64(Int64(n % 997)), "title": .string("paced \(n)")]) }
    }

    /// Paced readers on threads (one per key list) and, when `writerKeys` is not empty, a
    /// paced writer on the calling thread. The timer gets the readers' latencies when there
    /// are readers (time per operation = their mean latency from due time), else the writer's;
    /// the writer's percentiles are reported as `writer p50/p99/p99.9 ns` either way. The
    /// intervals are the same mean over each 20th of the schedule (every reader's slices summed).
    static func pacedMix(_ repo: any Repository, readerKeys: [[Int64]], writerKeys: [Int64], timer: OperationTimer) throws -> Int {
        let reads = ThreadResults()
        var writer = PacedLoop(interval: commitInterval)
        _ = try ThreadGang.run(threads: readerKeys.count, { i in
            var loop = PacedLoop(interval: readInterval)
            var sink = 0
            var n = 0
            try loop.run(operations: readerKeys[i].count) {
                sink &+= try readPost(repo, readerKeys[i][n])
                n += 1
            }
            reads.add(loop.latency, operations: n, sink: sink, late: loop.late, slices: loop.latencySlices)
        }, alongside: {
            var n = 0
            try writer.run(operations: writerKeys.count) {
                try updatePost(repo, writerKeys[n], n)
                n += 1
            }
        })
        if !writerKeys.isEmpty {
            LatencyFigures.report(writer.latency, as: "writer", to: timer)
            timer.report(ConcurrencySuite.Figures.writerLate, Double(writer.late))
        }
        if readerKeys.isEmpty {
            timer.record(total: LatencyFigures.sum(writer.latency), operations: writerKeys.count, latencies: writer.latency)
            timer.record(intervals: writer.latencySlices.means)
        } else {
            timer.record(total: LatencyFigures.sum(reads.histogram), operations: reads.operations, latencies: reads.histogram)
            timer.record(intervals: reads.slices?.means ?? [])
            LatencyFigures.report(reads.histogram, as: "read", to: timer)
            timer.report(ConcurrencySuite.Figures.readLate, Double(reads.late))
        }
        return reads.sink
    }

}

/// What the threads of one repetition measured, gathered under a lock (internal).
final class ThreadResults: @unchecked Sendable {
    // @unchecked: every field is touched with `lock` held.
    private let lock = NSLock()
    private var _histogram = OperationTimer.emptyHistogram()
    private var _operations = 0
    private var _sink = 0
    private var _late = 0
    private var _marks: [ProgressMarks] = []
    private var _slices: SliceSums?

    func add(_ h: Histogram<UInt64>, operations: Int, sink: Int = 0, late: Int = 0,
             marks: ProgressMarks? = nil, slices: SliceSums? = nil) {
        lock.withLock {
            _histogram.add(h)
            _operations += operations
            _sink &+= sink
            _late += late
            if let marks { _marks.append(marks) }
            if let slices {
                if _slices == nil { _slices = slices } else { _slices!.merge(slices) }
            }
        }
    }

    var histogram: Histogram<UInt64> { lock.withLock { _histogram } }
    var operations: Int { lock.withLock { _operations } }
    var sink: Int { lock.withLock { _sink } }
    var late: Int { lock.withLock { _late } }
    /// Each thread's progress marks (throughput intervals), and the paced threads' slices summed.
    var marks: [ProgressMarks] { lock.withLock { _marks } }
    var slices: SliceSums? { lock.withLock { _slices } }
}

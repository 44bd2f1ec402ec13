import Foundation
import Histogram
import StoreCore
import StoreBenchKit

extension ConcurrencyWorkloads {
    /// Commits before the reader starts, whose median is the steady state.
    static let baselineCommits = 100
    /// Commits while the reader holds its snapshot.
    static let burstCommits = 1_000
    /// Commits after the reader ends, in which the writer pays what the reader held back.
    static let afterCommits = 200

    /// A reader holds one snapshot open while the writer commits a burst: SQLite cannot
    /// checkpoint past the reader's snapshot, so the WAL grows; LMDB cannot reuse the pages
    /// the reader may see, so the data file grows. The timer gets the burst's commit times (its
    /// intervals from progress marks); the figures beside them are the file growth, the WAL's
    /// size, and how long after the reader ends the commits need to get back to the steady state.
    static var longReader: Workload {
        .define("concurrency.long-reader", .concurrency,
                "A reader holds one snapshot while the writer commits \(burstCommits) small updates, one write transaction each; figures: store growth, WAL bytes, time until commits are back to their steady time after the reader ends",
                mutatesStore: true, maxRounds: 2, largestScaleOnly: true, inQuickProfile: false,
                setup: { ctx in
                    ctx.record(ConcurrencySuite.Parameters.burstCommits, burstCommits)
                    ctx.record(ConcurrencySuite.Parameters.afterCommits, afterCommits)
                    return LongReaderState(directory: ctx.storeDirectory,
                                           keys: ctx.randomKeys(baselineCommits + burstCommits + afterCommits, upTo: ctx.generator.posts))
                },
                body: { repo, s, timer in try runLongReader(repo, s, timer) })
    }

    struct LongReaderState: Sendable {
        let directory: URL
        let keys: [Int64]
    }

    private static func runLongReader(_ repo: any Repository, _ s: LongReaderState, _ timer: OperationTimer) throws -> Int {
        var next = 0
        func commit() throws -> UInt64 {
            let start = MonotonicClock.now()
            try updatePost(repo, s.keys[next], next)
            next += 1
            return MonotonicClock.now() &- start
        }
        var baseline = OperationTimer.emptyHistogram()
        for _ in 0..<baselineCommits { baseline.record(try commit()) }
        let steady = Double(baseline.valueAtPercentile(50))

        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var recovery: (nanos: UInt64, slow: Int, first: UInt64) = (0, 0, 0)
        _ = try ThreadGang.run(threads: 1, { _ in
            defer { holding.signal() }   // also when the read fails, so the writer does not wait
            try repo.read { tx in
                _ = try tx.fetch("Post", id: .int64(1))
                holding.signal()
                guard release.wait(timeout: .now() + 600) == .success else { throw BenchError("the long reader was never released") }
            }
        }, alongside: {
            var released = false
            defer { if !released { release.signal() } }
            guard holding.wait(timeout: .now() + 60) == .success else { throw BenchError("the long reader did not start within 60 s") }
            let before = StoreFiles(s.directory)
            timer.markProgress(expecting: burstCommits)
            try timer.each(burstCommits) { _ in _ = try commit() }
            let after = StoreFiles(s.directory)
            timer.report(ConcurrencySuite.Figures.storeGrowth, Double(after.allocated) - Double(before.allocated))
            timer.report(ConcurrencySuite.Figures.walBytes, Double(after.wal))
            timer.report(ConcurrencySuite.Figures.walBytesBefore, Double(before.wal))
            timer.report(ConcurrencySuite.Figures.baselineCommitP50, steady)
            release.signal()
            released = true
            recovery = try recover(steady: steady, commit: commit)
        })
        timer.report(ConcurrencySuite.Figures.recovery, Double(recovery.nanos) / 1e6)
        timer.report(ConcurrencySuite.Figures.slowCommitsAfter, Double(recovery.slow))
        timer.report(ConcurrencySuite.Figures.firstCommitAfter, Double(recovery.first))
        timer.report(ConcurrencySuite.Figures.walBytesAfterRecovery, Double(StoreFiles(s.directory).wal))
        return next
    }

    /// Runs `afterCommits` commits after the reader ended. A commit slower than twice the
    /// steady median is the writer still paying for the reader (SQLite's checkpoint of the
    /// grown WAL); the recovery time runs from the reader's end to the end of the last such
    /// commit, 0 when none was slow.
    private static func recover(steady: Double, commit: () throws -> UInt64) throws -> (nanos: UInt64, slow: Int, first: UInt64) {
        let start = MonotonicClock.now()
        var recoveredAt = start
        var slow = 0
        var first: UInt64 = 0
        for i in 0..<afterCommits {
            let t = try commit()
            if i == 0 { first = t }
            if Double(t) > 2 * steady {
                slow += 1
                recoveredAt = MonotonicClock.now()
            }
        }
        return (recoveredAt &- start, slow, first)
    }
}

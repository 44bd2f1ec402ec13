import Foundation
import Histogram
import StoreCore
import StoreBenchKit

extension ConcurrencyWorkloads {
    /// Observed result sizes and observer counts.
    static let observedSizes = [100, 10_000]
    static let observerCounts = [0, 1, 10]
    /// The writer's pace while observers watch: 50 commits per second, for one second.
    static let observedCommitInterval: UInt64 = 20_000_000
    static let observedCommits = 50
    /// An observer that hears nothing for this long fails the cell.
    static let observerPatience = 30.0

    static var observation: [Workload] {
        observedSizes.flatMap { size in observerCounts.map { observe(size: size, observers: $0) } }
    }

    /// `observers` threads each watch the first `size` comments (by id) while the writer, on
    /// the calling thread, changes one of them per commit at a fixed pace, writing its commit
    /// number into the text. The timer gets the writer's commit times (its cost per commit
    /// with that many observers; intervals: their mean over each slice of the commits);
    /// `notify p50/p99 ns` are the times from each commit's return to an observer's handling of
    /// the change set that holds it (each observer reads the changed records' text to know
    /// which commits it heard of), over every observer.
    static func observe(size: Int, observers: Int) -> Workload {
        .define("concurrency.observe.\(size)-results.\(observers)-observers", .concurrency,
                "\(observers) observer thread\(observers == 1 ? "" : "s") watch\(observers == 1 ? "es" : "") \(size) comments while another thread commits a change to one of them every \(observedCommitInterval / 1_000_000) ms; time per operation is the writer's commit, `notify` figures the commit-to-notification latency",
                mutatesStore: true, requires: .observation, maxRounds: 2, largestScaleOnly: true,
                inQuickProfile: size == 100 && observers <= 1,
                setup: { ctx in
                    let n = min(size, ctx.generator.comments)
                    ctx.record(ConcurrencySuite.Parameters.threads, observers)
                    ctx.record(ConcurrencySuite.Parameters.resultsSize, n)
                    ctx.record(ConcurrencySuite.Parameters.commits, observedCommits)
                    ctx.record(ConcurrencySuite.Parameters.commitIntervalNanos, observedCommitInterval)
                    var r = ctx.random()
                    return ObservedState(size: n, observers: observers, targets: (0..<ctx.scaledForWarmUp(observedCommits)).map { _ in Int64(r.below(n) + 1) })
                },
                body: { repo, s, timer in try runObservation(repo, s, timer) })
    }

    struct ObservedState: Sendable {
        let size: Int
        let observers: Int
        /// The comment each commit changes.
        let targets: [Int64]
    }

    private static func runObservation(_ repo: any Repository, _ s: ObservedState, _ timer: OperationTimer) throws -> Int {
        guard let observable = repo as? any ObservingRepository else {
            throw BenchError("this backend does not offer observation (ObservingRepository); the runner skips it")
        }
        let commits = s.targets.count
        let committedAt = CommitTimes(commits)
        let notified = ThreadResults()
        let ready = DispatchSemaphore(value: 0)
        let query = try Query("Comment", format: "id <= %@", .value(.int64(Int64(s.size))), sort: [.asc("id")])
        var writer = PacedLoop(interval: observedCommitInterval)
        _ = try ThreadGang.run(threads: s.observers, { _ in
            let watched: any ResultsObservation
            do {
                watched = try observable.observeResults(query)
            } catch {
                ready.signal()
                throw error
            }
            defer { watched.cancel() }
            ready.signal()
            var latencies = OperationTimer.emptyHistogram()
            var heard = -1
            while heard < commits - 1 {
                guard let change = try watched.waitForChange(timeout: observerPatience) else {
                    throw BenchError("an observer heard nothing for \(Int(observerPatience)) s after commit \(heard) of \(commits)")
                }
                let now = MonotonicClock.now()
                var newest = heard
                for i in change.modificationsInNew {
                    if case .string(let text) = try watched.value("text", at: i), text.hasPrefix("commit "), let n = Int(text.dropFirst(7)) {
                        newest = max(newest, n)
                    }
                }
                guard newest > heard else { continue }
                for n in (heard + 1)...newest { latencies.record(max(1, now &- min(now, committedAt[n] ?? now))) }
                heard = newest
            }
            notified.add(latencies, operations: commits)
        }, alongside: {
            for _ in 0..<s.observers { ready.wait() }
            var n = 0
            try writer.run(operations: commits) {
                try repo.write { tx in try tx.update("Comment", id: .int64(s.targets[n]), set: ["text": .string("commit \(n)")]) }
                committedAt.set(n, MonotonicClock.now())
                n += 1
            }
        })
        timer.record(total: LatencyFigures.sum(writer.service), operations: commits, latencies: writer.service)
        timer.record(intervals: writer.serviceSlices.means)
        timer.report(ConcurrencySuite.Figures.observers, Double(s.observers))
        timer.report(ConcurrencySuite.Figures.results, Double(s.size))
        if s.observers > 0 {
            let h = notified.histogram
            timer.report(ConcurrencySuite.Figures.notifyP50, Double(h.valueAtPercentile(50)))
            timer.report(ConcurrencySuite.Figures.notifyP99, Double(h.valueAtPercentile(99)))
        }
        return commits
    }
}

/// When each commit returned, by commit number, written by the writer and read by observers
/// (internal). A commit an observer hears of before its time is written counts as 0 ns.
final class CommitTimes: @unchecked Sendable {
    // @unchecked: `times` is only touched with `lock` held.
    private let lock = NSLock()
    private var times: [UInt64?]
    init(_ n: Int) { times = Array(repeating: nil, count: n) }
    func set(_ i: Int, _ t: UInt64) { lock.withLock { times[i] = t } }
    subscript(i: Int) -> UInt64? { lock.withLock { times[i] } }
}

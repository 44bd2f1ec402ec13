import Foundation
import StoreCore
import StoreBenchKit

/// The storage lifecycle: what no per-operation cell shows. How long opening an existing store
/// blocks a launch (cold: the store's pages evicted from the page cache first; warm: all of
/// them cached), and what happens to the files as data churns: their size after the load,
/// after half the posts are deleted and the other half rewritten larger and as many new ones
/// inserted, and after compaction (where the backend has `BackendDescriptor.compact`), with
/// the compaction's time and peak disk use. No floors: opening and compacting are the
/// engines' own operations, and the backends are compared with one another.
enum LifecycleWorkloads {
    static var all: [Workload] { [open(cold: true), open(cold: false), churn] }

    /// What an app shows first at launch: the 20 newest posts.
    static let firstQuery = Query("Post", sort: [.desc("createdAt")], limit: 20)
    /// Writes per transaction while churning.
    static let churnBatch = 1_000

    private struct Opener: @unchecked Sendable {
        // @unchecked: used by the thread running the cell only.
        let reopen: (Schema, MigrationPlan) throws -> any Repository
        let directory: URL
    }

    static func open(cold: Bool) -> Workload {
        let summary = cold
            ? "Open the closed store with its pages evicted from the page cache (fadvise DONTNEED), then fetch the 20 newest posts; one operation is open + first result"
            : "Open the closed store with all its pages cached, then fetch the 20 newest posts; one operation is open + first result"
        return .define("lifecycle.open.\(cold ? "cold" : "warm")", .lifecycle, summary,
                       mutatesStore: true,  // each repetition opens a fresh copy, written and closed just before
                       setup: { ctx in
                           guard let reopen = ctx.reopen else { throw BenchError("lifecycle workloads run on backends only") }
                           return Opener(reopen: reopen, directory: ctx.storeDirectory)
                       },
                       body: { repo, s, timer in
                           try repo.close()
                           if cold {
                               timer.report(LifecycleSuite.Figures.cachedAfterDrop, PageCache.drop(s.directory) * 100)
                           } else {
                               PageCache.warm(s.directory)
                           }
                           timer.markProgress(expecting: 1)  // its one interval: this repetition's open
                           let (store, rows, opened, answered) = try timer.unit(operations: 1) { () -> (any Repository, [Record], UInt64, UInt64) in
                               let start = MonotonicClock.now()
                               let store = try s.reopen(BenchSchema.schema, MigrationPlan([]))
                               let opened = MonotonicClock.now()
                               let rows = try store.read { try $0.fetch(firstQuery) }
                               return (store, rows, opened &- start, MonotonicClock.now() &- opened)
                           }
                           try store.close()
                           guard !rows.isEmpty else { throw BenchError("the first query found no posts") }
                           timer.report(LifecycleSuite.Figures.open, Double(opened))
                           timer.report(LifecycleSuite.Figures.firstResult, Double(answered))
                           return Touch.records(rows)
                       })
    }

    private struct Churn: @unchecked Sendable {
        // @unchecked: used by the thread running the cell only.
        let reopen: (Schema, MigrationPlan) throws -> any Repository
        let compact: (() throws -> Void)?
        let directory: URL
        let deletes: [Int64]
        let updates: [(Int64, String)]
        let inserts: [Record]
        let postsAfter: Int
    }

    static var churn: Workload {
        .define("lifecycle.churn", .lifecycle,
                "Delete every second post (their comments go with them), rewrite the body of every other post at twice its length, insert as many new posts, \(churnBatch) per transaction; then close, compact, reopen. Reports the store's size after the load, the churn and the compaction, and the compaction's time and peak disk use",
                mutatesStore: true, maxRounds: 3,
                setup: { ctx in
                    guard let reopen = ctx.reopen else { throw BenchError("lifecycle workloads run on backends only") }
                    ctx.record(LifecycleSuite.Parameters.churnBatch, churnBatch)
                    let g = ctx.generator
                    let posts = Int64(ctx.scaledForWarmUp(g.posts))
                    let deletes = Array(stride(from: Int64(1), through: posts, by: 2))
                    let updates = stride(from: Int64(2), through: posts, by: 2).map { id in
                        let body = g.post(id).record.values[2].stringValue ?? ""
                        return (id, body + body)
                    }
                    let inserts = (0..<deletes.count).map { g.post(Int64(g.posts) + 1 + Int64($0)).record }
                    return Churn(reopen: reopen, compact: ctx.compact, directory: ctx.storeDirectory,
                                 deletes: deletes, updates: updates, inserts: inserts, postsAfter: g.posts)
                },
                body: { given, s, timer in
                    // Sizes are of the closed store, files at rest (no WAL or lock state of an open one).
                    try given.close()
                    timer.report(LifecycleSuite.Figures.sizeLoad, Double(StoreFiles(s.directory).apparent))
                    let repo = try s.reopen(BenchSchema.schema, MigrationPlan([]))
                    defer { try? repo.close() }
                    // Each phase marks its own progress, inside the transactions too (a tiny scale
                    // has one per phase), each commit shared by its writes: each interval holds a
                    // share of all three phases.
                    func phase<T>(_ name: String, _ items: [T], _ write: @escaping (any WriteTransaction, T) throws -> Void) throws {
                        timer.markProgress(expecting: items.count)
                        let start = MonotonicClock.now()
                        for first in stride(from: 0, to: items.count, by: churnBatch) {
                            let part = items[first..<min(items.count, first + churnBatch)]
                            try timer.unit(operations: part.count, steps: { step in
                                try repo.write { tx in
                                    for (k, item) in part.enumerated() {
                                        try write(tx, item)
                                        step(k + 1)
                                    }
                                }
                            })
                        }
                        timer.report(LifecycleSuite.Figures.phase(name), Double(MonotonicClock.now() &- start) / Double(max(1, items.count)))
                    }
                    try phase("delete", s.deletes) { tx, id in try tx.delete("Post", id: .int64(id)) }
                    try phase("update", s.updates) { tx, u in try tx.update("Post", id: .int64(u.0), set: ["body": .string(u.1)]) }
                    try phase("insert", s.inserts) { tx, r in try tx.insert(r) }
                    try repo.close()
                    timer.report(LifecycleSuite.Figures.sizeChurn, Double(StoreFiles(s.directory).apparent))
                    if let compact = s.compact {
                        let sampler = PeakSizeSampler(s.directory)
                        defer { _ = sampler.stop() }
                        let start = MonotonicClock.now()
                        try compact()
                        let took = MonotonicClock.now() &- start
                        timer.report(LifecycleSuite.Figures.compact, Double(took))
                        timer.report(LifecycleSuite.Figures.compactPeak, Double(sampler.stop()))
                        timer.report(LifecycleSuite.Figures.sizeCompact, Double(StoreFiles(s.directory).apparent))
                    }
                    // Nothing lost: the store opens and holds every post it should.
                    let store = try s.reopen(BenchSchema.schema, MigrationPlan([]))
                    defer { try? store.close() }
                    let n = try store.read { try $0.count(Query("Post")) }
                    guard n == s.postsAfter else { throw BenchError("lifecycle.churn: \(n) posts after churn and compaction, expected \(s.postsAfter)") }
                    return n
                })
    }
}

/// Samples the apparent size of a directory's files every 2 ms on its own thread, from
/// creation to `stop()`, and keeps the largest (internal). A sample lists a few files: tens
/// of microseconds every 2 ms, on the other core of a two-core machine.
final class PeakSizeSampler: @unchecked Sendable {
    // @unchecked: `state` is guarded by its lock; `thread` is set once.
    private let state = Locked((stop: false, peak: UInt64(0)))
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    init(_ directory: URL) {
        let first = StoreFiles(directory).apparent
        state.withLock { $0.peak = first }
        let t = Thread { [state, done] in
            while !state.withLock({ $0.stop }) {
                let size = StoreFiles(directory).apparent
                state.withLock { $0.peak = max($0.peak, size) }
                usleep(2_000)
            }
            done.signal()
        }
        thread = t
        t.start()
    }

    /// Stops sampling (once; later calls return at once) and returns the peak.
    func stop() -> UInt64 {
        let first = state.withLock { s -> Bool in
            defer { s.stop = true }
            return !s.stop
        }
        if first { done.wait() }
        return state.withLock { $0.peak }
    }
}

import Foundation
import SQLiteStore
@testable import StoreBench
import StoreConformance
import StoreCore
import Testing

/// Interval samples (issue 32): the cells that run two or three rounds record their headline
/// over consecutive intervals of each repetition, on the headline's own scale; threads' marks
/// merge into aggregate throughput; paced loops slice their latencies; rounds concatenate.
@Suite("Interval samples", .serialized)
struct IntervalSampleTests {
    /// Runs `name`'s cell in this process on SQLite at the tiny scale (after the social load,
    /// whose store it copies), with one warm-up and `repetitions` measured repetitions.
    static func cell(_ name: String, in dir: URL, repetitions: Int = 1) throws -> CellResult {
        let w = try #require(WorkloadRegistry.named(name))
        var r = CellResult(target: .backend("sqlite"), engine: "sqlite", workload: name, category: w.category, scale: "tiny", status: .ok)
        let names: [String] = w.dataset == DatasetKind.social ? [MemoryWorkloads.loadName, name] : [name]
        for (i, n) in names.enumerated() {
            let spec = CellSpec(target: .backend("sqlite"), workload: n, scale: "tiny", fixtures: Bench.fixtures.path,
                                template: dir.appendingPathComponent("template-social").path,
                                work: dir.appendingPathComponent("cell-\(name)-\(i)").path, repetitions: repetitions, warmup: 1,
                                durability: .relaxed, minimumSpan: 1_000, outcome: dir.appendingPathComponent("outcome.json").path)
            let outcome = try CellExecutor(spec: spec, backends: [SQLiteStore.descriptor]).run()
            if n == name { r.record(outcome) }
        }
        return r
    }

    static func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }

    /// A timer's intervals: at least 10, positive, their median not above 3× its headline.
    /// (Not below it either, but a test run loads the machine: a stall raises a few intervals and
    /// the headline, not the median, so that side is left to `cellsRecordIntervals`' attempts.)
    static func expectIntervals(_ t: OperationTimer, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let intervals = t.intervalNanos ?? []
        let headline = Double(t.elapsed) / Double(max(1, t.operations))
        #expect(intervals.count >= 10 && intervals.allSatisfy { $0 > 0 }, "\(name): \(intervals)", sourceLocation: sourceLocation)
        let m = intervals.isEmpty ? 0 : median(intervals)
        #expect(m < headline * 3, "\(name): median \(m) ns, headline \(headline) ns", sourceLocation: sourceLocation)
    }

    /// The cell, run as the runner runs it, records ≥ 10 positive intervals that survive the
    /// JSON; their median is within 3× of the headline and their mean (each interval holds
    /// about as many operations) within 1.5×, which says they cover the time the headline
    /// measured. Timing on a machine the other suites load: up to three attempts.
    @Test("a concurrency read cell, a YCSB cell and lifecycle.churn record ≥ 10 intervals near their headline",
          arguments: ["concurrency.read.4-threads", "ycsb.a", "lifecycle.churn"])
    func cellsRecordIntervals(_ name: String) throws {
        var attempts: [String] = []
        for attempt in 1...3 {
            let dir = try TemporaryDirectory("intervals")
            let r = try Self.cell(name, in: dir.url)
            let intervals = try #require(r.intervalNanos, "\(name) recorded no intervals")
            let ns = try #require(r.nanosPerOperation)
            #expect(intervals.count >= 10 && intervals.allSatisfy { $0 > 0 }, "\(name): \(intervals)")
            let decoded = try JSONDecoder().decode(CellResult.self, from: JSONEncoder().encode(r))
            #expect(decoded.intervalNanos == intervals)
            let m = Self.median(intervals), mean = intervals.reduce(0, +) / Double(intervals.count)
            if m > ns / 3 && m < ns * 3 && mean > ns / 1.5 && mean < ns * 1.5 { return }
            attempts.append("attempt \(attempt): median \(Int(m)) ns, mean \(Int(mean)) ns, headline \(Int(ns)) ns: \(intervals.map { Int($0) })")
        }
        Issue.record("\(name): intervals far from the headline\n\(attempts.joined(separator: "\n"))")
    }

    @Test func measuredRepetitionsConcatenateAndRoundsPoolInOrder() throws {
        let dir = try TemporaryDirectory("intervals-pool")
        let two = try Self.cell("concurrency.read.1-threads", in: dir.url, repetitions: 2)
        // One repetition gives at most 20 (fewer only if a timed group skipped a mark): both count.
        #expect((two.intervalNanos?.count ?? 0) > Intervals.count(operations: ConcurrencyWorkloads.readsPerThread))
        var a = two, b = two
        a.intervalNanos = [1, 2, 3]
        b.intervalNanos = [4, 5]
        let pooled = CellResult.pooledRounds([a, b])[0]
        #expect(pooled.intervalNanos == [1, 2, 3, 4, 5] && pooled.intervalRounds == [3, 2])
        a.intervalNanos = nil
        b.intervalNanos = nil
        let none = CellResult.pooledRounds([a, b])[0]
        #expect(none.intervalNanos == nil && none.intervalRounds == nil)
        let json = String(decoding: try JSONEncoder().encode(none), as: UTF8.self)
        #expect(!json.contains("intervalNanos") && !json.contains("intervalRounds"), "omitted when not recorded")
    }

    @Test func threadsMarksMergeIntoAggregateThroughput() {
        // Two threads from t = 0, each finishing 100 operations every 1,000 ns for 2,000
        // operations: together 200 operations per 1,000 ns, so 5 ns per operation throughout.
        func marks(_ offset: UInt64) -> ProgressMarks {
            var m = ProgressMarks(expecting: 2_000, start: offset)
            for i in 1...2_000 { m.note(i, at: offset + UInt64(i) * 10) }
            return m
        }
        let one = Intervals.throughput([marks(0)])
        #expect(one.count == 20 && one.allSatisfy { $0 == 10 })
        let both = Intervals.throughput([marks(0), marks(5)])
        #expect(both.count == 20 && both.allSatisfy { abs($0 - 5) < 0.1 }, "\(both)")
        // Marks taken only when due: one at the end of each 20th of the 2,000 operations.
        #expect(marks(0).marks.map(\.operations) == (1...20).map { $0 * 100 })
        // Phases one after another, 100 operations at 100 ns then 200 at 10 ns: every interval
        // holds a 20th of each, so each is the whole's 12,000 ns ÷ 300.
        var slow = ProgressMarks(expecting: 100, start: 0)
        for i in 1...100 { slow.note(i, at: UInt64(i) * 100) }
        var fast = ProgressMarks(expecting: 200, start: 20_000)
        for i in 1...200 { fast.note(i, at: 20_000 + UInt64(i) * 10) }
        let phased = Intervals.phased([slow, fast])
        #expect(phased.count == 20 && phased.allSatisfy { abs($0 - 40) < 1e-9 }, "\(phased)")
        #expect(Intervals.count(operations: 50) == 12 && Intervals.count(operations: 30) == 10 && Intervals.count(operations: 3) == 3)
    }

    @Test func aPacedLoopSlicesItsLatencies() {
        let clock = PacedLoopTests.VirtualClock()
        var loop = PacedLoop(interval: 1_000_000, clock: { clock.now }, sleep: { clock.now += $0 })
        var i = 0
        loop.run(operations: 1_000) {
            clock.now += i == 100 ? 50_000_000 : 100_000
            i += 1
        }
        let means = loop.latencySlices.means
        #expect(means.count == 20 && loop.serviceSlices.means.count == 20)
        // The stall at operation 100 weighs on the 3rd slice (operations 100–149); the others
        // hold the 0.1 ms operations, so the median slice is the ordinary latency.
        #expect(means[2] > 10_000_000 && Self.median(means) == 100_000)
        let total = loop.latencySlices.nanos.reduce(0, +)
        #expect(abs(Double(total) / 1_000 - loop.latency.mean) < loop.latency.mean * 0.01, "the slices hold every latency")
    }
}

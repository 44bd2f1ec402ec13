import Foundation
import Histogram
import StoreConformance
import StoreCore
import StoreBenchKit

/// YCSB's two phases over a `Repository`: `load` inserts `recordcount` records, `run` performs
/// `operationcount` operations of the workload's mix on `threadcount` threads, each operation
/// its own transaction (read-modify-write: one write transaction that reads, then updates),
/// and records each kind's latencies as YCSB reports them.
///
/// ```swift
/// let ycsb = try YCSBRun(try YCSBWorkloadSpec(file: "Fixtures/ycsb/workloada"), seed: 42)
/// try ycsb.load(into: repo)
/// let result = try ycsb.run(on: repo)
/// result.throughput      // operations per second, all threads
/// ```
/// Thread safety: `run` starts its own threads; call `load` and `run` from one thread.
public struct YCSBRun: Sendable {
    public enum Operation: String, CaseIterable, Sendable {
        case read = "READ", update = "UPDATE", insert = "INSERT", scan = "SCAN", readModifyWrite = "READ-MODIFY-WRITE"
    }

    /// What the run phase measured.
    public struct Result: Sendable {
        public var operations: Int
        public var wallNanos: UInt64
        public var latencies: [Operation: Histogram<UInt64>]
        public var all: Histogram<UInt64>
        /// Wall time ÷ operations over consecutive intervals of the run, all threads together
        /// (`Intervals.throughput`): 1 ÷ throughput, interval by interval.
        public var intervalNanos: [Double] = []
        public var throughput: Double { wallNanos == 0 ? 0 : Double(operations) * 1e9 / Double(wallNanos) }
    }

    public let table: YCSBTable
    public let seed: UInt64
    /// Records per write transaction of the load phase (YCSB's client inserts one per call; a
    /// transaction each would make the load a test of fsync alone).
    public var loadBatch = 1_000

    public init(_ spec: YCSBWorkloadSpec, seed: UInt64) throws {
        table = try YCSBTable(spec)
        self.seed = seed
    }

    public var spec: YCSBWorkloadSpec { table.spec }

    /// The records this client loads: from `insertstart`, `insertcount` of them (all by default).
    var loadRange: Range<Int> {
        let start = spec.insertStart
        return start..<(start + (spec.insertCount ?? (spec.recordCount - start)))
    }

    /// Inserts the load phase's records, `loadBatch` per write transaction; returns the nanoseconds the transactions took.
    @discardableResult
    public func load(into repo: any Repository) throws -> UInt64 {
        var rng = SplitMix64(seed: seed)
        var elapsed: UInt64 = 0
        let range = loadRange
        for start in stride(from: range.lowerBound, to: range.upperBound, by: loadBatch) {
            let records = (start..<min(range.upperBound, start + loadBatch)).map { table.record(keyNumber: $0, rng: &rng) }
            let t0 = MonotonicClock.now()
            try repo.write { tx in for r in records { try tx.insert(r) } }
            elapsed &+= MonotonicClock.now() &- t0
        }
        return elapsed
    }

    /// Runs `operationcount` operations split over `threadcount` threads.
    public func run(on repo: any Repository) throws -> Result {
        let threads = spec.threadCount
        let inserts = InsertSequence(next: spec.recordCount)
        let gathered = Locked<(latencies: [Operation: Histogram<UInt64>], marks: [ProgressMarks])>(([:], []))
        let wall = try ThreadGang.run(threads: threads) { t in
            let share = spec.operationCount / threads + (t < spec.operationCount % threads ? 1 : 0)
            var worker = Worker(run: self, repo: repo, inserts: inserts, thread: t)
            try worker.perform(share)
            gathered.withLock { all in
                for (op, h) in worker.latencies { all.latencies[op, default: OperationTimer.emptyHistogram()].add(h) }
                all.marks.append(worker.marks)
            }
        }
        let (latencies, marks) = gathered.withLock { $0 }
        var all = OperationTimer.emptyHistogram()
        for h in latencies.values { all.add(h) }
        return Result(operations: spec.operationCount, wallNanos: wall, latencies: latencies, all: all,
                      intervalNanos: Intervals.throughput(marks))
    }
}

/// Key numbers of records inserted during the run (internal): handed out in order, and
/// readable once every lower one has committed, as YCSB's acknowledged-key counter.
final class InsertSequence: @unchecked Sendable {
    // @unchecked: every field is touched with `lock` held.
    private let lock = NSLock()
    private var next: Int
    private var limit: Int
    private var done = Set<Int>()

    init(next: Int) {
        self.next = next
        limit = next
    }

    func take() -> Int { lock.withLock { defer { next += 1 }; return next } }

    func acknowledge(_ n: Int) {
        lock.withLock {
            done.insert(n)
            while done.remove(limit) != nil { limit += 1 }
        }
    }

    /// Records readable now: every key number below this one.
    var acknowledged: Int { lock.withLock { limit } }
}

extension YCSBRun {
    /// One thread of the run phase (internal).
    struct Worker {
        let run: YCSBRun
        let repo: any Repository
        let inserts: InsertSequence
        var rng: SplitMix64
        var keys: KeyChooser
        var scanLengths: ZipfianGenerator?
        var latencies: [Operation: Histogram<UInt64>] = [:]
        /// Progress marks from each operation's own end reading (one kept per 20th of the share).
        var marks = ProgressMarks(expecting: 0)
        var sink = 0
        let thresholds: [(Double, Operation)]
        let keyPath: KeyPathExpression = KeyPathExpression(YCSBTable.key)

        init(run: YCSBRun, repo: any Repository, inserts: InsertSequence, thread: Int) {
            self.run = run
            self.repo = repo
            self.inserts = inserts
            let spec = run.spec
            rng = SplitMix64(seed: run.seed &+ 0x9E37_79B9 &* UInt64(thread + 1))
            keys = KeyChooser(spec.requestDistribution, count: spec.recordCount, theta: spec.zipfianConstant)
            if spec.scanLengthDistribution == .zipfian {
                scanLengths = ZipfianGenerator(itemCount: spec.maxScanLength - spec.minScanLength + 1, theta: spec.zipfianConstant)
            }
            let weights: [(Double, Operation)] = [(spec.readProportion, .read), (spec.updateProportion, .update), (spec.insertProportion, .insert),
                                                  (spec.scanProportion, .scan), (spec.readModifyWriteProportion, .readModifyWrite)]
            let total = weights.reduce(0) { $0 + $1.0 }
            var sum = 0.0
            thresholds = weights.filter { $0.0 > 0 }.map { w in
                sum += w.0 / total
                return (sum, w.1)
            }
        }

        mutating func perform(_ count: Int) throws {
            marks = ProgressMarks(expecting: count)
            for i in 0..<count {
                let u = Double(rng.next() >> 11) / Double(1 << 53)
                let op = thresholds.first { u < $0.0 }?.1 ?? thresholds.last!.1
                let end = try perform(op)
                marks.note(i + 1, at: end)
            }
        }

        private mutating func existingKey() -> String {
            keys.grow(to: inserts.acknowledged)
            return run.table.keyName(keys.next(&rng))
        }

        private mutating func changes() -> [String: Value] {
            let spec = run.spec
            if spec.writeAllFields {
                var set: [String: Value] = [:]
                for i in 0..<spec.fieldCount { set[run.table.field(i)] = run.table.value(&rng) }
                return set
            }
            return [run.table.field(rng.below(spec.fieldCount)): run.table.value(&rng)]
        }

        /// Folds the fields YCSB reads (all, or one at random) into the sink.
        private func touch(_ r: Record, field: Int) -> Int {
            run.spec.readAllFields ? Touch.row(r) : (r[field + 1].stringValue?.utf8.count ?? 0)
        }

        /// Performs `op`, records its latency, and returns the clock reading at its end.
        private mutating func perform(_ op: Operation) throws -> UInt64 {
            let table = run.spec.table
            let start: UInt64
            switch op {
            case .read:
                let key = existingKey(), field = rng.below(run.spec.fieldCount)
                start = MonotonicClock.now()
                sink &+= try repo.read { tx in
                    guard let r = try tx.fetch(table, id: .string(key)) else { throw BenchError("YCSB read: record \(key) is missing") }
                    return touch(r, field: field)
                }
            case .update:
                let key = existingKey(), set = changes()
                start = MonotonicClock.now()
                try repo.write { tx in try tx.update(table, id: .string(key), set: set) }
            case .insert:
                let n = inserts.take()
                let record = run.table.record(keyNumber: n, rng: &rng)
                start = MonotonicClock.now()
                try repo.write { tx in try tx.insert(record) }
                inserts.acknowledge(n)
            case .scan:
                let key = existingKey()
                let span = run.spec.maxScanLength - run.spec.minScanLength + 1
                let length = run.spec.minScanLength + (scanLengths.map { var z = $0; let n = z.next(&rng); scanLengths = z; return n } ?? rng.below(span))
                let query = Query(table, where: keyPath >= .string(key), sort: [.asc(keyPath)], limit: length)
                start = MonotonicClock.now()
                sink &+= try repo.read { tx in
                    var h = 0
                    try tx.forEach(query) { row in h &+= Touch.row(row) }
                    return h
                }
            case .readModifyWrite:
                let key = existingKey(), set = changes(), field = rng.below(run.spec.fieldCount)
                start = MonotonicClock.now()
                sink &+= try repo.write { tx in
                    guard let r = try tx.fetch(table, id: .string(key)) else { throw BenchError("YCSB read-modify-write: record \(key) is missing") }
                    try tx.update(table, id: .string(key), set: set)
                    return touch(r, field: field)
                }
            }
            let end = MonotonicClock.now()
            latencies[op, default: OperationTimer.emptyHistogram()].record(max(1, end &- start))
            return end
        }
    }
}

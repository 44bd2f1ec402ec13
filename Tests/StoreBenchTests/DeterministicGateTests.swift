import Foundation
import SQLiteStore
@testable import StoreBench
import StoreConformance
import StoreCore
import Testing

/// The allocation gate: counts that do not drift between runs of one build, and a gate that
/// catches one extra allocation per operation.
@Suite(.serialized) struct DeterministicGateTests {
    static let workloads = ["crud.read-pk.single", "crud.read-pk.batched", "batch.bulk-insert", "rows.insert", "rows.fetch", "query.count"]

    /// Runs the workloads' cells in this process on `descriptor`, after its loads.
    static func measure(_ descriptor: BackendDescriptor, in dir: URL) throws -> [CellResult] {
        var out: [CellResult] = []
        for (i, name) in (["memory.load", "rows.load"] + workloads).enumerated() {
            let w = try #require(WorkloadRegistry.named(name))
            var spec = CellSpec(target: .backend(descriptor.name), workload: name, scale: "tiny", fixtures: Bench.fixtures.path,
                                template: dir.appendingPathComponent("template-\(w.dataset.rawValue)").path,
                                work: dir.appendingPathComponent("cell-\(i)").path, repetitions: 1, warmup: 1,
                                durability: .relaxed, minimumSpan: 1_000, outcome: dir.appendingPathComponent("outcome.json").path)
            spec.countAllocations = true
            let outcome = try CellExecutor(spec: spec, backends: [descriptor]).run()
            var r = CellResult(target: spec.target, engine: "sqlite", workload: name, category: w.category, scale: "tiny", status: .ok)
            r.record(outcome)
            if !w.loadsDataset { out.append(r) }
        }
        return out
    }

    @Test func allocationCountsRepeatAndOneMoreAllocationPerOperationFailsTheGate() throws {
        #expect(AllocationCounter.isAvailable)
        let dir = try TemporaryDirectory("alloc-gate")
        let base = try Self.measure(SQLiteStore.descriptor, in: dir.url.appendingPathComponent("a"))
        let again = try Self.measure(SQLiteStore.descriptor, in: dir.url.appendingPathComponent("b"))
        for c in base { #expect((c.allocations?.callsPerOperation ?? -1) >= 0, "\(c.workload) counted") }
        let same = ResultsComparison(base: CompareAndReportTests.results(base), new: CompareAndReportTests.results(again), metric: .allocations)
        #expect(same.exitCode == 0, "\(same.markdown())")
        #expect(same.rows.count == Self.workloads.count)

        let leaky = BackendDescriptor(name: "sqlite", summary: "SQLiteStore with one extra allocation per transaction", engine: "sqlite") {
            try LeakyRepository(SQLiteStore.descriptor.open($0, $1, $2))
        }
        let injected = try Self.measure(leaky, in: dir.url.appendingPathComponent("c"))
        let gate = ResultsComparison(base: CompareAndReportTests.results(base), new: CompareAndReportTests.results(injected), metric: .allocations)
        #expect(gate.exitCode == 2, "\(gate.markdown())")
        let single = try #require(gate.rows.first { $0.key.workload == "crud.read-pk.single" })
        #expect(single.verdict == .regression)
        #expect(abs((single.new ?? 0) - (single.base ?? 0) - 1) < 0.01, "exactly one more allocation per read")
    }

    /// A cost paid the first time a store meets an operation (a query shape compiled, a
    /// statement prepared) is not counted: the counted repetition's operations ran once before,
    /// so the count does not depend on how far a warm-up got. A repository that keeps each
    /// query it meets counts exactly what the store beneath it counts.
    @Test func firstSightCostsStayOutOfTheCount() throws {
        let dir = try TemporaryDirectory("alloc-first-sight")
        func wrapped(keeps: Bool) -> BackendDescriptor {
            BackendDescriptor(name: "sqlite", summary: "SQLiteStore in a wrapper that keeps every query it meets: \(keeps)", engine: "sqlite") {
                try FirstSightRepository(SQLiteStore.descriptor.open($0, $1, $2), keeps: keeps)
            }
        }
        let base = try Self.measure(wrapped(keeps: false), in: dir.url.appendingPathComponent("a"))
        let kept = try Self.measure(wrapped(keeps: true), in: dir.url.appendingPathComponent("b"))
        let same = ResultsComparison(base: CompareAndReportTests.results(base), new: CompareAndReportTests.results(kept), metric: .allocations)
        #expect(same.exitCode == 0, "\(same.markdown())")
    }
}

/// A repository that keeps every query it counts or fetches (when `keeps`), as a cache of
/// compiled queries does: an allocation the first time it meets one, none after. Without
/// `keeps`, the same wrapper with nothing kept: the baseline with the wrapper's own costs.
final class FirstSightRepository: Repository, @unchecked Sendable {
    let inner: any Repository
    let keeps: Bool
    private let seen = Locked<Set<Query>>([])
    init(_ inner: any Repository, keeps: Bool) { (self.inner, self.keeps) = (inner, keeps) }
    var schema: Schema { inner.schema }
    var capabilities: Capabilities { inner.capabilities }
    func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        try inner.read { try body(FirstSightTransaction(inner: $0, repository: self)) }
    }
    func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T { try inner.write(body) }
    func close() throws { try inner.close() }
    func meet(_ q: Query) {
        // A set allocates only as it grows: a first sight allocates once more, as a compile does.
        if keeps, seen.withLock({ $0.insert(q).inserted }) { free(malloc(64)) }
    }
}

struct FirstSightTransaction: ReadTransaction {
    let inner: any ReadTransaction
    let repository: FirstSightRepository
    var schema: Schema { inner.schema }
    func fetch(_ entity: String, id: Value) throws -> Record? { try inner.fetch(entity, id: id) }
    func fetch(_ query: Query) throws -> [Record] { repository.meet(query); return try inner.fetch(query) }
    func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws { try inner.forEach(query, body) }
    func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws { try inner.forEachPacked(query, body) }
    func count(_ query: Query) throws -> Int { repository.meet(query); return try inner.count(query) }
    func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
        try inner.related(entity, id: id, via: relationship)
    }
}

/// A repository that allocates (and frees) 64 bytes more in every transaction: the injected fault.
final class LeakyRepository: Repository, @unchecked Sendable {
    let inner: any Repository
    init(_ inner: any Repository) { self.inner = inner }
    var schema: Schema { inner.schema }
    var capabilities: Capabilities { inner.capabilities }
    func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        free(malloc(64))
        return try inner.read(body)
    }
    func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        free(malloc(64))
        return try inner.write(body)
    }
    func close() throws { try inner.close() }
}

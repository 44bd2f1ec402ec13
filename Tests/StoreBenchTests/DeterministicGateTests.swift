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

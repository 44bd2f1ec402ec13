import Foundation
import Histogram
import SQLiteStore
@testable import StoreBench
import StoreBenchKit
import StoreConformance
import StoreCore
import Testing

/// Several processes on one store as runner workloads: every process's operations counted,
/// their latencies merged exactly, and backends that cannot share a store left out.
@Suite struct MultiProcessTests {
    @Test("the processes' histograms merge exactly: the same counts and percentiles as one histogram of every latency")
    func histogramsMergeExactly() {
        var rng = SplitMix64(seed: 9)
        var all = OperationTimer.emptyHistogram()
        let results = (0..<3).map { p -> PeerResult in
            var h = OperationTimer.emptyHistogram()
            for _ in 0..<(1_000 * (p + 1)) {
                let v = UInt64(500 + rng.below(50_000 * (p + 1)))
                h.record(v)
                all.record(v)
            }
            return PeerResult(operations: 1_000 * (p + 1), latency: h, started: UInt64(100 + p), ended: UInt64(900 + 50 * p), sink: p)
        }
        let m = results.merged
        #expect(m.operations == 6_000 && m.latency.totalCount == all.totalCount)
        for p in [50.0, 90, 99, 99.9, 100] { #expect(m.latency.valueAtPercentile(p) == all.valueAtPercentile(p), "p\(p)") }
        #expect(m.latency.min == all.min && m.latency.max == all.max)
        #expect(m.wall == 1_000 - 100, "from the first start to the last end")
        #expect(m.sink == 3)
    }

    @Test("multiprocess cells run on sqlite and lmdb: every process's operations counted, writer and reader percentiles apart")
    func cellsRun() throws {
        let out = try TemporaryDirectory("multiprocess")
        let r = try Bench.run(["run", "--backends", "sqlite,lmdb", "--workloads", "multiprocess.read.2-processes,multiprocess.read-under-write.4-processes,multiprocess.write.2-processes",
                               "--scale", "tiny", "--rounds", "1", "--no-conformance", "--out", out.url.path])
        #expect(r.status == 0, "\(r.out)\n\(r.err)")
        let results = try RunResults.read(out.url.appendingPathComponent("latest.json").path)
        for backend in ["sqlite", "lmdb"] {
            let reads = try #require(results.cell(backend, "multiprocess.read.2-processes", "tiny"))
            #expect(reads.status == .ok, "\(reads.reason ?? "")")
            #expect(reads.operations == 2 * MultiProcessWorkloads.readsPerProcess && reads.latency?.samples == UInt64(reads.operations ?? -1))
            #expect(reads.allocations == nil, "the other processes' allocations cannot be counted")
            let mixed = try #require(results.cell(backend, "multiprocess.read-under-write.4-processes", "tiny"))
            #expect(mixed.status == .ok, "\(mixed.reason ?? "")")
            let p = LatencyFigures.percentile
            #expect((mixed.figure(p("writer", "50")) ?? 0) > 0 && (mixed.figure(p("read", "99")) ?? 0) > 0)
            #expect(mixed.figure(MultiProcessSuite.Figures.commitsPerSecond) ?? 0 > 0)
            #expect(mixed.parameter(MultiProcessSuite.Parameters.processes) == "4")
            let writes = try #require(results.cell(backend, "multiprocess.write.2-processes", "tiny"))
            #expect(writes.status == .ok && writes.operations == 2 * MultiProcessWorkloads.commitsPerWriter, "\(writes.reason ?? "")")
            #expect((writes.figure(p("writer", "99")) ?? 0) > 0)
        }
        let page = try String(contentsOf: out.url.appendingPathComponent("latest/multiprocess.md"), encoding: .utf8)
        #expect(page.contains("## Several processes on one store") && page.contains("### Readers beside a writer process")
                && page.contains("### Writer processes"))
    }

    @Test("a backend that declares multiProcess unsupported gets no multiprocess cell")
    func exclusiveBackendLeftOut() throws {
        let single = SQLiteStore.descriptor.exclusive(reason: "one process at a time")
        let work = try TemporaryDirectory("multiprocess-caps")
        var plan = RunPlan(backends: [single], workloads: MultiProcessWorkloads.all, scales: ["tiny"], repetitions: 1, warmup: 0,
                           durability: .relaxed, cellTimeout: 60, fixtures: Bench.fixtures, profile: "test")
        plan.backendCapabilities = BenchmarkRunner.capabilities(of: [single], in: work.url)
        #expect(plan.backendCapabilities["sqlite"]?.contains(.multiProcess) == false)
        #expect(!plan.cells().contains { $0.workload.category == .multiprocess })
    }
}

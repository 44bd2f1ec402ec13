import Foundation
import LMDBStore
import ObjectGraph
import SQLiteStore
@testable import StoreBench
import StoreConformance
import StoreCore
import Testing

/// The concurrency workloads on real stores of the tiny dataset: each runs its threads and
/// reports its figures; observation runs only where the backend observes; the plan leaves out
/// what a backend cannot run and runs them at the largest scale only.
@Suite("Concurrency workloads", .serialized)
struct ConcurrencyWorkloadTests {
    /// A loaded tiny store of `kind` in a new temporary directory.
    private func store(_ kind: String) throws -> (any Repository, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sb-concurrency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let options = StoreOptions(durability: .relaxed)
        let base: any Repository = kind.hasSuffix("lmdb")
            ? try LMDBStore(directory: dir, schema: BenchSchema.schema, options: options)
            : try SQLiteStore(directory: dir, schema: BenchSchema.schema, options: options)
        try SocialGenerator(try Bench.spec()).load(into: base)
        return (kind.hasPrefix("objectgraph") ? ObjectGraph(store: base) : base, dir)
    }

    /// Runs one repetition of `name` on `repo`; returns the timer.
    private func run(_ name: String, on repo: any Repository, at dir: URL) throws -> OperationTimer {
        let w = try #require(WorkloadRegistry.named(name))
        let ctx = WorkloadContext(generator: SocialGenerator(try Bench.spec()), workload: name, repetition: 0,
                                  storeDirectory: dir, residentAtStart: 0)
        let prepared = try w.prepare(ctx)
        let timer = OperationTimer(minimumSpan: 1_000)
        _ = try prepared.backend(repo, timer)
        prepared.teardown()
        return timer
    }

    @Test func readersScaleAndPacedMixesReportBothSides() throws {
        let (repo, dir) = try store("sqlite")
        defer { try? repo.close(); try? FileManager.default.removeItem(at: dir) }
        for n in [1, 4] {
            let t = try run("concurrency.read.\(n)-threads", on: repo, at: dir)
            #expect(t.operations == n * ConcurrencyWorkloads.readsPerThread)
            #expect(t.histogram.totalCount == UInt64(n * ConcurrencyWorkloads.readsPerThread))
            IntervalSampleTests.expectIntervals(t, "\(n) threads")
        }
        let mixed = try run("concurrency.read-under-write.4-threads", on: repo, at: dir)
        #expect(mixed.operations == ConcurrencyWorkloads.pacedReaders * ConcurrencyWorkloads.readsPerReader)
        for key in ["read p50 ns", "read p99 ns", "read p99.9 ns", "writer p50 ns", "writer p99 ns"] {
            #expect((mixed.metrics[key] ?? 0) > 0, "\(key)")
        }
        // Paced: a repetition lasts about its schedule (1 s), not as long as the reads take.
        #expect(Double(mixed.elapsed) / Double(mixed.operations) < 50_000_000)
        IntervalSampleTests.expectIntervals(mixed, "read-under-write")
        let writer = try run("concurrency.write-paced", on: repo, at: dir)
        #expect(writer.operations == ConcurrencyWorkloads.commits)
        #expect(writer.metrics["read p50 ns"] == nil && (writer.metrics["writer p99 ns"] ?? 0) > 0)
        IntervalSampleTests.expectIntervals(writer, "write-paced")
    }

    @Test func aLongReaderGrowsTheWALOnSQLiteAndTheDataFileOnLMDB() throws {
        for kind in ["sqlite", "lmdb"] {
            let (repo, dir) = try store(kind)
            defer { try? repo.close(); try? FileManager.default.removeItem(at: dir) }
            let t = try run("concurrency.long-reader", on: repo, at: dir)
            #expect(t.operations == ConcurrencyWorkloads.burstCommits)
            #expect((t.metrics["store growth bytes"] ?? 0) > 1_000_000, "\(kind): the snapshot held pages back")
            #expect(t.metrics["recovery ms"] != nil && t.metrics["first commit after ns"] != nil)
            IntervalSampleTests.expectIntervals(t, "\(kind) long reader")
            if kind == "sqlite" {
                #expect((t.metrics["wal bytes"] ?? 0) > 4 * (t.metrics["wal bytes before"] ?? 0), "the WAL grew past its checkpoint size")
            } else {
                #expect(t.metrics["wal bytes"] == 0)
            }
        }
    }

    @Test func observersHearEveryCommitOnAnObjectGraphOnly() throws {
        let (graph, dir) = try store("objectgraph+sqlite")
        defer { try? graph.close(); try? FileManager.default.removeItem(at: dir) }
        let t = try run("concurrency.observe.100-results.1-observers", on: graph, at: dir)
        #expect(t.operations == ConcurrencyWorkloads.observedCommits)
        #expect((t.metrics["notify p50 ns"] ?? 0) > 0 && (t.metrics["notify p99 ns"] ?? 0) >= (t.metrics["notify p50 ns"] ?? 0))
        IntervalSampleTests.expectIntervals(t, "observe")
        let none = try run("concurrency.observe.100-results.0-observers", on: graph, at: dir)
        #expect(none.metrics["notify p50 ns"] == nil)

        let (plain, plainDir) = try store("sqlite")
        defer { try? plain.close(); try? FileManager.default.removeItem(at: plainDir) }
        #expect(throws: BenchError.self) { try run("concurrency.observe.100-results.1-observers", on: plain, at: plainDir) }
    }

    @Test func thePlanLeavesOutWhatABackendCannotRunAndSmallerScales() throws {
        var plan = RunPlan(backends: [SQLiteStore.descriptor, ObjectGraph.descriptor(over: SQLiteStore.descriptor)],
                           workloads: try WorkloadRegistry.matching("concurrency.observe.100-results.1-observers,concurrency.read.1-threads,query.count"),
                           scales: ["tiny", "quick"], repetitions: 1, warmup: 0, durability: .relaxed, cellTimeout: 10,
                           fixtures: Bench.fixtures, profile: "test")
        plan.includeFloors = false
        plan.rounds = 3
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sb-caps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        plan.backendCapabilities = BenchmarkRunner.capabilities(of: plan.backends, in: dir)
        #expect(plan.backendCapabilities["objectgraph+sqlite"]?.contains(.observation) == true)
        #expect(plan.backendCapabilities["sqlite"]?.contains(.observation) == false)
        let cells = plan.cells().filter { !$0.workload.loadsDataset }.map { "\($0.target) \($0.workload.name) \($0.scale) \($0.round)" }
        #expect(!cells.contains { $0.hasPrefix("sqlite concurrency.observe") })
        #expect(cells.contains("objectgraph+sqlite concurrency.observe.100-results.1-observers quick 0"))
        #expect(!cells.contains { $0.contains("concurrency") && $0.contains(" tiny ") }, "concurrency runs at the largest scale only")
        #expect(cells.contains("sqlite query.count tiny 2"))
        #expect(!cells.contains { $0.contains("observe") && $0.hasSuffix(" 2") }, "latency workloads stop at their own round cap")
    }

    @Test func theQuickProfileRunsAReducedConcurrencySet() {
        let quick = Set(Profile.quick.defaultWorkloads.filter { $0.category == .concurrency }.map(\.name))
        let all = Set(Profile.standard.defaultWorkloads.filter { $0.category == .concurrency }.map(\.name))
        #expect(quick.isSubset(of: all) && !quick.isEmpty && quick.count < all.count)
        #expect(quick.contains("concurrency.read-under-write.4-threads"))
    }

    @Test func threadGangStartsTogetherRunsAlongsideAndRethrows() throws {
        let seen = Locked<Set<Int>>([])
        var alongside = false
        let wall = try ThreadGang.run(threads: 3, { i in seen.withLock { _ = $0.insert(i) } }, alongside: { alongside = true })
        #expect(seen.withLock { $0 } == [0, 1, 2] && alongside && wall > 0)
        #expect(throws: BenchError.self) {
            try ThreadGang.run(threads: 2) { i in if i == 1 { throw BenchError("thread 1 failed") } }
        }
        #expect(throws: BenchError.self) { try ThreadGang.run(threads: 0, { _ in }, alongside: { throw BenchError("caller failed") }) }
    }
}

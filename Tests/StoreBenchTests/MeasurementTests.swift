import Foundation
import LMDBStore
import SQLiteStore
import StoreConformance
@testable import StoreBench
import Testing

@Suite struct MeasurementTests {
    @Test func statisticsOfRepetitions() {
        let odd = SampleStatistics([3, 1, 2])
        #expect(odd.median == 2 && odd.min == 1 && odd.max == 3 && odd.mean == 2)
        #expect(abs(odd.coefficientOfVariation - 0.5) < 1e-12)   // sample sd 1 ÷ mean 2
        let even = SampleStatistics([4, 1, 3, 2])
        #expect(even.median == 2.5)
        #expect(SampleStatistics([7]).coefficientOfVariation == 0)
        #expect(SampleStatistics([5, 5, 5]).coefficientOfVariation == 0)
    }

    @Test func percentilesComeFromTheHistogram() {
        let timer = OperationTimer(minimumSpan: 0)
        // A unit of n operations records n values of span ÷ n; build 1…1000 ns exactly.
        for v in 1...1_000 { timer.record(UInt64(v), operations: 1) }
        let l = LatencySummary(timer.histogram)
        #expect(l.samples == 1_000)
        #expect((499...501).contains(l.p50))
        #expect((949...951).contains(l.p95))
        #expect((989...991).contains(l.p99))
        #expect(l.max == 1_000)
        #expect(timer.operations == 1_000 && timer.elapsed == 500_500)
    }

    @Test func shortOperationsAreTimedInGroups() {
        let timer = OperationTimer(minimumSpan: 50_000_000)   // 50 ms: every span is "too short"
        var seen = 0
        timer.each(10_000) { _ in seen += 1 }
        #expect(seen == 10_000)
        #expect(timer.operations == 10_000)
        #expect(timer.histogram.totalCount == 10_000)
        // Groups double up to the maximum, so far fewer spans than operations were timed.
        #expect(timer.spans < 200)

        let single = OperationTimer(minimumSpan: 0)
        single.each(50) { _ in usleep(100) }
        #expect(single.operations == 50)
        let l = LatencySummary(single.histogram)
        #expect(l.p50 >= 100_000)   // each operation slept at least 100 µs
    }

    @Test func aWarmUpStopsAtItsBudget() {
        // 2 ms operations against a 10 ms budget: a handful run, then `each` stops and the
        // timer says so; a timer without a budget (a measured repetition) runs them all.
        let warmUp = OperationTimer(minimumSpan: 0, budget: 10_000_000)
        var ran = 0
        warmUp.each(1_000) { _ in usleep(2_000); ran += 1 }
        #expect(ran >= 1 && ran <= 6)
        #expect(warmUp.isSpent)
        warmUp.each(10) { _ in ran += 1 }
        #expect(ran <= 6)   // a later loop of the same repetition issues nothing
        warmUp.batches(100, of: 10) { _ in ran += 1 }
        #expect(ran <= 6)   // nor do batches
        let batched = OperationTimer(minimumSpan: 0, budget: 10_000_000)
        var batchesRun = 0, operations = 0
        batched.batches(1_000, of: 7) { r in usleep(2_000); batchesRun += 1; operations += r.count }
        #expect(batchesRun >= 1 && batchesRun <= 6 && operations == batchesRun * 7)
        var ranges: [Range<Int>] = []
        OperationTimer(minimumSpan: 0).batches(10, of: 4) { ranges.append($0) }
        #expect(ranges == [0..<4, 4..<8, 8..<10])
        let measured = OperationTimer(minimumSpan: 0)
        var all = 0
        measured.each(20) { _ in usleep(1_000); all += 1 }
        #expect(all == 20 && !measured.isSpent)
    }

    @Test func aStoreCopyIsExactAndIndependent() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storecopy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("template"), copy = dir.appendingPathComponent("cells/1/store")
        try FileManager.default.createDirectory(at: source.appendingPathComponent("sub"), withIntermediateDirectories: true)
        var r = SplitMix64(seed: 3)
        let big = Data((0..<3_000_000).map { _ in UInt8(truncatingIfNeeded: r.next()) })
        try big.write(to: source.appendingPathComponent("data.mdb"))
        try Data().write(to: source.appendingPathComponent("empty"))
        try Data("x".utf8).write(to: source.appendingPathComponent("sub/lock"))
        try Data("stale".utf8).write(to: dir.appendingPathComponent("stale"))
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("stale"), to: copy.appendingPathComponent("stale"))
        try StoreCopy.replace(copy, with: source)
        #expect(try Data(contentsOf: copy.appendingPathComponent("data.mdb")) == big)
        #expect(try Data(contentsOf: copy.appendingPathComponent("empty")).isEmpty)
        #expect(try Data(contentsOf: copy.appendingPathComponent("sub/lock")) == Data("x".utf8))
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("stale").path))   // replaced, not merged
        try Data("changed".utf8).write(to: copy.appendingPathComponent("sub/lock"))
        #expect(try Data(contentsOf: source.appendingPathComponent("sub/lock")) == Data("x".utf8))
        let e = #expect(throws: BenchError.self) { try StoreCopy.replace(copy, with: dir.appendingPathComponent("missing")) }
        #expect(e?.message.contains("is missing") == true)
    }

    @Test func aUnitIsSharedAmongItsOperations() {
        let timer = OperationTimer(minimumSpan: 0)
        timer.unit(operations: 4) { usleep(2_000) }
        #expect(timer.operations == 4)
        #expect(timer.histogram.totalCount == 4)
        #expect(timer.histogram.min >= 400_000)   // ≥ 2 ms ÷ 4 each
    }

    @Test func workloadPatterns() throws {
        #expect(try WorkloadRegistry.matching("crud.*.single").map(\.name) == [
            "crud.insert.single", "crud.read-pk.single", "crud.update.single", "crud.delete.single", "crud.upsert.single"])
        #expect(try WorkloadRegistry.matching("rows").map(\.name) == ["rows.load", "rows.insert", "rows.fetch"])
        #expect(try WorkloadRegistry.matching("query.count,selftest.crash").map(\.name) == ["query.count", "selftest.crash"])
        #expect(!WorkloadRegistry.all.contains { $0.category == .selftest })
        let e = #expect(throws: BenchError.self) { try WorkloadRegistry.matching("nothing-like-this") }
        #expect(e?.message.contains("no workload matches") == true)
        #expect(Set(WorkloadRegistry.all.map(\.name)).count == WorkloadRegistry.all.count)
        let withFloors = WorkloadRegistry.all.filter { $0.hasFloor && !$0.loadsDataset && !$0.namedProgramsOnly }.map(\.name)
        #expect(WorkloadRegistry.all.filter(\.namedProgramsOnly).map(\.name) == [1, 2, 4, 8].map { "concurrency.read.\($0)-threads" },
                "the read-scaling workloads run on programs with concurrent reads (plain:grdb), not on the floors")
        #expect(!Floors.builtin.contains { p in WorkloadRegistry.all.contains { $0.namedProgramsOnly && p.runs($0) } })
        let queries = ["query.indexed-eq", "query.unindexed-eq", "query.date-range", "query.contains-cd", "query.beginswith-c", "query.sort-page",
                       "query.count", "query.keypath", "query.any-tag", "query.posts-count", "query.traversal", "query.full-scan"]
        #expect(withFloors == ["crud.read-pk.single", "crud.read-pk.batched", "crud.read-pk.hot", "batch.bulk-insert"] + queries + ["rows.insert", "rows.fetch",
                              "durability.commit-one", "durability.commit-chunk"], "every query workload has a floor")
    }
}

@Suite struct RunPlanTests {
    @Test func loadsFirstThenEachWorkloadAcrossTargetsBackToBack() throws {
        let plan = RunPlan(backends: [SQLiteStore.descriptor, LMDBStore.descriptor],
                           workloads: try WorkloadRegistry.matching("crud.read-pk.single,query.count,rows.fetch"),
                           scales: ["tiny"], repetitions: 1, warmup: 0, durability: .relaxed, cellTimeout: 10,
                           fixtures: Bench.fixtures, profile: "test")
        let order = plan.cells().map { "\($0.target) \($0.workload.name)" }
        #expect(order == [
            "sqlite memory.load", "sqlite rows.load", "lmdb memory.load", "lmdb rows.load",
            "floor:sqlite memory.load", "floor:sqlite rows.load", "floor:lmdb memory.load", "floor:lmdb rows.load",
            "c:sqlite rows.load", "c:lmdb rows.load", "journal:sqlite memory.load",
            "sqlite crud.read-pk.single", "lmdb crud.read-pk.single", "floor:sqlite crud.read-pk.single", "floor:lmdb crud.read-pk.single",
            "journal:sqlite crud.read-pk.single",
            "sqlite query.count", "lmdb query.count", "floor:sqlite query.count", "floor:lmdb query.count",
            "sqlite rows.fetch", "lmdb rows.fetch", "floor:sqlite rows.fetch", "floor:lmdb rows.fetch", "c:sqlite rows.fetch", "c:lmdb rows.fetch",
        ])
        var noFloors = plan
        noFloors.includeFloors = false
        #expect(noFloors.cells().allSatisfy { $0.target.isBackend })
    }

    @Test func roundsRunEachWorkloadAcrossTargetsInTurn() throws {
        var plan = RunPlan(backends: [SQLiteStore.descriptor, LMDBStore.descriptor],
                           workloads: try WorkloadRegistry.matching("query.count"),
                           scales: ["tiny"], repetitions: 1, warmup: 0, durability: .relaxed, cellTimeout: 10,
                           fixtures: Bench.fixtures, profile: "test")
        plan.rounds = 3
        let order = plan.cells().map { "\($0.target) \($0.workload.name) \($0.round)" }
        #expect(order == [
            "sqlite memory.load 0", "lmdb memory.load 0", "floor:sqlite memory.load 0", "floor:lmdb memory.load 0",
            "sqlite query.count 0", "lmdb query.count 0", "floor:sqlite query.count 0", "floor:lmdb query.count 0",
            "sqlite query.count 1", "lmdb query.count 1", "floor:sqlite query.count 1", "floor:lmdb query.count 1",
            "sqlite query.count 2", "lmdb query.count 2", "floor:sqlite query.count 2", "floor:lmdb query.count 2",
        ])
    }
}

@Suite struct RoundsTests {
    /// Rounds of one cell, each with its repetitions' seconds (1,000 operations each).
    static func rounds(_ target: String, _ perRound: [[Double]]) -> [CellResult] {
        perRound.map { samples in
            var c = CompareAndReportTests.cell(target, "batch.bulk-insert", ns: 0, cv: 0)
            let stats = SampleStatistics(samples)
            c.samples = samples
            c.medianSeconds = stats.median
            c.nanosPerOperation = stats.median * 1e9 / 1_000
            return c
        }
    }

    @Test func poolingKeepsEveryRepetitionAndEachRoundsTime() {
        let pooled = CellResult.pooledRounds(Self.rounds("sqlite", [[1e-3, 3e-3], [2e-3, 2e-3], [9e-3, 8e-3]]))
        #expect(pooled.count == 1)
        #expect(pooled[0].samples?.count == 6)
        #expect(pooled[0].nanosPerOperation == 2_000)           // median of the rounds' times
        #expect(pooled[0].roundNanos == [2_000, 2_000, 8_500])
        #expect(pooled[0].time == Estimate(value: 2_000, low: 2_000, high: 8_500, confidence: 0.75))
        #expect(pooled[0].minSeconds == 1e-3 && pooled[0].maxSeconds == 9e-3)
    }

    @Test func ratiosAreMediansOfPerRoundRatiosSoDriftCancels() {
        // The machine slows down 4x from round 2 on and recovers before the floor's cell of
        // round 3. Pooled medians would say 8x; each round says 2x, 2x, 8x.
        let backend = CellResult.pooledRounds(Self.rounds("sqlite", [[2e-3], [8e-3], [8e-3]]))[0]
        let floor = CellResult.pooledRounds(Self.rounds("floor:sqlite", [[1e-3], [4e-3], [1e-3]]))[0]
        #expect(backend.nanosPerOperation! / floor.nanosPerOperation! == 8)
        #expect(backend.ratio(to: floor)?.value == 2)
        let withRatios = BenchmarkRunner.withFloorRatios([backend, floor], programs: Floors.builtin)
        #expect(withRatios[0].floorRatio?.value == 2)
        #expect(withRatios[0].floorRatio?.high == 8, "the interval of three per-round ratios is their range")
    }

    @Test func aFailedRoundFailsTheCell() {
        var rs = Self.rounds("lmdb", [[1e-3], [1e-3]])
        rs[1].status = .failed
        rs[1].reason = "crashed with signal 11"
        let pooled = CellResult.pooledRounds(rs)[0]
        #expect(pooled.status == .failed)
        #expect(pooled.reason == "round 2 of 2: crashed with signal 11")
    }
}

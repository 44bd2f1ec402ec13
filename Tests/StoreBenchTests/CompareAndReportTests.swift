import Foundation
@testable import StoreBench
import StoreConformance
import Testing

/// `compare` and the Markdown report on crafted results.
@Suite struct CompareAndReportTests {
    static func cell(_ target: String, _ workload: String, ns: Double, cv: Double, floorRatio: Double? = nil,
                     status: CellResult.Status = .ok) -> CellResult {
        let id = TargetID.legacy(target)
        var c = CellResult(target: id, engine: id.name,
                           workload: workload, category: WorkloadRegistry.named(workload)?.category ?? .crud, scale: "quick",
                           status: status, metrics: [:], wallSeconds: 1)
        guard status == .ok else { c.reason = "crashed"; return c }
        c.operations = 1_000
        c.spans = 1_000
        c.medianSeconds = ns * 1_000 / 1e9
        c.minSeconds = c.medianSeconds! * 0.98
        c.maxSeconds = c.medianSeconds! * 1.02
        c.coefficientOfVariation = cv
        c.nanosPerOperation = ns
        c.time = Estimate(value: ns, low: ns * 0.98, high: ns * 1.02, confidence: 0.9)
        // Five rounds spread as the CV says, so comparisons have evidence to decide on.
        c.roundNanos = [-1, -0.5, 0, 0.5, 1].map { ns * (1 + cv * $0) }
        c.operationsPerSecond = 1e9 / ns
        c.latency = LatencySummary(p50: UInt64(ns), p95: UInt64(ns * 2), p99: UInt64(ns * 3), max: UInt64(ns * 9), samples: 1_000)
        c.peakResidentBytes = 30 << 20
        c.diskBytes = 4 << 20
        c.floorRatio = floorRatio.map { Estimate(value: $0, low: $0, high: $0, confidence: 0) }
        return c
    }

    static func results(_ cells: [CellResult]) -> RunResults {
        let machine = MachineInfo(cpu: "Test CPU", cores: 2, memoryBytes: 8 << 30, os: "TestOS", swift: "6.3", build: "release",
                                  sqlite: "3.40.1", lmdb: "0.9.24")
        let targets = Set(cells.map(\.target)).sorted().map { RunResults.TargetInfo(id: $0, engine: $0.name, summary: "test") }
        let workloads = Set(cells.map(\.workload)).sorted().map { w in
            RunResults.WorkloadInfo(name: w, category: WorkloadRegistry.named(w)?.category ?? .crud, summary: "test", hasFloor: false)
        }
        return RunResults(generatedAt: Date(timeIntervalSince1970: 1_800_000_000), command: "storebench run", profile: "quick",
                          durability: .durable, repetitions: 3, warmup: 1, machine: machine,
                          runner: .init(clockReadingNanos: 25, minimumSpanNanos: 2_500, overheadNanosPerOperation: 0.5),
                          datasets: [.init(scale: "quick", seed: 1, checksum: "00112233aabbccdd", users: 10, posts: 50, comments: 150, tags: 5, rows: 100)],
                          targets: targets, workloads: workloads, cells: cells, conformance: [], durationSeconds: 42)
    }

    func compare(_ base: [CellResult], _ new: [CellResult], threshold: Double = 0.10,
                 metric: ResultsComparison.Metric = .time) -> ResultsComparison {
        ResultsComparison(base: Self.results(base), new: Self.results(new), metric: metric, threshold: threshold)
    }

    @Test func noChangeBeyondNoiseExitsZero() {
        let c = compare([Self.cell("sqlite", "crud.read-pk.single", ns: 1_000, cv: 0.02), Self.cell("lmdb", "query.count", ns: 1_000, cv: 0.02)],
                        [Self.cell("sqlite", "crud.read-pk.single", ns: 1_060, cv: 0.02)])
        #expect(c.exitCode == 0, "a cell the new run did not have is not a regression")
        #expect(c.markdown().contains("No change beyond noise"))
        #expect(c.markdown().contains("1 cell(s) of the baseline did not run this time"))
    }

    @Test func aRegressionExitsTwo() {
        let c = compare([Self.cell("sqlite", "crud.read-pk.single", ns: 1_000, cv: 0.02), Self.cell("lmdb", "crud.read-pk.single", ns: 500, cv: 0.01)],
                        [Self.cell("sqlite", "crud.read-pk.single", ns: 1_500, cv: 0.02), Self.cell("lmdb", "crud.read-pk.single", ns: 300, cv: 0.01)])
        #expect(c.exitCode == 2, "a regression wins over an improvement")
        #expect(c.regressions.map(\.key.target) == [.backend("sqlite")])
        #expect(c.markdown().contains("🔴 worse") && c.markdown().contains("+50.0%"))
    }

    @Test func onlyImprovementsExitFour() {
        let c = compare([Self.cell("sqlite", "batch.bulk-insert", ns: 3_000, cv: 0.03)],
                        [Self.cell("sqlite", "batch.bulk-insert", ns: 2_000, cv: 0.03)])
        #expect(c.exitCode == 4)
        #expect(c.markdown().contains("🟢 better"))
    }

    @Test func noisyCellsNeedTheirWholeIntervalBeyondTheThreshold() throws {
        // +30% is beyond the 10% threshold, but the rounds spread ±20%: the interval reaches below +10%.
        let c = compare([Self.cell("sqlite", "query.count", ns: 1_000, cv: 0.20)],
                        [Self.cell("sqlite", "query.count", ns: 1_300, cv: 0.20)])
        #expect(c.exitCode == 0)
        let interval = try #require(c.rows[0].interval)
        #expect(interval.low < 1.1 && interval.high > 1.3)
    }

    @Test func theSpreadBetweenRunsIsNotARegressionButATripleIs() {
        // 24 cells that each moved by up to ±15% between two runs (another moment on a shared
        // machine), with tight rounds: noise the runs share, not 24 changes.
        let workloads = ["crud.read-pk.single", "query.count", "rows.fetch", "batch.bulk-insert", "query.full-scan", "crud.update.batched"]
        let base = workloads.flatMap { w in ["sqlite", "lmdb", "grdb", "objectgraph+sqlite"].map { Self.cell($0, w, ns: 1_000, cv: 0.01) } }
        var new = base.enumerated().map { i, c in Self.cell(c.target.name, c.workload, ns: 1_000 * (0.85 + Double(i % 11) * 0.03), cv: 0.01) }
        #expect(compare(base, new).exitCode == 0)
        #expect(compare(base, new).runSpread > 0.05)
        new[3] = Self.cell(new[3].target.name, new[3].workload, ns: 3_000, cv: 0.01)
        let c = compare(base, new)
        #expect(c.exitCode == 2 && c.regressions.map(\.key) == [new[3].key])
    }

    @Test func aCellThatNowFailsIsARegression() {
        let c = compare([Self.cell("lmdb", "query.count", ns: 1_000, cv: 0.01)],
                        [Self.cell("lmdb", "query.count", ns: 0, cv: 0, status: .failed)])
        #expect(c.exitCode == 2)
        #expect(c.markdown().contains("now fails"))
    }

    @Test func floorRatioModeIgnoresAFasterMachine() {
        // Everything twice as fast (another machine): absolute says improvement, floor ratios say unchanged.
        let base = [Self.cell("sqlite", "rows.fetch", ns: 100, cv: 0.01, floorRatio: 1.2), Self.cell("floor:sqlite", "rows.fetch", ns: 83, cv: 0.01)]
        let new = [Self.cell("sqlite", "rows.fetch", ns: 50, cv: 0.01, floorRatio: 1.2), Self.cell("floor:sqlite", "rows.fetch", ns: 41.5, cv: 0.01)]
        #expect(compare(base, new).exitCode == 4)
        #expect(compare(base, new, metric: .floorRatio).exitCode == 0)
        var worse = new
        worse[0].floorRatio = Estimate(value: 1.8, low: 1.8, high: 1.8, confidence: 0)
        #expect(compare(base, worse, metric: .floorRatio).exitCode == 2)
    }

    @Test func compareCommandExitCodes() throws {
        let dir = try TemporaryDirectory("compare")
        func write(_ name: String, _ cells: [CellResult]) throws -> String {
            let path = dir.url.appendingPathComponent(name).path
            try Self.results(cells).write(path)
            return path
        }
        let base = try write("base.json", [Self.cell("sqlite", "crud.read-pk.single", ns: 1_000, cv: 0.01)])
        let same = try write("same.json", [Self.cell("sqlite", "crud.read-pk.single", ns: 1_010, cv: 0.01)])
        let slow = try write("slow.json", [Self.cell("sqlite", "crud.read-pk.single", ns: 2_000, cv: 0.01)])
        let fast = try write("fast.json", [Self.cell("sqlite", "crud.read-pk.single", ns: 500, cv: 0.01)])
        #expect(try Bench.run(["compare", base, same, "--metric", "time"]).status == 0)
        let r = try Bench.run(["compare", base, slow, "--metric", "time", "--threshold", "5"])
        #expect(r.status == 2 && r.out.contains("1 regression(s)"))
        #expect(try Bench.run(["compare", base, fast, "--metric", "time"]).status == 4)
        #expect(try Bench.run(["compare", base, slow, "--metric", "time", "--threshold", "150"]).status == 0)
        let garbage = dir.url.appendingPathComponent("garbage.json").path
        try Data("{\"hello\": 1}".utf8).write(to: URL(fileURLWithPath: garbage))
        let g = try Bench.run(["compare", base, garbage])
        #expect(g.status == 1 && g.err.contains("not a storebench results file"))
    }

    @Test func theReportHasEverySection() throws {
        var cells = [
            Self.cell("sqlite", "crud.read-pk.single", ns: 1_000, cv: 0.01, floorRatio: 1.3),
            Self.cell("lmdb", "crud.read-pk.single", ns: 400, cv: 0.01, floorRatio: 1.1),
            Self.cell("floor:sqlite", "crud.read-pk.single", ns: 770, cv: 0.01),
            Self.cell("sqlite", "query.count", ns: 5_000, cv: 0.02),
            Self.cell("lmdb", "query.count", ns: 9_000, cv: 0.02),
            Self.cell("sqlite", "memory.load", ns: 3_000, cv: 0),
            Self.cell("lmdb", "memory.load", ns: 2_000, cv: 0),
        ]
        cells[5].metrics["residentAfterLoadBytes"] = 2_000_000
        let results = Self.results(cells)
        let first = MarkdownReport(results).render()
        for s in MarkdownReport.sections { #expect(first.contains(s), "missing \(s)") }
        let md = MarkdownReport(results).renderAll()
        #expect(md.contains("| crud.read-pk.single | "), "the crud page decides every workload")
        #expect(md.contains("| query.count | "))
        #expect(first.contains("[crud](latest/crud.md)") && first.contains("[query](latest/query.md)"))
        #expect(md.contains("Test CPU, 2 cores") && md.contains("`00112233aabbccdd`") && md.contains("durable"))
        #expect(md.contains("](time-by-category-crud.svg)"), "charts linked as SVG images")
        #expect(md.contains("**Mostly reads"))
        #expect(md.contains("| _floor:sqlite_ |"))
        #expect(!md.contains("## Failed and skipped cells"))
        #expect(md.contains("| 30.0 MiB |"), "peak resident memory in the workload tables")
        #expect(md.contains("| 4.0 MiB |"), "disk in the memory table")
    }

    @Test func theYCSBSectionSpeaksYCSB() {
        func ycsb(_ target: String, ns: Double, threads: Double) -> CellResult {
            var c = Self.cell(target, "ycsb.a", ns: ns, cv: 0.01)
            c.metrics = ["records": 10_000, "threads": threads, "load ops/s": 20_000,
                         "READ count": 500, "READ avg ns": 38_600, "READ p95 ns": 60_500, "READ p99 ns": 84_200,
                         "UPDATE count": 500, "UPDATE avg ns": 181_000, "UPDATE p95 ns": 237_000, "UPDATE p99 ns": 351_000]
            return c
        }
        let one = MarkdownReport(Self.results([ycsb("sqlite", ns: 100_000, threads: 1), ycsb("lmdb", ns: 200_000, threads: 1)])).renderAll()
        #expect(one.contains("## YCSB"))
        #expect(one.contains("10,000 records, 1,000 operations, 1 thread.\n"))
        #expect(one.contains("| backend | [OVERALL] ops/s | load ops/s | [READ] avg µs | p95 µs | p99 µs | [UPDATE] avg µs | p95 µs | p99 µs |"))
        #expect(one.contains("| sqlite | 10,000 | 20,000 | 38.6 | 60.5 | 84.2 | 181 | 237 | 351 |"))
        #expect(one.contains("| lmdb | 5,000 | 20,000 |"))
        let four = MarkdownReport(Self.results([ycsb("sqlite", ns: 100_000, threads: 4)])).renderAll()
        #expect(four.contains("1,000 operations, 4 threads.\n"))
        #expect(!MarkdownReport(Self.results([Self.cell("sqlite", "query.count", ns: 5_000, cv: 0.02)])).renderAll().contains("## YCSB"))
    }

    @Test func units() {
        #expect(Format.bytes(UInt64(31_268_864)) == "29.8 MiB")
        #expect(Format.bytes(UInt64(1_000)) == "1000 B")
        #expect(Format.bytes(nil as UInt64?) == "–")
        #expect(Format.nanos(999) == "999 ns" && Format.nanos(1_500) == "1.50 µs" && Format.nanos(2.5e6) == "2.50 ms")
        #expect(Format.rate(1_500) == "1.5 k/s" && Format.ratio(2.345) == "2.35×" && Format.ratio(12.6) == "13×")
        #expect(Format.count(1_234_567) == "1,234,567")
        #expect(abs(Format.geometricMean([1, 4])! - 2) < 1e-12)
    }
}

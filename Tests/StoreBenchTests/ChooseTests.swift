import Foundation
@testable import StoreBench
import Testing

/// `storebench choose`: mixes, YCSB property files, the ranking and its decisions, on crafted
/// rounds and on the committed reference results.
@Suite struct ChooseTests {
    static let reads = ["crud.read-pk.single", "crud.read-pk.batched"]
    static let writes = ["crud.insert.single", "crud.update.single"]
    static let lmdbFast: [Double] = [100, 104, 97, 101, 99, 103]
    static let lmdbSlow: [Double] = [300, 309, 294, 303, 298, 306]

    /// `lmdb` reads 3× faster than `sqlite`, `sqlite` writes 3× faster than `lmdb`, `grdb` a bit
    /// behind the best at each (the rounds wobble a little, differently per backend).
    static func tradingWins(grdb: Bool = true) -> RunResults {
        var cells: [CellResult] = []
        for w in reads {
            cells.append(VerdictTests.cell("lmdb", w, rounds: lmdbFast))
            cells.append(VerdictTests.cell("sqlite", w, rounds: lmdbSlow.reversed()))
            if grdb { cells.append(VerdictTests.cell("grdb", w, rounds: lmdbFast.map { $0 * 1.5 + 2 })) }
        }
        for w in writes {
            cells.append(VerdictTests.cell("lmdb", w, rounds: lmdbSlow))
            cells.append(VerdictTests.cell("sqlite", w, rounds: lmdbFast.reversed()))
            if grdb { cells.append(VerdictTests.cell("grdb", w, rounds: lmdbFast.map { $0 * 1.5 + 3 })) }
        }
        return CompareAndReportTests.results(cells)
    }

    @Test func aMixOfAllReadsRanksTheReadFastBackendFirst() throws {
        let choice = try BackendChoice(Self.tradingWins(), mix: WorkloadMix("reads=100"))
        #expect(choice.ranking.map(\.backend) == ["lmdb", "grdb", "sqlite"])
        #expect(choice.classes.map(\.mixClass.id) == ["reads"] && Set(choice.classes[0].workloads) == Set(Self.reads))
        #expect(abs(choice.ranking[0].score - 1) < 1e-12, "fastest on every read workload")
        let sqlite = try #require(choice.ranking[2].versusBest)
        #expect(sqlite.outcome == .slower && sqlite.ratio.value > 2.8 && sqlite.ratio.value < 3.2)
        #expect(choice.ranking[1].versusBest?.outcome == .slower)
        let md = choice.markdown()
        #expect(md.contains("| 1 | `lmdb` |") && md.contains("▼ slower") && md.contains("### What decides it"))
    }

    @Test func weightsChangeTheOrderWhenTwoBackendsTradeWins() throws {
        let results = Self.tradingWins(grdb: false)
        let readHeavy = try BackendChoice(results, mix: WorkloadMix("reads=80,writes=20"))
        let writeHeavy = try BackendChoice(results, mix: WorkloadMix("reads=20,writes=80"))
        #expect(readHeavy.ranking.map(\.backend) == ["lmdb", "sqlite"])
        #expect(writeHeavy.ranking.map(\.backend) == ["sqlite", "lmdb"])
        // 3^0.8 ÷ 3^0.2 = 3^0.6 either way.
        for c in [readHeavy, writeHeavy] {
            let versus = try #require(c.ranking[1].versusBest)
            #expect(abs(versus.ratio.value - pow(3, 0.6)) < 0.05 && versus.outcome == .slower, "\(versus)")
        }
        // Half and half: neither leads by much, and both classes show in what decides it.
        let even = try BackendChoice(results, mix: WorkloadMix("reads=1,writes=1"))
        #expect(abs(log(even.ranking[1].score / even.ranking[0].score)) < 0.05)
        let md = even.markdown()
        #expect(md.contains("- **reads** (50%") && md.contains("- **writes** (50%"))
    }

    @Test func theFactorsOfWhatDecidesItMultiplyToTheRatio() throws {
        let choice = try BackendChoice(Self.tradingWins(), mix: WorkloadMix("reads=70,writes=30"))
        let product = choice.classes.flatMap { choice.contributions($0) }.map(\.factor).reduce(1, *)
        let ratio = try #require(choice.ranking[1].versusBest?.ratio.value)
        #expect(abs(product - ratio) < 1e-9)
        let reads = choice.contributions(choice.classes[0])
        #expect(reads.count == 2 && abs(reads[0].weight - 0.35) < 1e-12)
    }

    @Test func badMixesAreErrors() throws {
        func message(_ spec: String) -> String {
            do { _ = try WorkloadMix(spec); return "" } catch { return "\(error)" }
        }
        #expect(message("reads=80,flights=20").contains("unknown class 'flights'") && message("flights=1").contains("known: reads, queries, scans"))
        #expect(message("reads=-5").contains("must be a number ≥ 0, not '-5'"))
        #expect(message("reads=lots").contains("not 'lots'") && message("reads=nan").contains("not 'nan'"))
        #expect(message("reads=0,writes=0").contains("sum to 0"))
        #expect(message("reads").contains("not CLASS=SHARE") && message("reads=1,,writes=1").contains("not CLASS=SHARE"))
        #expect(message("reads=1,READS=2").contains("appears twice"))
        let mix = try WorkloadMix(" reads=80%, writes=15 ,scans=5,queries=0")
        #expect(mix.shares.map(\.mixClass.id) == ["reads", "writes", "scans"])
        #expect(zip(mix.shares.map(\.share), [0.8, 0.15, 0.05]).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(mix.description == "reads 80%, writes 15%, scans 5%")
    }

    @Test func aYCSBPropertyFileGivesTheMix() throws {
        let e = try WorkloadMix(properties: try String(contentsOf: Bench.root.appendingPathComponent("Fixtures/ycsb/workloade"), encoding: .utf8),
                                source: "workloade")
        #expect(e.description == "inserts 5%, scans 95%")
        #expect(e.notes.contains { $0.contains("do not change the mix: workload, recordcount") })
        let f = try WorkloadMix(properties: "readproportion=0.5\nupdateproportion=0\nreadmodifywriteproportion=0.5\nlatency.zone=eu\n", source: "f")
        #expect(f.description == "reads 75%, updates 25%", "a read-modify-write is a read and an update")
        #expect(f.notes.contains { $0.contains("not properties of YCSB's core workload: latency.zone (line 4)") })
        let defaults = try WorkloadMix(properties: "scanproportion=0.05\n", source: "d")
        #expect(defaults.description == "reads 90.5%, updates 4.8%, scans 4.8%", "YCSB's defaults: read 0.95, update 0.05")
        #expect(defaults.notes.contains { $0.contains("readproportion not set") })
        func message(_ text: String) -> String {
            do { _ = try WorkloadMix(properties: text, source: "w"); return "" } catch { return "\(error)" }
        }
        #expect(message("readproportion=1\n# a comment\nscanproportion\n").hasPrefix("w:3:"))
        #expect(message("readproportion=1\nupdateproportion=half\n").contains("w:2: updateproportion must be a number ≥ 0, not 'half'"))
        #expect(message("readproportion=0\nupdateproportion=0\n").contains("sum to 0"))
    }

    @Test func aClassTheResultsLackIsLeftOutWithANote() throws {
        let results = Self.tradingWins()
        let choice = try BackendChoice(results, mix: WorkloadMix("reads=40,concurrent=50,writes=10"))
        #expect(choice.classes.map(\.mixClass.id) == ["reads", "writes"])
        #expect(abs(choice.classes[0].share - 0.8) < 1e-12 && abs(choice.classes[1].share - 0.2) < 1e-12)
        #expect(choice.notes.contains { $0.contains("`concurrent` (50%) is left out") })
        #expect(choice.markdown().contains("is left out"))
        #expect(throws: BenchError.self) { try BackendChoice(results, mix: WorkloadMix("concurrent=1,migrations=1")) }
        #expect(throws: BenchError.self) { try BackendChoice(results, mix: WorkloadMix("reads=1"), scale: "enormous") }
    }

    @Test func aBackendMissingAClassIsNotRanked() throws {
        var results = Self.tradingWins()
        results.cells.removeAll { $0.target.name == "grdb" && Self.writes.contains($0.workload) }
        let choice = try BackendChoice(results, mix: WorkloadMix("reads=50,writes=50"))
        #expect(choice.ranking.map(\.backend).sorted() == ["lmdb", "sqlite"])
        #expect(choice.notes.contains { $0.contains("`grdb` is not ranked: it measured no workload of `writes`") })
    }

    @Test func workloadsMeasuredOnceRankButDoNotDecide() throws {
        let results = CompareAndReportTests.results(Self.reads.flatMap { w in
            [VerdictTests.cell("lmdb", w, rounds: [100]), VerdictTests.cell("sqlite", w, rounds: [300])]
        })
        let choice = try BackendChoice(results, mix: WorkloadMix("reads=1"))
        #expect(choice.ranking.map(\.backend) == ["lmdb", "sqlite"] && choice.ranking[1].versusBest == nil)
        #expect(choice.markdown().contains("| 2 | `sqlite` | 3.00× | – | ? undecided: no workload that both measured more than once |"))
    }

    @Test func theClassesFollowTheRecordedUseCases() throws {
        let results = try RunResults.read(Bench.root.appendingPathComponent("Reports/reference.json").path)
        func members(_ id: String) throws -> Set<String> {
            let c = try #require(MixClass.named(id))
            return Set(results.workloads.filter(c.includes).map(\.name))
        }
        #expect(try members("reads") == ["crud.read-pk.single", "crud.read-pk.batched", "crud.read-pk.hot"])
        #expect(try members("scans") == ["query.date-range", "query.sort-page", "query.full-scan", "rows.fetch"])
        #expect(try members("queries").count == 9 && members("queries").allSatisfy { $0.hasPrefix("query.") })
        #expect(try members("inserts") == ["crud.insert.single", "crud.insert.batched", "batch.bulk-insert", "batch.chunked-insert", "rows.insert"])
        #expect(try members("updates") == ["crud.update.single", "crud.update.batched", "batch.update-where"])
        #expect(try members("deletes") == ["crud.delete.single", "crud.delete.batched", "batch.delete-where"])
        #expect(try members("writes").isSuperset(of: members("inserts").union(members("updates"))) && members("writes").contains("crud.upsert.single"))
        #expect(try members("transactions").allSatisfy { $0.hasSuffix(".single") } && members("concurrent").count == 8)
        #expect(try !MixClass.all.map { try members($0.id) }.joined().contains { $0.hasPrefix("ycsb.") || $0 == "rows.load" })
    }

    @Test func weightedMeansOfLogRatios() throws {
        let a = LogRatio(mean: log(2), standardError: 0.1, degreesOfFreedom: 4, samples: 5)
        let b = LogRatio(mean: log(4), standardError: 0.2, degreesOfFreedom: 9, samples: 10)
        let equal = try #require(LogRatio.weightedMean(of: [(a, weight: 3), (b, weight: 3)]))
        let mean = try #require(LogRatio.mean(of: [a, b]))
        #expect(abs(equal.mean - mean.mean) < 1e-12 && abs(equal.standardError - mean.standardError) < 1e-12)
        #expect(abs(equal.degreesOfFreedom - mean.degreesOfFreedom) < 1e-9)
        let w = try #require(LogRatio.weightedMean(of: [(a, weight: 0.8), (b, weight: 0.2), (b, weight: 0)]))
        #expect(abs(w.mean - (0.8 * log(2) + 0.2 * log(4))) < 1e-12)
        #expect(abs(w.standardError - (0.64 * 0.01 + 0.04 * 0.04).squareRoot()) < 1e-12 && w.samples == 5)
        let v1 = 0.64 * 0.01, v2 = 0.04 * 0.04
        #expect(abs(w.degreesOfFreedom - (v1 + v2) * (v1 + v2) / (v1 * v1 / 4 + v2 * v2 / 9)) < 1e-9)
        #expect(LogRatio.weightedMean(of: [(a, weight: 0)]) == nil && LogRatio.weightedMean(of: [(a, weight: -1)]) == nil)
    }

    @Test func theCommandRanksTheReferenceResults() throws {
        let run = try Bench.run(["choose", "--mix", "reads=80,writes=15,scans=5", "Reports/reference.json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("## Backends for reads 80%, writes 15%, scans 5%"))
        #expect(run.out.contains("| rank | backend | score | × best (interval) | against the best |"))
        #expect(run.out.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("`") }.count == 5, "a row per backend")
        #expect(run.out.contains("### What decides it") && run.out.contains("- **scans** (5%"))
        let ycsb = try Bench.run(["choose", "--properties", "Fixtures/ycsb/workloadb", "Reports/reference.json"])
        #expect(ycsb.status == 0 && ycsb.out.hasPrefix("## Backends for reads 95%, updates 5%"), "\(ycsb.err)")
        let bad = try Bench.run(["choose", "--mix", "reads=80,flights=20", "Reports/reference.json"])
        #expect(bad.status == 64 && bad.err.contains("unknown class 'flights'") && bad.err.contains("migrations"))
        let neither = try Bench.run(["choose", "Reports/reference.json"])
        #expect(neither.status == 64 && neither.err.contains("--mix or --properties"))
        let missing = try Bench.run(["choose", "--mix", "reads=1", "no-such-results.json"])
        #expect(missing.status == 1 && missing.err.contains("cannot read no-such-results.json"))
        let help = try Bench.run(["choose", "--help"])
        #expect(help.status == 0 && help.out.contains("--mix reads=80,writes=15,scans=5") && help.out.contains("readmodifywriteproportion"))
    }
}

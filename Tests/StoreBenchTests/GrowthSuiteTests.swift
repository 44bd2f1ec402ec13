import Foundation
@testable import StoreBench
import StoreBenchKit
import StoreConformance
import Testing

/// The growth sweeps: their record counts, the slope fit and its verdicts, and a real sweep on
/// two backends with the report's section.
@Suite("Growth suite")
struct GrowthSuiteTests {
    @Test func pointsSpanTheLimitsFromAFullPage() {
        let standard = DatasetSpec.GrowthLimits.standard
        #expect(GrowthWorkloads.points(standard, valueBytes: 100) == [100, 1_000, 10_000, 100_000])
        #expect(GrowthWorkloads.points(standard, valueBytes: 4_096) == [32, 256, 2_048, 16_384])
        #expect(GrowthWorkloads.points(standard, valueBytes: 65_536) == [32, 102, 323, 1_024])
        let sweep = DatasetSpec.GrowthLimits(maxRecords: 1_000_000, maxBytes: 4 << 30)
        #expect(GrowthWorkloads.points(sweep, valueBytes: 100) == [1_000, 10_000, 100_000, 1_000_000])
        for size in GrowthWorkloads.valueSizes {
            let p = GrowthWorkloads.points(sweep, valueBytes: size)
            #expect(p.count == 4 && p.first! >= 32 && zip(p, p.dropFirst()).allSatisfy { $0 < $1 } && p.last! * size <= 4 << 30)
        }
    }

    /// A cell whose figure `f` is `value(n)` at the counts `ns`, in each of `rounds` rounds (scaled by each round's factor).
    static func cell(_ ns: [Double], _ f: (Int) -> Figure, _ value: (Double) -> Double, factors: [Double]) -> CellResult {
        typealias F = GrowthSuite.Figures
        var c = VerdictTests.cell("lmdb", "growth.100b", rounds: factors.map { _ in 100 })
        var figures: [String: [Double]] = [:]
        for i in F.points {
            figures[F.records(i).name] = factors.map { _ in ns[i] }
            figures[f(i).name] = factors.map { value(ns[i]) * $0 }
        }
        c.roundFigures = figures
        return c
    }

    @Test func theSlopeFitsPowerLawsAndTheVerdictFollowsItsInterval() throws {
        let ns = [100.0, 1_000, 10_000, 100_000], F = GrowthSuite.Figures.read
        let flat = try #require(GrowthFit(Self.cell(ns, F, { _ in 500 }, factors: [1, 1.1, 0.9, 1.05, 0.95]), F))
        #expect(abs(flat.slope.value) < 1e-9 && flat.verdict() == "flat")
        let linear = try #require(GrowthFit(Self.cell(ns, F, { $0 * 3 }, factors: [1, 1.2, 0.8, 1.1, 0.9]), F))
        #expect(abs(linear.slope.value - 1) < 1e-9 && linear.verdict() == "grows about in proportion to N")
        let logN = try #require(GrowthFit(Self.cell(ns, F, { 100 * log($0) }, factors: [1, 1, 1, 1, 1]), F))
        #expect(logN.slope.value > 0.1 && logN.slope.value < 0.3 && logN.verdict() == "grows", "log N: a small positive slope")
        // Rounds that disagree in direction leave it undecided.
        var mixed = Self.cell(ns, F, { _ in 500 }, factors: [1, 1, 1, 1, 1])
        mixed.roundFigures![F(3).name] = [500 * 8, 500 / 8, 500, 500 * 8, 500 / 8]
        #expect(try #require(GrowthFit(mixed, F)).verdict() == "undecided")
        // Three rounds agree, but their interval holds the median at 75% only: too few to decide.
        let three = try #require(GrowthFit(Self.cell(ns, F, { $0 * 3 }, factors: [1, 1.2, 0.8]), F))
        #expect(three.slope.confidence < GrowthFit.decidingConfidence && three.verdict() == "undecided")
        #expect(GrowthFit.leastSquaresSlope([(1, 2)]) == nil && GrowthFit.leastSquaresSlope([(1, 2), (1, 3)]) == nil)
    }

    @Test func aSweepOnTwoBackendsReportsEveryPointAndItsSlopes() throws {
        let out = try TemporaryDirectory("growth-run")
        let r = try Bench.run(["run", "--scale", "tiny", "--backends", "sqlite,lmdb", "--workloads", "growth.100b", "--rounds", "2",
                               "--repetitions", "1", "--warmup", "1", "--no-conformance", "--no-allocations", "--out", out.url.path])
        #expect(r.status == 0, "\(r.err)")
        let results = try RunResults.read(out.url.appendingPathComponent("latest.json").path)
        typealias F = GrowthSuite.Figures
        for b in ["sqlite", "lmdb"] {
            let c = try #require(results.cell(b, "growth.100b", "tiny"))
            #expect(c.status == .ok && c.operations == GrowthWorkloads.reads, "\(b): the reads at the largest count are the cell's operations")
            #expect(F.points.map { c.figure(F.records($0)) } == [32, 127, 504, 2_000].map(Double.init), "\(b)")
            for i in F.points { #expect((c.figure(F.read(i)) ?? 0) > 0 && (c.figure(F.insert(i)) ?? 0) > 0 && (c.figure(F.query(i)) ?? 0) > 0) }
            #expect(c.roundFigures?[F.read(3).name]?.count == 2 && GrowthFit(c, F.read) != nil)
        }
        let page = try String(contentsOf: out.url.appendingPathComponent("latest/growth.md"), encoding: .utf8)
        #expect(page.contains("## Cost as the data grows") && page.contains("### 100 B records (`growth.100b`)"))
        #expect(page.contains("| read at 32 | read at 127 | read at 504 | read at 2,000 | read slope |"))
        #expect(page.contains("Reads by key as the store grows from 32 to 2,000 records: `sqlite` "))
        let chart = try #require(page.firstMatch(of: /!\[([^\]]+)\]\((growth-read-growth-100b\.svg)\)/), "the log-log chart")
        let svg = try String(contentsOf: out.url.appendingPathComponent("latest/\(chart.output.2)"), encoding: .utf8)
        try SVGReportTests().checkChart(svg, alt: String(chart.output.1), link: String(chart.output.2))
        #expect(SVGInspection(svg).series.sorted() == ["lmdb", "sqlite"])
    }
}

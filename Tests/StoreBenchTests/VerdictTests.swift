import Foundation
@testable import StoreBench
import Testing

/// Intervals, verdicts and their agreement between runs, on crafted rounds.
@Suite struct VerdictTests {
    @Test func orderStatisticIntervals() {
        let six = Estimate(medianOf: [1.02, 0.97, 1.10, 1.01, 0.99, 1.03])
        #expect(abs(six.value - 1.015) < 1e-12 && six.low == 0.97 && six.high == 1.10)
        #expect(abs(six.confidence - 0.96875) < 1e-12)
        let nine = Estimate(medianOf: (1...9).map(Double.init))
        #expect(nine.low == 2 && nine.high == 8, "nine samples drop one from each end")
        #expect(nine.confidence >= 0.95)
        let five = Estimate(medianOf: [5, 1, 4, 2, 3])
        #expect(five.low == 1 && five.high == 5 && abs(five.confidence - 0.9375) < 1e-12)
        let one = Estimate(medianOf: [7])
        #expect(one.confidence == 0 && !one.isSignificantlyAbove(1) && one.isAbove(1))
    }

    /// A backend's pooled cell from its per-round times (ns per operation, 1,000 operations).
    static func cell(_ target: String, _ workload: String, rounds: [Double]) -> CellResult {
        CellResult.pooledRounds(rounds.map { ns in
            var c = CompareAndReportTests.cell(target, workload, ns: ns, cv: 0)
            c.samples = [ns * 1_000 / 1e9]
            c.roundNanos = nil
            c.time = nil
            return c
        })[0]
    }

    @Test func aWinnerOnlyWhenEveryRoundAgreesAtSixRounds() throws {
        let lmdb = Self.cell("lmdb", "query.count", rounds: [100, 110, 90, 105, 95, 100])
        let sqlite = Self.cell("sqlite", "query.count", rounds: [150, 160, 140, 150, 150, 150])
        let clear = try #require(WorkloadVerdict(workload: "query.count", cells: [sqlite, lmdb]))
        #expect(clear.isSignificant && clear.winner.target == .backend("lmdb") && clear.tied == ["lmdb"])

        // One round in six where sqlite was faster: the paired interval reaches below 1.
        let close = Self.cell("sqlite", "query.count", rounds: [150, 160, 140, 150, 150, 80])
        let tie = try #require(WorkloadVerdict(workload: "query.count", cells: [close, lmdb]))
        #expect(!tie.isSignificant)
        #expect(Set(tie.tied) == ["lmdb", "sqlite"])
        let md = ResultsView(CompareAndReportTests.results([close, lmdb])).summary()
        #expect(md.contains("tie: `lmdb`, `sqlite`"), "\(md)")
    }

    @Test func oneRoundNeverDecides() throws {
        let a = CompareAndReportTests.cell("lmdb", "query.count", ns: 100, cv: 0)
        var b = CompareAndReportTests.cell("sqlite", "query.count", ns: 300, cv: 0)
        b.time = Estimate(medianOf: [300])
        let v = try #require(WorkloadVerdict(workload: "query.count", cells: [a, b]))
        #expect(!v.isSignificant, "a single reading is not evidence")
    }

    @Test func agreementCountsAContradiction() {
        let base = CompareAndReportTests.results([
            Self.cell("lmdb", "query.count", rounds: [100, 100, 100, 100, 100, 100]),
            Self.cell("sqlite", "query.count", rounds: [200, 200, 200, 200, 200, 200]),
            Self.cell("lmdb", "rows.fetch", rounds: [100, 100, 100, 100, 100, 100]),
            Self.cell("sqlite", "rows.fetch", rounds: [200, 200, 200, 200, 200, 200]),
        ])
        let new = CompareAndReportTests.results([
            Self.cell("lmdb", "query.count", rounds: [300, 300, 300, 300, 300, 300]),
            Self.cell("sqlite", "query.count", rounds: [200, 200, 200, 200, 200, 200]),
            Self.cell("lmdb", "rows.fetch", rounds: [100, 100, 100, 100, 100, 100]),
            Self.cell("sqlite", "rows.fetch", rounds: [200, 200, 200, 200, 200, 200]),
        ])
        let a = VerdictAgreement(base: base, new: new)
        #expect(a.compared == 2 && a.significantInBase == 2 && a.significantInNew == 2 && a.agreeing == 1)
        #expect(a.contradictions.count == 2)
        #expect(a.contradictions.contains { $0.workload == "query.count" && $0.backend == "lmdb" && $0.wonInBase })
        #expect(a.markdown().contains("2 contradiction(s)"))
    }

    @Test func tiersGroupStatisticalTies() {
        var cells: [String: [CellResult]] = [:]
        for w in ["query.count", "rows.fetch", "query.full-scan"] {
            cells[w] = [Self.cell("lmdb", w, rounds: [100, 101, 99, 100, 102, 98]),
                        Self.cell("sqlite", w, rounds: [101, 99, 100, 103, 97, 100]),
                        Self.cell("grdb", w, rounds: [300, 310, 290, 305, 295, 300])]
        }
        let r = GroupRanking(cells, backends: ["sqlite", "lmdb", "grdb"])
        #expect(r.tiers.count == 2)
        #expect(Set(r.tiers[0].map(\.backend)) == ["lmdb", "sqlite"])
        #expect(r.tiers[1].map(\.backend) == ["grdb"])
    }
}

import Foundation
@testable import StoreBench
import StoreConformance
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
        #expect(one.confidence == 0 && one.isAbove(1))
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

    static let rule = DecisionRule(margin: 0.05, comparisons: 10)

    @Test func studentTMatchesTables() {
        #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: 4) - 2.7764) < 1e-3)
        #expect(abs(StudentT.quantile(0.995, degreesOfFreedom: 10) - 3.1693) < 1e-3)
        #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: 1_000) - 1.9623) < 1e-3)
        #expect(abs(StudentT.cdf(0, degreesOfFreedom: 3) - 0.5) < 1e-12)
        #expect(abs(StudentT.cdf(-2.7764, degreesOfFreedom: 4) - 0.025) < 1e-4)
    }

    @Test func logRatiosPairedUnpairedAndMeans() throws {
        let paired = try #require(LogRatio(paired: [200, 220, 180], over: [100, 110, 90]))
        #expect(abs(paired.ratio - 2) < 1e-12 && paired.standardError < 1e-12 && paired.degreesOfFreedom == 2)
        let welch = try #require(LogRatio(unpaired: [2, 2.2, 1.8, 2.1], over: [1, 1.1, 0.9]))
        #expect(welch.ratio > 1.9 && welch.ratio < 2.1 && welch.degreesOfFreedom > 2)
        #expect(LogRatio(paired: [1, 2], over: [1]) == nil && LogRatio(unpaired: [0], over: [1]) == nil)
        let mean = try #require(LogRatio.mean(of: [paired, welch]))
        #expect(abs(mean.mean - (paired.mean + welch.mean) / 2) < 1e-12)
    }

    @Test func decisionsFollowTheMargin() throws {
        func decide(_ slow: [Double], _ fast: [Double]) throws -> Comparison {
            Self.rule.decide(try #require(LogRatio(paired: slow, over: fast)))
        }
        let base: [Double] = [100, 104, 97, 101, 99, 103, 98, 100]
        #expect(try decide(base.map { $0 * 2 + Double(Int($0) % 3) }, base).outcome == .slower)
        #expect(try decide(base, base.map { $0 * 2 + Double(Int($0) % 3) }).outcome == .faster)
        let same = try decide(base.map { $0 * 1.001 + Double(Int($0) % 2) * 0.2 }, base)
        #expect(same.outcome == .equivalent, "\(same)")
        // 3% apart with a tight interval: true, and useless, so not a win.
        let small = try decide(base.map { $0 * 1.03 + Double(Int($0) % 2) * 0.3 }, base)
        #expect(small.outcome != .slower)
        // Noisy: undecided, and it says how many rounds would decide it.
        let noisy = try decide([150, 90, 200, 110, 170], [100, 100, 100, 100, 100])
        #expect(noisy.outcome == .undecided && noisy.samplesNeeded.map { $0 > 5 } == true)
        // One reading never decides.
        #expect(try decide([300], [100]).outcome == .undecided)
    }

    @Test func noEquivalentLabelBesideAnIntervalBeyondTheMargin() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let n = 2 + Int(rng.next() % 10)
            let factor = 0.8 + Double(rng.next() % 400) / 1_000
            let fast = (0..<n).map { _ in 100 + Double(rng.next() % 30) }
            let slow = fast.map { $0 * factor + Double(rng.next() % 20) }
            let c = Self.rule.decide(try #require(LogRatio(paired: slow, over: fast)))
            switch c.outcome {
            case .equivalent: #expect(c.ratio.low >= 1 / 1.05 && c.ratio.high <= 1.05)
            case .slower: #expect(c.ratio.low > 1.05)
            case .faster: #expect(c.ratio.high < 1 / 1.05)
            case .undecided: #expect(c.ratio.low <= 1.05 || c.ratio.high >= 1 / 1.05)
            }
        }
    }

    @Test func aWinnerOnlyWhenEveryOtherIsDecidedlySlower() throws {
        let lmdb = Self.cell("lmdb", "query.count", rounds: [100, 110, 90, 105, 95, 100])
        let sqlite = Self.cell("sqlite", "query.count", rounds: [150, 165, 135, 158, 143, 150])
        let clear = try #require(WorkloadVerdict(workload: "query.count", cells: [sqlite, lmdb], rule: Self.rule))
        #expect(clear.isSignificant && clear.winner.target == .backend("lmdb") && clear.leaders == ["lmdb"])

        // One round in six where sqlite was faster: undecided, not a win and not a tie.
        let close = Self.cell("sqlite", "query.count", rounds: [150, 160, 140, 150, 150, 80])
        let open = try #require(WorkloadVerdict(workload: "query.count", cells: [close, lmdb], rule: Self.rule))
        #expect(!open.isSignificant && open.undecided == ["sqlite"])
        let md = ResultsView(CompareAndReportTests.results([close, lmdb])).verdictTable(["query.count"], scale: "quick")
        #expect(md.contains("undecided: `lmdb` against `sqlite`"), "\(md)")
    }

    @Test func oneRoundNeverDecides() throws {
        var a = CompareAndReportTests.cell("lmdb", "query.count", ns: 100, cv: 0)
        var b = CompareAndReportTests.cell("sqlite", "query.count", ns: 300, cv: 0)
        (a.roundNanos, b.roundNanos, a.samples, b.samples) = (nil, nil, [100e-6], [300e-6])
        b.time = Estimate(medianOf: [300])
        let v = try #require(WorkloadVerdict(workload: "query.count", cells: [a, b], rule: Self.rule))
        #expect(!v.isSignificant, "a single reading is not evidence")
    }

    @Test func agreementCountsAContradiction() {
        let base = CompareAndReportTests.results([
            Self.cell("lmdb", "query.count", rounds: [100, 101, 99, 100, 102, 98]),
            Self.cell("sqlite", "query.count", rounds: [200, 203, 199, 201, 197, 200]),
            Self.cell("lmdb", "rows.fetch", rounds: [100, 101, 99, 100, 102, 98]),
            Self.cell("sqlite", "rows.fetch", rounds: [200, 203, 199, 201, 197, 200]),
        ])
        let new = CompareAndReportTests.results([
            Self.cell("lmdb", "query.count", rounds: [300, 303, 297, 301, 299, 300]),
            Self.cell("sqlite", "query.count", rounds: [200, 203, 199, 201, 197, 200]),
            Self.cell("lmdb", "rows.fetch", rounds: [100, 101, 99, 100, 102, 98]),
            Self.cell("sqlite", "rows.fetch", rounds: [200, 203, 199, 201, 197, 200]),
        ])
        let a = VerdictAgreement(base: base, new: new)
        #expect(a.compared == 2 && a.significantInBase == 2 && a.significantInNew == 2 && a.agreeing == 1)
        #expect(a.contradictions.count == 1)
        #expect(a.contradictions.contains { $0.workload == "query.count" && $0.backend == "lmdb" && $0.wonInBase })
        #expect(a.markdown().contains("1 contradiction(s)"))
    }

    @Test func tiersFollowTheIntervals() {
        var cells: [String: [CellResult]] = [:]
        for w in ["query.count", "rows.fetch", "query.full-scan"] {
            cells[w] = [Self.cell("lmdb", w, rounds: [100, 101, 99, 100, 102, 98]),
                        Self.cell("sqlite", w, rounds: [101, 99, 100, 103, 97, 100]),
                        Self.cell("grdb", w, rounds: [300, 310, 290, 305, 295, 300])]
        }
        let r = GroupRanking(cells, backends: ["sqlite", "lmdb", "grdb"], rule: Self.rule)
        #expect(r.tiers.count == 2)
        #expect(Set(r.tiers[0].map { $0.backend }) == ["lmdb", "sqlite"])
        #expect(r.tiers[1].map { $0.backend } == ["grdb"])
        // Nobody in the leader's tier is decidedly slower than the leader.
        #expect(r.tiers[0].allSatisfy { $0.versusLeader?.outcome != .slower })
    }
}

import Foundation
import StoreConformance
import StoreBenchKit

/// Who won one workload at one scale, and whether the evidence says so.
///
/// The winner is the backend with the lowest median time. It is *significant* only when the
/// runner-up's time ÷ the winner's (paired round by round) has an interval wholly above 1 at
/// 90% confidence or more (six rounds give 96.9%; one round's three repetitions never decide);
/// otherwise the backends whose ratio to the winner reaches down to 1 are `tied` with it.
struct WorkloadVerdict {
    let workload: String
    /// Backend cells, fastest first.
    let ranked: [CellResult]
    /// The runner-up's time ÷ the winner's.
    let factor: Estimate?
    /// The winner and every backend not shown slower than it.
    let tied: [String]

    var winner: CellResult { ranked[0] }
    var runnerUp: CellResult? { ranked.dropFirst().first }
    var isSignificant: Bool { factor?.isSignificantlyAbove(1) == true }

    init?(workload: String, cells: [CellResult]) {
        let ranked = cells.filter { $0.isBackend && $0.isOK && $0.nanosPerOperation != nil }
            .sorted { $0.nanosPerOperation! < $1.nanosPerOperation! }
        guard let first = ranked.first else { return nil }
        self.workload = workload
        self.ranked = ranked
        factor = ranked.dropFirst().first?.ratio(to: first)
        tied = ranked.filter { $0.target == first.target || $0.ratio(to: first)?.isSignificantlyAbove(1) != true }.map(\.target.name)
    }

    /// Whether `backend` is shown slower than some other backend here.
    func isSignificantLoser(_ backend: String) -> Bool {
        guard let mine = ranked.first(where: { $0.target.name == backend }) else { return false }
        return ranked.contains { $0.target != mine.target && mine.ratio(to: $0)?.isSignificantlyAbove(1) == true }
    }
}

/// Backends ranked over a group of workloads by the geometric mean of their time ÷ the
/// fastest backend's, with intervals from a paired bootstrap over rounds, and grouped into
/// tiers of statistical ties.
struct GroupRanking {
    struct Entry {
        let backend: String
        /// Geometric mean of time ÷ the fastest backend's, over the group's workloads.
        let score: Double
        /// This backend's score ÷ the tier leader's, with its bootstrap interval.
        let versusLeader: Estimate?
    }

    /// Tiers, best first; the backends of one tier are not shown apart from its leader.
    let tiers: [[Entry]]
    let workloads: Int

    /// `cells` maps workload → its backend cells at one scale.
    init(_ cells: [String: [CellResult]], backends: [String], resamples: Int = 1_000) {
        workloads = cells.count
        // Per workload, each backend's per-round times (rounds are paired across backends).
        let perWorkload: [[String: [Double]]] = cells.keys.sorted().compactMap { w in
            var m: [String: [Double]] = [:]
            for c in cells[w]! where c.isOK { if let r = c.perRoundNanos, !r.isEmpty { m[c.target.name] = r } }
            return m.count == 0 ? nil : m
        }
        func scores(_ pick: (Int) -> Int) -> [String: Double] {
            var logSum: [String: Double] = [:], n: [String: Int] = [:]
            for m in perWorkload {
                let rounds = m.values.map(\.count).min() ?? 0
                guard rounds > 0 else { continue }
                let idx = (0..<rounds).map { _ in pick(rounds) }
                let medians = m.mapValues { r in SampleStatistics(idx.map { r[$0] }).median }
                guard let best = medians.values.min(), best > 0 else { continue }
                for (b, t) in medians { logSum[b, default: 0] += log(t / best); n[b, default: 0] += 1 }
            }
            return logSum.reduce(into: [:]) { $0[$1.key] = exp($1.value / Double(n[$1.key]!)) }
        }
        // Fewer than five samples per workload cannot support a 95% bootstrap interval: all tie.
        let fewestRounds = perWorkload.flatMap { $0.values.map(\.count) }.min() ?? 0
        let confidence = fewestRounds >= 5 ? 0.95 : 0
        var identityRound = 0
        let point = scores { count in defer { identityRound += 1 }; return identityRound % count }
        var rng = SplitMix64(seed: 0x5EED)
        let replicates = (0..<resamples).map { _ in scores { Int(rng.next() % UInt64($0)) } }
        let order = backends.filter { point[$0] != nil }.sorted { point[$0]! < point[$1]! }
        var tiers: [[Entry]] = []
        var rest = order
        while let leader = rest.first {
            var tier = [Entry(backend: leader, score: point[leader]!, versusLeader: nil)]
            for b in rest.dropFirst() {
                let ratios = replicates.compactMap { r in r[b].flatMap { x in r[leader].map { x / $0 } } }.sorted()
                guard !ratios.isEmpty else { continue }
                let low = ratios[Int(Double(ratios.count - 1) * 0.025)], high = ratios[Int(Double(ratios.count - 1) * 0.975)]
                let e = Estimate(value: point[b]! / point[leader]!, low: low, high: high, confidence: confidence)
                if !e.isSignificantlyAbove(1) { tier.append(Entry(backend: b, score: point[b]!, versusLeader: e)) }
            }
            tiers.append(tier)
            rest.removeAll { b in tier.contains { $0.backend == b } }
        }
        self.tiers = tiers
    }
}

extension CellResult {
    /// Time per operation of each round, or of each repetition when the cell ran in one round
    /// (or the median alone, when a file kept no samples).
    var perRoundNanos: [Double]? {
        if let r = roundNanos, !r.isEmpty { return r }
        guard let ops = operations, ops > 0, let s = samples, !s.isEmpty else { return nanosPerOperation.map { [$0] } }
        return s.map { $0 * 1e9 / Double(ops) }
    }
}

import Foundation
import StoreConformance
import StoreBenchKit

/// One workload at one scale decided: every backend's time ÷ the fastest's with its interval
/// at the report's confidence, and what that lets a reader conclude (`DecisionRule`).
///
/// The fastest is the backend with the lowest median time. It *wins* only when every other
/// backend is decidedly slower (beyond the margin); the *leaders* are it and every backend
/// not decidedly slower than it (equivalent or undecided).
struct WorkloadVerdict {
    let workload: String
    /// Backend cells, fastest first.
    let ranked: [CellResult]
    /// Each backend but the fastest: its time ÷ the fastest's, decided.
    let versusFastest: [String: Comparison]

    var winner: CellResult { ranked[0] }
    /// Whether the fastest is decidedly faster than every other backend.
    var isSignificant: Bool { ranked.count > 1 && versusFastest.values.allSatisfy { $0.outcome == .slower } }
    /// The fastest and every backend not decidedly slower than it.
    var leaders: [String] { ranked.map(\.target.name).filter { versusFastest[$0].map { $0.outcome != .slower } ?? true } }
    /// Backends equivalent to the fastest, and those undecided against it.
    var equivalent: [String] { ranked.map(\.target.name).filter { versusFastest[$0]?.outcome == .equivalent } }
    var undecided: [String] { ranked.map(\.target.name).filter { versusFastest[$0]?.outcome == .undecided } }

    init?(workload: String, cells: [CellResult], rule: DecisionRule) {
        let ranked = cells.filter { $0.isBackend && $0.isOK && $0.typicalNanos != nil }
            .sorted { $0.typicalNanos! < $1.typicalNanos! }
        guard let first = ranked.first else { return nil }
        self.workload = workload
        self.ranked = ranked
        var versus: [String: Comparison] = [:]
        for c in ranked.dropFirst() { versus[c.target.name] = c.logRatio(to: first).map(rule.decide) }
        versusFastest = versus
    }

    /// The rounds `backend`'s comparison would need to be decided, when known: its samples
    /// needed, scaled from samples to rounds (a cell compared through its per-interval times
    /// holds many samples per round).
    func roundsNeeded(_ backend: String) -> Int? {
        guard let c = versusFastest[backend], let needed = c.samplesNeeded, c.samples > 0 else { return nil }
        let rounds = Double(winner.roundNanos?.count ?? 1)
        return Int((rounds * Double(needed) / Double(c.samples)).rounded(.up))
    }

    /// The rounds the undecided comparisons would need (the largest), when known.
    var roundsNeeded: Int? { undecided.compactMap(roundsNeeded).max() }
}

/// Backends ranked over a group of workloads by the geometric mean of their time ÷ the
/// fastest backend's, and grouped into tiers that follow the intervals: each tier's members are
/// equivalent or undecided against its leader, and each later tier's members are decidedly
/// slower than the leader before them. A member's comparison with its leader is the mean of
/// the per-workload log ratios (`LogRatio.mean(of:)`), over the workloads both measured.
struct GroupRanking {
    struct Entry {
        let backend: String
        /// Geometric mean of time ÷ the fastest backend's, over the group's workloads.
        let score: Double
        /// This backend against the tier leader, decided (nil for the leader).
        let versusLeader: Comparison?
    }

    /// Tiers, best first.
    let tiers: [[Entry]]
    let workloads: Int

    /// `cells` maps workload → its backend cells at one scale. Only workloads every ranked
    /// backend measured count (a workload only some backends run, such as observation, would
    /// compare each over a different set), and only those measured more than once (a load).
    init(_ cells: [String: [CellResult]], backends: [String], rule: DecisionRule) {
        let shared = Self.shared(cells, backends: backends)
        workloads = shared.count
        let scores = Self.scores(shared)
        var rest = backends.filter { scores[$0] != nil }.sorted { scores[$0]! < scores[$1]! }
        var tiers: [[Entry]] = []
        while let leader = rest.first {
            var tier = [Entry(backend: leader, score: scores[leader]!, versusLeader: nil)]
            for b in rest.dropFirst() {
                let c = Self.compare(b, leader, shared, rule).map(rule.decide)
                if c?.outcome != .slower { tier.append(Entry(backend: b, score: scores[b]!, versusLeader: c)) }
            }
            tiers.append(tier)
            rest.removeAll { b in tier.contains { $0.backend == b } }
        }
        self.tiers = tiers
    }

    /// The workloads of `cells` that every backend measuring any of them measured, more than once.
    static func shared(_ cells: [String: [CellResult]], backends: [String]) -> [String: [CellResult]] {
        let ok = cells.mapValues { $0.filter { $0.isOK && $0.typicalNanos != nil && ($0.perRoundNanos?.count ?? 0) + ($0.intervalNanos?.count ?? 0) > 1 } }
        let present = Set(ok.values.flatMap { $0.map(\.target.name) }).intersection(backends)
        return ok.filter { _, cs in Set(cs.map(\.target.name)).isSuperset(of: present) }
    }

    /// Each backend's geometric mean over the workloads of its typical time ÷ the fastest's.
    static func scores(_ cells: [String: [CellResult]]) -> [String: Double] {
        var logSum: [String: Double] = [:], n: [String: Int] = [:]
        for cs in cells.values {
            guard let best = cs.compactMap(\.typicalNanos).min(), best > 0 else { continue }
            for c in cs { logSum[c.target.name, default: 0] += log(c.typicalNanos! / best); n[c.target.name, default: 0] += 1 }
        }
        return logSum.reduce(into: [:]) { $0[$1.key] = exp($1.value / Double(n[$1.key]!)) }
    }

    /// `backend` ÷ `leader` over the workloads both measured.
    static func compare(_ backend: String, _ leader: String, _ cells: [String: [CellResult]], _ rule: DecisionRule) -> LogRatio? {
        LogRatio.mean(of: cells.keys.sorted().compactMap { w in
            let cs = cells[w]!.filter(\.isOK)
            guard let b = cs.first(where: { $0.target.name == backend }), let l = cs.first(where: { $0.target.name == leader }) else { return nil }
            return b.logRatio(to: l).map(rule.moderated)
        })
    }
}

extension VariancePrior {
    /// The prior of the paired comparisons of every backend against the fastest, one list of
    /// cells per workload; nil when fewer than three have spread.
    static func fitting(workloads: [[CellResult]]) -> VariancePrior? {
        VariancePrior(fitting: workloads.flatMap { cells -> [LogRatio] in
            let ok = cells.filter { $0.isBackend && $0.isOK && ($0.typicalNanos ?? 0) > 0 }
            guard let fastest = ok.min(by: { $0.typicalNanos! < $1.typicalNanos! }) else { return [] }
            return ok.filter { $0.target != fastest.target }.compactMap { $0.logRatio(to: fastest) }
        })
    }
}

import Foundation
import StoreBenchKit

/// The backends of a results file ranked for an application's operation mix
/// (`storebench choose`), each decided against the best with the report's rule.
///
/// Each class of the mix stands for the compared workloads that count in it (`MixClass`). A
/// backend's **score** is the geometric mean over the classes, weighted by their shares, of its
/// geometric mean over each class's workloads of time ÷ the fastest backend's (`GroupRanking`'s
/// per-group score): 1 means fastest on every workload. The best-scoring backend is the
/// reference; each other backend's time ÷ the best's is the weighted mean of its per-workload
/// log ratios (`CellResult.logRatio(to:)`), each workload weighted by its classes' shares ÷ their
/// sizes, so that the ratio estimates the scores' ratio; each part is moderated by the rule's
/// prior first, as the report's are. It is decided by the results' `decisionRule` with this
/// ranking's comparisons (backends − 1) added to the report's Bonferroni count.
///
/// ```swift
/// let choice = try BackendChoice(results, mix: try WorkloadMix("reads=80,writes=15,scans=5"))
/// choice.ranking.first?.backend                 // the best for that mix
/// choice.ranking.dropFirst().map(\.versusBest)  // each decided against it
/// ```
public struct BackendChoice {
    /// A class of the mix as the results hold it.
    public struct ClassPart: Sendable {
        public let mixClass: MixClass
        /// Its share of the mix, scaled up when a class the results lack was left out.
        public let share: Double
        /// The compared workloads measured at the scale that stand for it.
        public let workloads: [String]
    }

    public struct Entry: Sendable {
        public let backend: String
        /// Weighted geometric mean over the classes of the per-class geometric mean of time ÷ the fastest.
        public let score: Double
        /// Time ÷ the best backend's over the mix, decided; nil for the best.
        public let versusBest: Comparison?
    }

    /// One workload's part of the gap between the two best backends.
    public struct Contribution: Sendable {
        public let workload: String
        /// The runner-up's time ÷ the best's, with its interval at the rule's confidence.
        public let ratio: Estimate
        /// Its weight in the runner-up's "× best": class share ÷ class size (summed over its
        /// classes), scaled over the workloads both measured.
        public let weight: Double
        /// Its factor in "× best": ratio^weight (the factors of every class multiply to it).
        public var factor: Double { exp(weight * log(ratio.value)) }
    }

    public let mix: WorkloadMix
    public let scale: String
    /// The report's rule with this ranking's comparisons added.
    public let rule: DecisionRule
    /// The classes used, in the mix's order.
    public let classes: [ClassPart]
    /// Best first.
    public let ranking: [Entry]
    /// What was left out or assumed, in sentences.
    public let notes: [String]
    /// Backend cells by workload, at `scale`.
    let cells: [String: [CellResult]]

    /// Ranks the backends of `results` at `scale` (the main scale by default). An error when the
    /// scale is not in the file, or the file holds no measured workload of any class of the mix.
    public init(_ results: RunResults, mix: WorkloadMix, scale: String? = nil) throws {
        let view = ResultsView(Suites.completing(results))
        let scale = scale ?? view.mainScale
        guard view.scales.contains(scale) else {
            throw BenchError("the results have no scale '\(scale)'; they have \(view.scales.joined(separator: ", "))")
        }
        var cells: [String: [CellResult]] = [:]
        for w in view.comparedWorkloads where !view.cells(w.name, scale).isEmpty { cells[w.name] = view.cells(w.name, scale) }
        var notes = mix.notes
        let classes = try Self.classes(mix, view.comparedWorkloads.filter { cells[$0.name] != nil }, scale, &notes)
        let scores = Self.scores(classes, cells, backends: view.backends, &notes)
        let order = view.backends.filter { scores[$0] != nil }.sorted { scores[$0]! < scores[$1]! }
        var rule = view.decisionRule
        rule.comparisons += max(0, order.count - 1)
        let weights = Self.weights(classes)
        ranking = order.enumerated().map { i, b in
            Entry(backend: b, score: scores[b]!,
                  versusBest: i == 0 ? nil : Self.compare(b, order[0], cells, weights, rule).map(rule.decide))
        }
        (self.mix, self.scale, self.rule, self.classes, self.notes, self.cells) = (mix, scale, rule, classes, notes, cells)
    }

    /// The mix's classes with their measured workloads; those without any are left out with a
    /// note, and the others' shares scaled up.
    static func classes(_ mix: WorkloadMix, _ measured: [RunResults.WorkloadInfo], _ scale: String,
                        _ notes: inout [String]) throws -> [ClassPart] {
        var kept: [(WorkloadMix.Share, [String])] = []
        for s in mix.shares {
            let ws = measured.filter { s.mixClass.includes($0) }.map(\.name)
            if ws.isEmpty {
                notes.append("`\(s.mixClass.id)` (\(WorkloadMix.percent(s.share))) is left out: the results hold no workload of it "
                             + "measured at the \(scale) scale (\(s.mixClass.title))")
            } else {
                kept.append((s, ws))
            }
        }
        let total = kept.map(\.0.share).reduce(0, +)
        guard total > 0 else {
            throw BenchError("the results hold no measured workload of any class of the mix (\(mix)) at the \(scale) scale")
        }
        if kept.count < mix.shares.count { notes.append("the other classes' shares are scaled up to sum to 100%") }
        return kept.map { ClassPart(mixClass: $0.0.mixClass, share: $0.0.share / total, workloads: $0.1) }
    }

    /// Each backend's score; a backend that measured no workload of a class is not ranked (noted).
    static func scores(_ classes: [ClassPart], _ cells: [String: [CellResult]], backends: [String],
                       _ notes: inout [String]) -> [String: Double] {
        let perClass = classes.map { c in GroupRanking.scores(cells.filter { c.workloads.contains($0.key) }) }
        var out: [String: Double] = [:]
        for b in backends {
            let missing = zip(classes, perClass).filter { $1[b] == nil }.map(\.0.mixClass.id)
            if missing.isEmpty {
                out[b] = exp(zip(classes, perClass).map { c, s in c.share * log(s[b]!) }.reduce(0, +))
            } else if cells.values.contains(where: { $0.contains { $0.target.name == b } }) {
                notes.append("`\(b)` is not ranked: it measured no workload of " + missing.map { "`\($0)`" }.joined(separator: ", "))
            }
        }
        return out
    }

    /// Each workload's weight: the sum, over the classes it stands for, of share ÷ class size.
    static func weights(_ classes: [ClassPart]) -> [String: Double] {
        var out: [String: Double] = [:]
        for c in classes {
            for w in c.workloads { out[w, default: 0] += c.share / Double(c.workloads.count) }
        }
        return out
    }

    /// `backend` ÷ `best` over the workloads both measured, each log ratio weighted.
    static func compare(_ backend: String, _ best: String, _ cells: [String: [CellResult]],
                        _ weights: [String: Double], _ rule: DecisionRule) -> LogRatio? {
        LogRatio.weightedMean(of: weights.keys.sorted().compactMap { w in
            logRatio(backend, over: best, cells[w] ?? [], rule).map { ($0, weight: weights[w]!) }
        })
    }

    /// `a` ÷ `b` in one workload as the decisions use it: moderated by the rule's prior (before
    /// the parts are combined, as `decide` would moderate a single one). nil when either did not
    /// measure, or, as in `GroupRanking`, when the ratio has no estimate of its noise: a workload
    /// measured once counts in the scores but not in the decisions.
    static func logRatio(_ a: String, over b: String, _ cells: [CellResult], _ rule: DecisionRule) -> LogRatio? {
        guard let x = cells.first(where: { $0.target.name == a }), let y = cells.first(where: { $0.target.name == b }) else { return nil }
        return x.logRatio(to: y).map(rule.moderated).flatMap { $0.degreesOfFreedom > 0 ? $0 : nil }
    }
}

extension BackendChoice {
    /// The runner-up against the best over `part`'s workloads (geometric mean, equal weights), at the rule's confidence.
    public func classRatio(_ part: ClassPart) -> Estimate? {
        guard ranking.count > 1 else { return nil }
        let (best, next) = (ranking[0].backend, ranking[1].backend)
        return LogRatio.mean(of: part.workloads.compactMap { Self.logRatio(next, over: best, cells[$0] ?? [], rule) })?
            .interval(confidence: rule.confidence)
    }

    /// `part`'s workloads' parts of the runner-up's "× best", largest factor (either way) first.
    public func contributions(_ part: ClassPart) -> [Contribution] {
        guard ranking.count > 1 else { return [] }
        let (best, next) = (ranking[0].backend, ranking[1].backend)
        let weights = Self.weights(classes)
        let ratios = weights.keys.reduce(into: [String: LogRatio]()) { $0[$1] = Self.logRatio(next, over: best, cells[$1] ?? [], rule) }
        let total = ratios.keys.map { weights[$0]! }.reduce(0, +)
        return part.workloads.compactMap { w -> Contribution? in
            guard let r = ratios[w] else { return nil }
            return Contribution(workload: w, ratio: r.interval(confidence: rule.confidence),
                                weight: part.share / Double(part.workloads.count) / total)
        }.sorted { abs(log($0.factor)) > abs(log($1.factor)) }
    }
}

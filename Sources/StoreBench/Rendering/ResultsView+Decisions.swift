import Foundation
import StoreBenchKit

/// The report's decisions: one `DecisionRule` for the whole report (its margin, and each
/// interval's confidence from the number of comparisons the report decides), each workload's
/// verdict, and ratios to the fastest at that confidence.
extension ResultsView {
    /// The rule every decision of this report follows: the run's margin, Bonferroni over the
    /// comparisons it decides, and the prior of its paired comparisons at the main scale.
    func makeDecisionRule() -> DecisionRule {
        let prior = VariancePrior.fitting(workloads: comparedWorkloads.map { cells($0.name, mainScale) })
        return DecisionRule(margin: results.margin ?? DecisionRule.defaultMargin, comparisons: comparisonCount, prior: prior)
    }

    /// The comparisons the report decides, all at the main scale: each backend against the
    /// fastest in every compared workload; in every use case and every family of the first
    /// page's table, at most every pair of backends (a tier's leader against each of the rest,
    /// tier after tier); and the seeds' claims.
    var comparisonCount: Int {
        let perWorkload = comparedWorkloads.map { max(0, cells($0.name, mainScale).count - 1) }.reduce(0, +)
        let groups = useCaseNames.count + Set(comparedWorkloads.map(\.category)).count
        let pairs = backends.count * max(0, backends.count - 1) / 2
        return perWorkload + groups * pairs + claimComparisons
    }

    /// Each backend's time per operation ÷ the fastest backend's, for one workload and scale,
    /// with its interval at the report's confidence (`CellResult.logRatio(to:)`).
    public func relativeToFastest(_ workload: String, _ scale: String) -> [String: Estimate] {
        let cs = cells(workload, scale).filter { $0.typicalNanos != nil }
        guard let best = cs.min(by: { $0.typicalNanos! < $1.typicalNanos! }), best.typicalNanos! > 0 else { return [:] }
        let confidence = decisionRule.confidence
        var out: [String: Estimate] = [:]
        for c in cs {
            out[c.target.name] = c.target == best.target
                ? Estimate(value: 1, low: 1, high: 1, confidence: confidence)
                : c.logRatio(to: best).map { decisionRule.moderated($0).interval(confidence: confidence) }
        }
        return out
    }

    /// The verdict of each compared workload at `scale`.
    func verdicts(_ scale: String) -> [WorkloadVerdict] {
        let rule = decisionRule
        return comparedWorkloads.compactMap { WorkloadVerdict(workload: $0.name, cells: cells($0.name, scale), rule: rule) }
    }

    /// The seeds' claims' checks: each is one comparison.
    var claimComparisons: Int { measurableClaimChecks }

    /// The use cases the run's workloads count in.
    var useCaseNames: Set<String> { Set(comparedWorkloads.flatMap { $0.useCases ?? [] }.map(\.id)) }
}

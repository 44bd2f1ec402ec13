import Foundation
import StoreBenchKit

/// The seeds' claims decided from the run's cells at the main scale.
struct ClaimVerdict {
    enum Outcome: String { case holds = "holds", doesNotHold = "does not hold", undecided, notMeasurable = "not measurable here" }

    let claim: SeedClaim
    let outcome: Outcome
    /// Each check with its decided comparison (nil: a cell it needs did not run).
    let checks: [(check: SeedClaim.Check, comparison: Comparison?)]
}

extension ResultsView {
    /// Every claim the run recorded, decided under the report's rule.
    func claimVerdicts() -> [ClaimVerdict] {
        let rule = decisionRule
        return (results.claims ?? []).map { claim in
            let checks = claim.checks.map { ($0, logRatio(of: $0, rule).map(rule.decide)) }
            return ClaimVerdict(claim: claim, outcome: Self.outcome(claim.expected, checks.map(\.1)), checks: checks)
        }
    }

    static func outcome(_ expected: SeedClaim.Expected, _ comparisons: [Comparison?]) -> ClaimVerdict.Outcome {
        let decided = comparisons.compactMap { $0 }
        guard !decided.isEmpty, decided.count == comparisons.count else { return .notMeasurable }
        let wanted: Comparison.Outcome = expected == .lower ? .faster : .equivalent
        if decided.allSatisfy({ $0.outcome == wanted }) { return .holds }
        if decided.contains(where: { $0.isDecided && $0.outcome != wanted }) { return .doesNotHold }
        return .undecided
    }

    /// A check's mean log ratio over the pairs whose both cells measured; nil when none did.
    func logRatio(of check: SeedClaim.Check, _ rule: DecisionRule) -> LogRatio? {
        LogRatio.mean(of: check.pairs.compactMap { pair in
            guard let a = okCell(pair.numerator), let b = okCell(pair.denominator) else { return nil }
            if pair.numerator.figure == nil, pair.denominator.figure == nil {
                return pair.numerator.workload == pair.denominator.workload ? a.logRatio(to: b).map(rule.moderated)
                    : LogRatio(unpaired: a.comparisonSamples, over: b.comparisonSamples)
            }
            return LogRatio(unpaired: Self.values(a, pair.numerator.figure), over: Self.values(b, pair.denominator.figure))
        })
    }

    /// A figure's per-round values (the pooled value alone when the cell kept no rounds).
    static func values(_ c: CellResult, _ figure: String?) -> [Double] {
        guard let figure else { return c.perRoundNanos ?? [] }
        return c.roundFigures?[figure] ?? c.metrics[figure].map { [$0] } ?? []
    }

    /// Checks whose cells this run has: each is one comparison the report decides.
    var measurableClaimChecks: Int {
        (results.claims ?? []).flatMap(\.checks).filter { check in
            check.pairs.contains { okCell($0.numerator) != nil && okCell($0.denominator) != nil }
        }.count
    }

    /// A term's cell at the main scale, when it measured.
    func okCell(_ term: SeedClaim.Term) -> CellResult? {
        results.cell(term.target, term.workload, mainScale).flatMap { $0.isOK ? $0 : nil }
    }
}

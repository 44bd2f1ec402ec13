import Foundation
import StoreBenchKit

/// The report's first page: the machine and the build, the answer per use case and per family,
/// the seeds' claims with verdicts, and links to the detail pages.
extension ResultsView {
    /// The machine, the build and how the run decided, in a few lines.
    func machineAndBuild() -> String {
        let m = results.machine
        var md = "## Machine and build\n\n"
        md += "\(m.cpu), \(m.cores) cores, \(Format.bytes(Double(m.memoryBytes))) memory · \(m.os) · Swift \(m.swift) · SQLite \(m.sqlite) · \(m.lmdb) · "
        md += "**\(m.build) build**\(m.build == "release" ? "" : " (numbers from a debug build are not meaningful)") · "
        md += "\(results.durability.rawValue) commits · profile \(results.profile)\(results.rounds.map { ", \($0) rounds per cell" } ?? "")"
        md += results.maxRounds.map { " (up to \($0) where undecided)" } ?? ""
        md += " · \(scales.count == 1 ? "scale" : "scales") \(scales.joined(separator: ", ")); decisions at the \(mainScale) scale.\n\n"
        return md + shardsLine() + decisionRuleText
    }

    /// Backend by family: each backend's geometric mean ratio to the fastest over the family's
    /// workloads with its tier mark, and its worst workload when that is far worse.
    func familyTable() -> String {
        let families = categories.filter { c in comparedWorkloads.contains { $0.category == c } }
        var md = "### By workload family\n\n"
        md += "Each cell: the backend's geometric mean of time ÷ the fastest backend's over the family's workloads "
        md += "(**bold**: the family's leader; ≈ equivalent and ? undecided against it; ▼ decidedly slower), then its worst single "
        md += "workload when that is 2× or more. The family's page has every workload.\n\n"
        md += "| backend |" + families.map { " [\($0.rawValue)](\(pageLink($0))) |" }.joined() + "\n"
        md += "|---|" + families.map { _ in "---:|" }.joined() + "\n"
        let rankings = families.map { c in ranking(comparedWorkloads.filter { $0.category == c }.map(\.name)) }
        let worst = families.map { c in worstRatios(comparedWorkloads.filter { $0.category == c }.map(\.name)) }
        for b in backends {
            md += "| \(b) |" + zip(rankings, worst).map { r, w in " \(familyCell(b, r, w[b])) |" }.joined() + "\n"
        }
        return md + "\n"
    }

    private func familyCell(_ backend: String, _ r: GroupRanking, _ worst: (String, Double)?) -> String {
        guard let tier = r.tiers.firstIndex(where: { $0.contains { $0.backend == backend } }),
              let e = r.tiers[tier].first(where: { $0.backend == backend }) else { return "–" }
        let isLeader = r.tiers[0].first?.backend == backend
        var cell = switch (tier, e.versusLeader?.outcome) {
        case (0, _) where isLeader: "**\(Format.ratio(e.score))**"
        case (0, .equivalent?): "≈ \(Format.ratio(e.score))"
        case (0, _): "? \(Format.ratio(e.score))"
        default: "▼ \(Format.ratio(e.score))"
        }
        if let (w, ratio) = worst, ratio >= 2 { cell += " · \(Format.ratio(ratio)) `\(w)`" }
        return cell
    }

    /// Per backend, its largest time ÷ fastest among `workloads` at the main scale, and where
    /// (the ratios the family pages print).
    func worstRatios(_ workloads: [String]) -> [String: (String, Double)] {
        var out: [String: (String, Double)] = [:]
        for w in workloads {
            for (b, e) in relativeToFastest(w, mainScale) where e.value > (out[b]?.1 ?? 0) {
                out[b] = (w.split(separator: ".", maxSplits: 1).last.map(String.init) ?? w, e.value)
            }
        }
        return out
    }

    /// A check's outcome in the words of a ratio that is better lower (time, memory).
    static func claimWord(_ outcome: Comparison.Outcome) -> String {
        switch outcome {
        case .faster: "lower"
        case .slower: "higher"
        case .equivalent: "equivalent"
        case .undecided: "undecided"
        }
    }

    /// The seeds' claims, each with its stand-in, figure and verdict.
    func claimsSection() -> String {
        let verdicts = claimVerdicts()
        guard !verdicts.isEmpty else { return "" }
        var md = "## The seeds' claims\n\n"
        md += "The tutorials this project grew from make these claims; each is tested here by a stand-in, decided by the rule above "
        md += "(holds: every check decided the claimed way; does not hold: a check decided otherwise; undecided: an interval reaches across the margin). Each figure is numerator ÷ denominator with its interval: lower means the numerator takes less time or memory.\n\n"
        md += "| claim | stand-in | figure | verdict |\n|---|---|---|---|\n"
        for v in verdicts {
            let figures = v.checks.map { c in "\(c.check.label): " + (c.comparison.map { "\(Format.ratio($0.ratio)) (\(Self.claimWord($0.outcome)))" } ?? "not in this run") }
            md += "| \(v.claim.claim) | \(v.claim.standIn) | \(figures.isEmpty ? "–" : figures.joined(separator: "; ")) | **\(v.outcome.rawValue)** |\n"
        }
        return md + "\n"
    }
}

import Foundation
import StoreBenchKit

extension BackendChoice {
    /// The ranking as Markdown: the table, how to read it, the notes, then what decides it.
    /// `source` names the results file in the heading's line.
    public func markdown(source: String? = nil) -> String {
        var md = "## Backends for \(mix)\n\n"
        md += (source.map { "From `\($0)`, " } ?? "At ") + "the \(scale) scale"
        md += ", over " + classes.map { "\($0.mixClass.id) (\($0.workloads.count) workload\($0.workloads.count == 1 ? "" : "s"))" }
            .joined(separator: ", ") + ".\n\n"
        md += "| rank | backend | score | × best (interval) | against the best |\n|---:|---|---:|---|---|\n"
        for (i, e) in ranking.enumerated() {
            md += "| \(i + 1) | `\(e.backend)` | \(Format.ratio(e.score)) | \(i == 0 ? "1.00×" : Format.ratio(e.versusBest?.ratio)) | \(i == 0 ? "**best**" : Self.label(e.versusBest)) |\n"
        }
        md += "\n" + method + "\n"
        if !notes.isEmpty { md += notes.map { "- \($0)\n" }.joined() + "\n" }
        return md + decidingCells()
    }

    /// How the table's numbers are made, in one paragraph.
    var method: String {
        var md = "Score: per workload, the backend's time per operation ÷ the fastest backend's; their geometric mean per class; "
        md += "the geometric mean of those weighted by the mix (1.00× is fastest on every workload). "
        md += "× best: the backend's time ÷ the best's, its per-workload log ratios weighted by class share ÷ class size, "
        md += "each moderated as the report's are, with a t interval at \(ResultsView.confidenceText(rule.confidence)) confidence "
        md += "(Bonferroni over the report's comparisons and this ranking's \(max(0, ranking.count - 1))). "
        md += "**▼ slower**: the whole interval above \(Format.ratio(1 + rule.margin)); **≈ equivalent**: within ±\(Format.percent(rule.margin)); "
        md += "**? undecided** otherwise. Ranks follow the scores (median times); × best comes from the rounds, so a close "
        md += "second may show below 1.00×.\n"
        return md
    }

    /// A decision against the best, in words.
    static func label(_ c: Comparison?) -> String {
        guard let c else { return "? undecided: no workload that both measured more than once" }
        switch c.outcome {
        case .slower: return "▼ slower"
        case .equivalent: return "≈ equivalent"
        case .faster: return "? faster by its interval, though its score is lower: undecided"
        case .undecided:
            guard c.ratio.confidence > 0 else { return "? undecided: no interval" }
            guard let n = c.samplesNeeded else { return "? undecided: more rounds would not decide it (too close to the margin)" }
            return n <= 100 ? "? undecided: ≈\(n) rounds would decide" : "? undecided: over 100 rounds would be needed"
        }
    }

    /// "What decides it": per class, its workloads and the three that move the runner-up's "× best" most.
    func decidingCells() -> String {
        guard ranking.count > 1, let ratio = ranking[1].versusBest?.ratio else { return "" }
        let (best, next) = ("`\(ranking[0].backend)`", "`\(ranking[1].backend)`")
        var md = "### What decides it\n\n"
        md += "\(next) ÷ \(best), the two best, is \(Format.ratio(ratio)) over the mix. Per class: its workloads; \(next) ÷ \(best) "
        md += "over them, with its interval; the class's factor in that ratio; and the three workloads with the largest factors either "
        md += "way (a workload's factor is its ratio to the power of its weight; all the factors multiply to the ratio, and one below "
        md += "1 is where \(next) is faster).\n\n"
        for part in classes {
            let cs = contributions(part)
            md += "- **\(part.mixClass.id)** (\(WorkloadMix.percent(part.share)), \(part.mixClass.title)): "
            md += part.workloads.map { "`\($0)`" }.joined(separator: ", ") + ".\n"
            md += "  \(next) ÷ \(best) \(Format.ratio(classRatio(part))), factor \(Self.factor(cs.map(\.factor).reduce(1, *))); "
            md += cs.prefix(3).map { "`\($0.workload)` \(Format.ratio($0.ratio)) → \(Self.factor($0.factor))" }.joined(separator: ", ") + ".\n"
        }
        return md + "\n"
    }

    /// `×1.062`: a factor close to 1, with the digits that show it.
    static func factor(_ f: Double) -> String { String(format: "×%.3f", f) }
}

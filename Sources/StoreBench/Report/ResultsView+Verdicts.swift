import Foundation
import StoreBenchKit

/// Each workload decided, every backend shown: the table at the head of a family's page.
extension ResultsView {
    /// How the report decides, in one paragraph.
    var decisionRuleText: String {
        let rule = decisionRule
        var md = "Each backend's time per operation ÷ the fastest backend's, with its interval. Rounds are paired (drift cancels); "
        md += "concurrency, YCSB and lifecycle cells, which run few rounds, use their per-interval times instead. "
        md += "**Equivalence margin ±\(Format.percent(rule.margin))**: a backend is **▼ slower** only when its whole interval lies above "
        md += "\(Format.ratio(1 + rule.margin)), **≈ equivalent** when its whole interval lies within ±\(Format.percent(rule.margin)), "
        md += "and **? undecided** otherwise (with the rounds that would decide it at its present noise). "
        md += "The intervals are t intervals on log ratios at \(Self.confidenceText(rule.confidence)) confidence each: "
        md += "Bonferroni over the \(rule.comparisons) comparisons this report decides, so that all of them together hold with 95% probability."
        if let prior = rule.prior {
            md += String(format: " Each paired comparison's variance is moderated toward the noise all of them share (limma's empirical Bayes: prior "
                         + "d₀ = %.1f degrees of freedom, typical spread of a round's log ratio s₀ = %.1f%%), which its own few rounds cannot estimate well.",
                         prior.degreesOfFreedom, prior.variance.squareRoot() * 100)
        }
        md += " Concurrency, YCSB and lifecycle intervals are widened for the correlation of consecutive intervals (AR(1)).\n\n"
        return md
    }

    static func confidenceText(_ c: Double) -> String {
        let digits = max(1, Int((-log10(1 - c)).rounded(.up)) - 1)
        return String(format: "%.\(digits)f%%", c * 100)
    }

    /// One row per compared workload of `workloads`: the verdict, then every backend.
    func verdictTable(_ workloads: [String], scale: String) -> String {
        let vs = verdicts(scale)
        var md = "| workload | verdict | fastest, time/op |" + backends.map { " \($0) |" }.joined() + "\n"
        md += "|---|---|---:|" + backends.map { _ in "---:|" }.joined() + "\n"
        for w in workloads {
            guard let v = vs.first(where: { $0.workload == w }) else { continue }
            md += "| \(w) | \(verdictLabel(v)) | \(Format.nanos(v.winner.time ?? v.winner.nanosPerOperation.map { Estimate(value: $0, low: $0, high: $0, confidence: 0) })) |"
            md += backends.map { " \(mark(v, $0)) |" }.joined() + "\n"
        }
        return md + "\n"
    }

    /// The verdict in words.
    func verdictLabel(_ v: WorkloadVerdict) -> String {
        let fastest = "`\(v.winner.target.name)`"
        if v.ranked.count == 1 { return "\(fastest) (alone)" }
        if v.isSignificant { return "**\(v.winner.target.name)** faster than every other by more than the margin" }
        var parts: [String] = []
        if !v.equivalent.isEmpty { parts.append("\(fastest) ≈ " + v.equivalent.map { "`\($0)`" }.joined(separator: " ≈ ")) }
        if !v.undecided.isEmpty {
            let noInterval = v.undecided.contains { v.versusFastest[$0]?.ratio.confidence == 0 }
            let needs = v.roundsNeeded.map { $0 <= 100 ? "; ≈\($0) rounds would decide" : "; over 100 rounds would be needed" }
                ?? (noInterval ? "; one measurement: no interval to decide on" : "; thousands of rounds would be needed: the ratio sits near the margin")
            parts.append("undecided: \(fastest) against " + v.undecided.map { "`\($0)`" }.joined(separator: ", ") + needs)
        }
        return parts.joined(separator: "; ")
    }

    /// One backend's cell of the table: its ratio to the fastest, interval and decision.
    func mark(_ v: WorkloadVerdict, _ backend: String) -> String {
        if v.winner.target.name == backend { return "**fastest**" }
        guard let c = v.versusFastest[backend] else { return "–" }
        let symbol = switch c.outcome {
        case .slower: "▼"
        case .equivalent: "≈"
        case .undecided, .faster: "?"
        }
        return "\(symbol) \(Format.ratio(c.ratio))"
    }
}

extension ResultsView {
    /// Ratios to the fastest at a scale the report does not decide at.
    func ratioTable(_ workloads: [String], scale: String) -> String {
        var rows = ""
        for w in workloads {
            let rel = relativeToFastest(w, scale)
            guard !rel.isEmpty else { continue }
            rows += "| \(w) |" + backends.map { " \(Format.ratio(rel[$0])) |" }.joined() + "\n"
        }
        guard !rows.isEmpty else { return "" }
        return "At the \(scale) scale (not decided; ratios with intervals at the same confidence):\n\n"
            + "| workload |" + backends.map { " \($0) |" }.joined() + "\n|---|" + backends.map { _ in "---:|" }.joined() + "\n" + rows + "\n"
    }

    /// The first page's note of cells that did not measure.
    func failureList() -> String {
        let bad = results.cells.filter { $0.status != .ok }
        guard !bad.isEmpty else { return "" }
        return "**\(bad.count) cell(s) did not measure** (failed, timed out or skipped): see [failures](\(folder)/failures.md).\n\n"
    }
}

import Foundation

extension MarkdownReport {
    /// Mermaid charts: per category, each backend's time per operation ÷ the fastest backend's
    /// (geometric mean over the category's workloads); and, when the run has several scales,
    /// time per operation across scales for a few workloads.
    func charts() -> String {
        var md = "## Charts\n\n"
        md += "Bars: each backend's time per operation ÷ the fastest backend's, geometric mean over the category's workloads, "
        md += "at the \(mainScale) scale (1 = fastest everywhere; lower is better). Bars follow the order of the x-axis.\n\n"
        for category in WorkloadCategory.allCases where category != .selftest {
            let ws = comparedWorkloads.filter { $0.category == category }.map(\.name)
            let rels = ws.map { relativeToFastest($0, mainScale) }
            let bars = backends.map { b in Format.geometricMean(rels.compactMap { $0[b]?.value }) }
            guard !ws.isEmpty, bars.contains(where: { $0 != nil }) else { continue }
            let top = max(1.5, (bars.compactMap { $0 }.max() ?? 1) * 1.1)
            md += "```mermaid\nxychart-beta\n"
            md += "    title \"\(category.rawValue): time per operation ÷ fastest (\(ws.count) workloads)\"\n"
            md += "    x-axis [\(backends.map { "\"\($0)\"" }.joined(separator: ", "))]\n"
            md += String(format: "    y-axis \"× fastest\" 0 --> %.1f\n", top)
            md += "    bar [\(bars.map { String(format: "%.2f", $0 ?? 0) }.joined(separator: ", "))]\n```\n\n"
        }
        guard scales.count > 1 else {
            return md + "Cost across scales needs a run with more than one scale (the standard profile has two).\n\n"
        }
        md += "Time per operation across scales (how cost grows with data). One line per backend, in this order: "
        md += backends.map { "`\($0)`" }.joined(separator: ", ") + ". The table under each chart has the same numbers.\n\n"
        for w in ["crud.read-pk.single", "query.full-scan", "query.unindexed-eq", "batch.bulk-insert"] where comparedWorkloads.contains(where: { $0.name == w }) {
            let series = backends.map { b in scales.map { s in results.cell(b, w, s)?.nanosPerOperation } }
            guard series.contains(where: { $0.contains { $0 != nil } }) else { continue }
            md += "```mermaid\nxychart-beta\n    title \"\(w): time per operation (µs) by scale\"\n"
            md += "    x-axis [\(scales.map { "\"\($0)\"" }.joined(separator: ", "))]\n    y-axis \"µs per operation\"\n"
            for line in series { md += "    line [\(line.map { String(format: "%.3f", ($0 ?? 0) / 1_000) }.joined(separator: ", "))]\n" }
            md += "```\n\n| backend | " + scales.joined(separator: " | ") + " |\n|---|" + scales.map { _ in "---:|" }.joined() + "\n"
            for (b, line) in zip(backends, series) { md += "| \(b) | " + line.map { Format.nanos($0) }.joined(separator: " | ") + " |\n" }
            md += "\n"
        }
        return md
    }
}

import Foundation
import StoreBenchKit

/// The "Across scales" charts: for the workloads that ask for one, each backend's time ÷ the
/// fastest backend's at each scale, against the dataset's size on a logarithmic axis.
extension ResultsView {
    func scaleCharts() -> String {
        guard scales.count > 1 else {
            return "Cost across scales needs a run with more than one scale (the standard profile has two).\n\n"
        }
        var md = "### Across scales\n\n"
        md += "Lines: each backend's time per operation ÷ the fastest backend's at each scale (1 = fastest at that scale), "
        md += "so a backend that grows worse than the others with more data rises. Both axes are logarithmic: the x-axis in the "
        md += "dataset's size (records), with each measured scale named under its point. Whiskers: each ratio's interval. "
        md += "Absolute times are in the table under each chart (median ± the half-width of its interval), with each ratio's interval.\n\n"
        for info in comparedWorkloads where info.acrossScales == true {
            md += scaleChart(info)
        }
        return md
    }

    /// One workload's chart and table, or "" when no backend was measured at every scale.
    func scaleChart(_ info: RunResults.WorkloadInfo) -> String {
        let w = info.name
        let ordered = results.datasets.filter { scales.contains($0.scale) }.sorted { $0.records < $1.records }
        let rels = ordered.map { relativeToFastest(w, $0.scale) }
        let plotted = backends.filter { b in rels.allSatisfy { $0[b] != nil } }
        guard !plotted.isEmpty else { return "" }
        let sizes = ordered.map { Double($0.records) }
        let byScale = Set(sizes).count == sizes.count
        var chart = SVGChart(kind: .lines, title: "\(Self.headline(info.summary)): time relative to the fastest backend, by dataset size",
                             subtitle: "Workload \(w). Each backend's time per operation ÷ the fastest backend's at each scale; "
                                 + "whiskers: the ratio's interval at the report's confidence.",
                             yTitle: "Time per operation ÷ the fastest backend's (log scale; 1× = the fastest at that size; lower is better)",
                             xTitle: byScale ? "Dataset size: records in the store (log scale)" : "Scale (not to size: the scales have equal record counts)",
                             xAxis: byScale ? .logarithmic(ordered.map { (Double($0.records), [$0.scale, "\(Format.count($0.records)) records"]) })
                                 : .categories(ordered.map { [$0.scale, "\(Format.count($0.records)) records"] }),
                             valueAxis: .ratio)
        chart.series = plotted.map { b in
            SVGChart.Series(name: b, style: chartStyles[b]!, points: zip(sizes.indices, rels).map { i, r in
                let e = r[b]!
                return .init(x: byScale ? sizes[i] : Double(i), value: e.value, low: e.low, high: e.high)
            })
        }
        let names = ordered.map(\.scale)
        var md = self.chart(chart, file: "across-scales-\(w)")
        md += "| key | backend | " + names.map { "\($0) time/op | \($0) × fastest" }.joined(separator: " | ") + " |\n"
        md += "|---|---|" + names.map { _ in "---:|---:|" }.joined() + "\n"
        for b in backends {
            let cells = names.map { results.cell(b, w, $0) }
            guard cells.contains(where: { $0?.isOK == true }) else { continue }
            md += "| \(chartKey(b)) | \(b) | "
            md += zip(cells, rels).map { c, r in "\(time(c)) | \(Format.ratio(r[b]))" }.joined(separator: " | ") + " |\n"
        }
        return md + "\n"
    }

    /// A workload's summary up to its first `;`, without code marks: the chart's title in words.
    static func headline(_ summary: String) -> String {
        let first = summary.split(separator: ";", maxSplits: 1).first.map(String.init) ?? summary
        return first.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces)
    }

    /// A cell's time per operation with its interval (results schema 1 kept only the median).
    private func time(_ c: CellResult?) -> String {
        guard let c, c.isOK else { return "–" }
        return c.time.map { Format.nanos($0) } ?? Format.nanos(c.nanosPerOperation)
    }
}

import Foundation
import StoreBenchKit

/// The report's Mermaid charts, each with a key of colours before it and a table of its numbers
/// with their intervals after it:
/// - per category, each backend's time per operation ÷ the fastest backend's (geometric mean
///   over the category's workloads), at the main scale;
/// - resident memory after loading the social dataset, per record, at the main scale;
/// - when the run has several scales, a few workloads' time ÷ the fastest backend's at each
///   scale, on an axis logarithmic in records.
///
/// Every chart fixes its palette in an init line: a backend has one colour in every chart
/// (`ChartPalette`, by its position among the run's backends), dark on white whatever theme
/// renders it. Every y-axis starts at 0.
extension ResultsView {
    /// The charts section's opening: the colour key and how the axes are cut.
    func chartsIntro() -> String {
        var md = "## Charts\n\n"
        md += "Each backend has one colour in every chart: "
        md += backends.map { "\(chartColors[$0]!.label) = `\($0)`" }.joined(separator: " · ") + ". "
        md += "Every y-axis starts at 0, so heights compare as ratios. A bar or line far above the rest would flatten them: "
        md += "one whose largest value exceeds \(Int(ChartAxis.outlierFactor))× the median of the others' is cut at the top "
        md += "of the axis, and its key and label say so (unless more than a third of the chart's bars or lines are that far "
        md += "up: then none is cut). The table under each chart has its numbers and their intervals.\n\n"
        return md
    }

    // MARK: Time by category

    /// Per category, at the main scale: each backend's geometric mean over the category's
    /// workloads of its time ÷ the fastest backend's.
    func categoryCharts(_ charted: Set<WorkloadCategory>) -> String {
        var md = "### Time by category\n\n"
        md += "Bars: each backend's time per operation ÷ the fastest backend's in each workload of the category, "
        md += "geometric mean over the workloads, at the \(mainScale) scale (1 = the fastest in every workload; lower is better). "
        md += "The range in each table is the geometric mean of the per-workload intervals' ends: it holds the geometric mean "
        md += "whenever every workload's interval holds its ratio, and is wider than a joint interval would be.\n\n"
        var any = false
        for category in categories where charted.contains(category) {
            let ws = comparedWorkloads.filter { $0.category == category }.map(\.name)
            guard !ws.isEmpty else { continue }
            let rels = ws.map { relativeToFastest($0, mainScale) }
            var rows: [(backend: String, score: Estimate, workloads: Int)] = []
            for b in backends {
                let es = rels.compactMap { $0[b] }
                guard let value = Format.geometricMean(es.map(\.value)) else { continue }
                let low = Format.geometricMean(es.map(\.low)) ?? value, high = Format.geometricMean(es.map(\.high)) ?? value
                rows.append((b, Estimate(value: value, low: low, high: high, confidence: 0), es.count))
            }
            guard !rows.isEmpty else { continue }
            any = true
            let title = "\(category.rawValue): time per operation ÷ fastest, geometric mean of \(ws.count) workload\(ws.count == 1 ? "" : "s"), \(mainScale) scale"
            md += barChart(title: title, yTitle: "× fastest (1 = fastest, lower is better)",
                           values: rows.map { ($0.backend, $0.score.value) }, format: Format.ratio)
            md += "| colour | backend | × fastest, geometric mean (range) | workloads measured |\n|---|---|---:|---:|\n"
            for r in rows {
                md += "| \(chartColors[r.backend]!.label) | \(r.backend) | \(Format.ratio(r.score)) | \(r.workloads) of \(ws.count) |\n"
            }
            md += "\n"
        }
        return any ? md : ""
    }

    // MARK: Across scales

    /// For a few workloads: each backend's time ÷ the fastest backend's at each scale, on an
    /// x-axis logarithmic in the dataset's records.
    func scaleCharts() -> String {
        guard scales.count > 1 else {
            return "Cost across scales needs a run with more than one scale (the standard profile has two).\n\n"
        }
        var md = "### Across scales\n\n"
        md += "Lines: each backend's time per operation ÷ the fastest backend's at each scale (1 = fastest at that scale), "
        md += "so a backend that grows worse than the others with more data rises. The x-axis is logarithmic in the "
        md += "dataset's size: its labels are sizes at equal ratios, and the measured scales are named; lines are straight "
        md += "between measured scales. Absolute times are in the table under each chart (median ± the half-width of its interval), "
        md += "with each ratio's interval.\n\n"
        let sized = results.datasets.filter { scales.contains($0.scale) }
        for info in comparedWorkloads where info.acrossScales == true {
            let w = info.name
            let unit = "records"
            let ordered = sized.sorted { $0.records < $1.records }
            let rels = ordered.map { relativeToFastest(w, $0.scale) }
            let plotted = backends.filter { b in rels.allSatisfy { $0[b] != nil } }
            guard !plotted.isEmpty else { continue }
            let lines = plotted.map { b in rels.map { $0[b]!.value } }
            let axis = ChartAxis(seriesMaxima: lines.map { $0.max() ?? 0 })
            // A cut line is cut at its measured points, then drawn straight between them (no kink between scales).
            let drawn = lines.enumerated().map { i, l in axis.clamped.contains(i) ? l.map { min($0, axis.top) } : l }
            let names = ordered.map(\.scale)
            var chart = MermaidXYChart(title: "\(w): time per operation ÷ fastest at each scale", xLabels: [],
                                       yTitle: "× fastest (1 = fastest, lower is better)", yTop: axis.top)
            if let x = LogSizeAxis(sizes: ordered.map { Double($0.records) }, names: names) {
                chart.xTitle = "dataset size, \(unit) (logarithmic)"
                chart.xLabels = x.labels
                chart.series = zip(plotted, drawn).map { .init(kind: .line, values: x.interpolate($1), color: chartColors[$0]!) }
            } else {
                chart.xTitle = "scale (not to size: the scales do not differ in \(unit))"
                chart.xLabels = ordered.map { "\($0.scale) (\(LogSizeAxis.compact(Double($0.records))))" }
                chart.series = zip(plotted, drawn).map { .init(kind: .line, values: $1, color: chartColors[$0]!) }
            }
            var notes: [String: String] = [:]
            for (i, b) in plotted.enumerated() where axis.clamped.contains(i) {
                notes[b] = "cut at \(Format.ratio(axis.top)) at the top of the axis; reaches \(Format.ratio(lines[i].max()))"
            }
            md += legend(plotted, kind: "Line colours", notes: notes) + "\n\n" + chart.render() + "\n"
            md += "| colour | backend | " + names.map { "\($0) time/op | \($0) × fastest" }.joined(separator: " | ") + " |\n"
            md += "|---|---|" + names.map { _ in "---:|---:|" }.joined() + "\n"
            for b in backends {
                let cells = names.map { results.cell(b, w, $0) }
                guard cells.contains(where: { $0?.isOK == true }) else { continue }
                md += "| \(chartColors[b]!.label) | \(b) | "
                md += zip(cells, rels).map { c, r in "\(time(c)) | \(Format.ratio(r[b]))" }
                    .joined(separator: " | ") + " |\n"
            }
            md += "\n"
        }
        return md
    }

    /// A cell's time per operation with its interval (results schema 1 kept only the median).
    private func time(_ c: CellResult?) -> String {
        guard let c, c.isOK else { return "–" }
        return c.time.map { Format.nanos($0) } ?? Format.nanos(c.nanosPerOperation)
    }

}

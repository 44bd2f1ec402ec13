import Foundation
import StoreBenchKit

/// The report's charts, each an SVG file linked as an image, with a table of its numbers and
/// their intervals under it:
/// - per category, each backend's time per operation ÷ the fastest backend's (geometric mean
///   over the category's workloads), at the main scale: bars on a logarithmic axis;
/// - when the run has several scales, a few workloads' time ÷ the fastest backend's at each
///   scale: lines on a logarithmic axis, against the dataset's size on a logarithmic axis.
///
/// A backend has one colour and one marker in every chart (`ChartPalette`, by its position
/// among the run's backends); the tables' key column names them.
extension ResultsView {
    /// The charts section's opening: the key and how the axes are drawn.
    func chartsIntro() -> String {
        var md = "## Charts\n\n"
        md += "Each backend has one colour and one marker shape in every chart (Okabe and Ito's colours, which stay apart for "
        md += "the common colour-vision deficiencies; the shapes tell the backends apart without colour): "
        md += backends.map { "\(chartKey($0)) = `\($0)`" }.joined(separator: " · ") + ". "
        md += "Ratios to the fastest backend are drawn on logarithmic axes, where equal steps are equal factors (1×, 2×, 5×, 10×), "
        md += "so a backend far behind the others does not flatten them; other quantities are drawn from 0. A whisker spans a "
        md += "value's interval where it has one. Lines at the same place are set a few pixels apart sideways so that none "
        md += "hides another. The table under each chart has its numbers and their intervals.\n\n"
        return md
    }

    // MARK: Time by category

    /// Per category, at the main scale: each backend's geometric mean over the category's
    /// workloads of its time ÷ the fastest backend's.
    func categoryCharts(_ charted: Set<WorkloadCategory>) -> String {
        var md = "### Time by category\n\n"
        md += "Bars: each backend's time per operation ÷ the fastest backend's in each workload of the category, "
        md += "geometric mean over the workloads, at the \(mainScale) scale (1 = the fastest in every workload; lower is better). "
        md += "The whisker and the range in each table are the geometric means of the per-workload intervals' ends: they hold "
        md += "the geometric mean whenever every workload's interval holds its ratio, and are wider than a joint interval would be.\n\n"
        var any = false
        for category in categories where charted.contains(category) {
            let ws = comparedWorkloads.filter { $0.category == category }.map(\.name)
            guard !ws.isEmpty else { continue }
            let rows = categoryScores(ws)
            guard !rows.isEmpty else { continue }
            any = true
            let name = Suites.suite(of: category)?.title ?? category.rawValue
            let count = "\(ws.count) workload\(ws.count == 1 ? "" : "s")"
            md += barChart(title: "\(name): time per operation relative to the fastest backend",
                           subtitle: "Geometric mean over the \(count) of the category \(category.rawValue), \(mainScale) scale; "
                               + "whiskers: the geometric means of the workloads' interval ends.",
                           yTitle: "Time per operation ÷ the fastest backend's (log scale; 1× = the fastest in every workload; lower is better)",
                           file: "time-by-category-\(category.rawValue)",
                           values: rows.map { ($0.backend, $0.score) }, ratio: true, format: Format.ratio)
            md += "| key | backend | × fastest, geometric mean (range) | workloads measured |\n|---|---|---:|---:|\n"
            for r in rows {
                md += "| \(chartKey(r.backend)) | \(r.backend) | \(Format.ratio(r.score)) | \(r.workloads) of \(ws.count) |\n"
            }
            md += "\n"
        }
        return any ? md : ""
    }

    /// Each backend's geometric mean of its ratios to the fastest over `workloads`, with the
    /// geometric means of the intervals' ends, and how many workloads it was measured in.
    func categoryScores(_ workloads: [String]) -> [(backend: String, score: Estimate, workloads: Int)] {
        let rels = workloads.map { relativeToFastest($0, mainScale) }
        return backends.compactMap { b in
            let es = rels.compactMap { $0[b] }
            guard let value = Format.geometricMean(es.map(\.value)) else { return nil }
            let low = Format.geometricMean(es.map(\.low)) ?? value, high = Format.geometricMean(es.map(\.high)) ?? value
            return (b, Estimate(value: value, low: low, high: high, confidence: 0), es.count)
        }
    }
}

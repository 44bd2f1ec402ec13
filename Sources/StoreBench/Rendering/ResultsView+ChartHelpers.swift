import Foundation
import StoreBenchKit

/// The chart helpers every section shares: one colour per backend, a key before each chart,
/// bar charts with one bar per backend.
extension ResultsView {
    /// Each backend's chart colour.
    var chartColors: [String: ChartColor] {
        Dictionary(uniqueKeysWithValues: backends.enumerated().map { ($0.element, ChartPalette.color(at: $0.offset)) })
    }

    /// A bar chart with one bar per backend in its colour (one series per backend, its value at
    /// its own x position and no bar elsewhere), preceded by its key. A bar cut at the top of the
    /// axis says its value in its x label: `lmdb ↑40×`.
    public func barChart(title: String, yTitle: String, values: [(backend: String, value: Double)], format: (Double) -> String) -> String {
        let axis = ChartAxis(seriesMaxima: values.map(\.value))
        var chart = MermaidXYChart(title: title, xLabels: [], yTitle: yTitle, yTop: axis.top)
        chart.xLabels = values.enumerated().map { i, v in
            axis.clamped.contains(i) ? "\(v.backend) ↑\(format(v.value))" : v.backend
        }
        chart.series = values.enumerated().map { i, v in
            MermaidXYChart.Series(kind: .bar, values: values.indices.map { $0 == i ? v.value : nil }, color: chartColors[v.backend]!)
        }
        let notes = values.enumerated().filter { axis.clamped.contains($0.offset) }.map {
            " `\($0.element.backend)`'s bar is cut at the top of the axis (\(format(axis.top))): its value is \(format($0.element.value))."
        }
        return legend(values.map(\.backend), kind: "Bar colours") + notes.joined() + "\n\n" + chart.render() + "\n"
    }

    /// The key before a chart: each plotted backend's swatch, colour name and hex.
    public func legend(_ plotted: [String], kind: String, notes: [String: String] = [:]) -> String {
        "**\(kind):** " + plotted.map { b in "\(chartColors[b]!.label) = `\(b)`" + (notes[b].map { " (\($0))" } ?? "") }
            .joined(separator: " · ") + "."
    }
}

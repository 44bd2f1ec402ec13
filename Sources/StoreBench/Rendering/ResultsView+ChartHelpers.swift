import Foundation
import StoreBenchKit

/// The chart helpers every section shares: one style (colour and marker) per backend, charts
/// registered as SVG files and linked as images, bar charts with one bar per backend.
extension ResultsView {
    /// Each backend's chart style, by its position among the run's backends.
    var chartStyles: [String: SeriesStyle] {
        Dictionary(uniqueKeysWithValues: backends.enumerated().map { ($0.element, ChartPalette.style(at: $0.offset)) })
    }

    /// The key of a backend in the tables under charts: its marker and colour, `● blue`.
    func chartKey(_ backend: String) -> String { chartStyles[backend]?.label ?? "" }

    /// Registers `chart`'s SVG under `file` (a readable base name, made unique in the report)
    /// and returns the Markdown that shows it: `![title](prefix/file.svg)` and a blank line.
    func chart(_ chart: SVGChart, file: String) -> String {
        let name = charts.add(file, svg: chart.render())
        let link = (charts.linkPrefix + name).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
        return "![\(Self.altText(chart.title))](\(link))\n\n"
    }

    /// A title as Markdown image text: no brackets or line breaks, which would end it.
    static func altText(_ title: String) -> String {
        String(title.map { c -> Character in
            switch c {
            case "[": "("
            case "]": ")"
            case "\n", "\r": " "
            default: c
            }
        })
    }

    /// A bar chart with one bar per backend, in the backend's colour with its marker at the
    /// value, and the interval's whisker where the value has one; each bar labelled with the
    /// backend and `format(value)`. `ratio`: the axis is logarithmic (`1×`, `2×`, `5×`, …), else
    /// linear from 0 with ticks labelled by `tick`. Returns the Markdown image line.
    public func barChart(title: String, subtitle: String? = nil, yTitle: String, file: String,
                         values: [(backend: String, value: Estimate)], ratio: Bool,
                         format: (Double) -> String, tick: @escaping (Double) -> String = { Format.compactNumber($0) }) -> String {
        var chart = SVGChart(kind: .bars, title: title, subtitle: subtitle, yTitle: yTitle,
                             xAxis: .categories(values.map { [$0.backend, format($0.value.value)] }),
                             valueAxis: ratio ? .ratio : .linear(tick))
        chart.series = values.enumerated().map { i, v in
            SVGChart.Series(name: v.backend, style: chartStyles[v.backend] ?? ChartPalette.style(at: i),
                            points: [.init(x: Double(i), value: v.value.value, low: v.value.low, high: v.value.high)])
        }
        return self.chart(chart, file: file)
    }
}

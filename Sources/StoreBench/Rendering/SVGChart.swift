import Foundation

/// One chart of the report as a standalone SVG file: a title in words (and a subtitle), a
/// legend naming every series by colour and marker, a value axis (logarithmic for ratios,
/// linear from 0 otherwise) with its title in words and its unit, an x-axis of categories or
/// of sizes on a logarithmic scale, and bars (one per series) or lines, each value with its
/// interval as a whisker where it has one.
///
/// Text is laid out with `TextMetrics`' estimate of its size: the chart widens until its x
/// labels fit side by side, wraps its titles, flows its legend into rows, and stacks every block
/// of text apart, so no two labels overlap. The lines of a line chart are shifted a few pixels
/// sideways from each other, so markers at equal values stay visible. Output is plain SVG 1.1
/// text (no script, no external resource, no font), so GitHub and browsers show it as an image.
///
/// ```swift
/// var chart = SVGChart(kind: .lines, title: "Read throughput", yTitle: "reads per second",
///                      xAxis: .categories([["1 thread"], ["2 threads"]]), valueAxis: .linear(ChartScale.compact))
/// chart.series = [.init(name: "sqlite", style: ChartPalette.style(at: 0), points: [.init(x: 0, value: 10), .init(x: 1, value: 19)])]
/// let svg = chart.render()
/// ```
struct SVGChart {
    enum Kind { case bars, lines }

    /// One value: at category index `x` (or size `x` on a logarithmic x-axis), with its interval.
    struct Point {
        var x: Double
        var value: Double
        var low: Double? = nil
        var high: Double? = nil

        /// The interval, when it has one wider than a point.
        var interval: (low: Double, high: Double)? {
            guard let low, let high, high > low else { return nil }
            return (low, high)
        }
    }

    struct Series {
        var name: String
        var style: SeriesStyle
        var points: [Point]
    }

    enum XAxis {
        /// Evenly spaced categories, each labelled by one or more lines; a point's x is its index.
        case categories([[String]])
        /// Positions logarithmic in a size: ticks at `value` with their label lines; a point's x is its size.
        case logarithmic([(value: Double, label: [String])])
    }

    enum ValueAxis {
        /// Ratios: logarithmic, ticks `1×`, `2×`, `5×`, …
        case ratio
        /// From 0, ticks labelled by the function.
        case linear((Double) -> String)
    }

    var kind: Kind
    var title: String
    var subtitle: String?
    /// The value axis's title, in words with its unit; printed above the axis.
    var yTitle: String
    var xTitle: String?
    var xAxis: XAxis
    var valueAxis: ValueAxis
    var series: [Series] = []

    init(kind: Kind, title: String, subtitle: String? = nil, yTitle: String, xTitle: String? = nil, xAxis: XAxis,
         valueAxis: ValueAxis, series: [Series] = []) {
        self.kind = kind
        self.title = title
        self.subtitle = subtitle
        self.yTitle = yTitle
        self.xTitle = xTitle
        self.xAxis = xAxis
        self.valueAxis = valueAxis
        self.series = series
    }

    /// The value axis fitted to every value and interval end of the series.
    var scale: ChartScale {
        let points = series.flatMap(\.points)
        let values = points.map(\.value) + points.compactMap(shownInterval).flatMap { [$0.low, $0.high] }
        switch valueAxis {
        case .ratio: return ChartScale.ratio(spanning: values)
        case .linear(let label): return ChartScale.linear(spanning: values, label: label)
        }
    }

    /// `p`'s interval when the chart draws it: on a ratio axis, only one within `Format.shownRatios`
    /// (as the tables show it).
    func shownInterval(_ p: Point) -> (low: Double, high: Double)? {
        guard let i = p.interval else { return nil }
        if case .ratio = valueAxis, !(Format.shownRatios.contains(i.low) && Format.shownRatios.contains(i.high)) { return nil }
        return i
    }

    /// The SVG document.
    func render() -> String {
        let layout = ChartLayout(self)
        let w = SVG.number(layout.width), h = SVG.number(layout.height)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" "
        out += "role=\"img\" aria-labelledby=\"chart-title\" font-family=\"system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif\">\n"
        out += "<title id=\"chart-title\">\(SVG.escape(title))</title>\n"
        if let subtitle { out += "<desc>\(SVG.escape(subtitle))</desc>\n" }
        out += SVG.rect(x: 0, y: 0, width: layout.width, height: layout.height, fill: ChartPalette.background) + "\n"
        out += [headings(layout), legend(layout), grid(layout), marks(layout), axes(layout)].joined(separator: "\n")
        return out + "\n</svg>\n"
    }
}

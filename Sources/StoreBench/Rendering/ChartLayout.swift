import Foundation

/// Where everything of an `SVGChart` goes, in pixels, from the top down: the title's lines, the
/// subtitle's, the legend's rows, the value axis's title, the plot, the x labels and the x
/// title, each block clear of the next by the text boxes `TextMetrics` estimates. The plot is
/// as wide as its x labels need side by side (at least as wide as `minimumWidth` allows).
struct ChartLayout {
    static let margin = 16.0
    static let titleSize = 16.0
    static let textSize = 12.0
    static let plotHeight = 300.0
    static let minimumWidth = 640.0
    /// Pixels between the baselines of stacked lines of text.
    static let titleLeading = 20.0, textLeading = 16.0, xLabelLeading = 15.0
    /// The least room between two ticks of the value axis, and between two x labels.
    static let tickGap = 16.0, labelGap = 16.0

    struct LegendItem {
        let series: Int
        /// The left of its symbol, and the centre line of its row.
        let x: Double
        let y: Double
    }

    let scale: ChartScale
    let width: Double
    let height: Double
    let titleLines: [String]
    let titleBaseline: Double
    let subtitleLines: [String]
    let subtitleBaseline: Double
    let legend: [LegendItem]
    let yTitleLines: [String]
    let yTitleBaseline: Double
    let plotLeft: Double
    let plotTop: Double
    let plotWidth: Double
    let xLabelBaseline: Double
    let xTitleBaseline: Double
    /// For a logarithmic x-axis: the room kept inside the plot at each end for half a label.
    let xPadding: (left: Double, right: Double)
    /// Each series' sideways shift (lines only), so equal values stay apart.
    let offsets: [Double]

    var plotBottom: Double { plotTop + Self.plotHeight }

    init(_ chart: SVGChart) {
        let scale = chart.scale.thinned(length: Self.plotHeight, gap: Self.tickGap)
        self.scale = scale
        let tickWidth = scale.labels.map { TextMetrics.width($0, size: Self.textSize) }.max() ?? 0
        plotLeft = Self.margin + tickWidth + 8
        let needed = Self.plotWidthNeeded(chart)
        plotWidth = max(needed.width, Self.minimumWidth - plotLeft - Self.margin)
        xPadding = needed.padding
        width = plotLeft + plotWidth + Self.margin
        let text = width - 2 * Self.margin
        titleLines = TextMetrics.wrap(chart.title, size: Self.titleSize, width: text)
        subtitleLines = chart.subtitle.map { TextMetrics.wrap($0, size: Self.textSize, width: text) } ?? []
        yTitleLines = TextMetrics.wrap(chart.yTitle, size: Self.textSize, width: text)
        // Stack the blocks: each starts below the previous one's lowest text box.
        var cursor = Self.margin
        titleBaseline = cursor + TextMetrics.ascent * Self.titleSize
        cursor = titleBaseline + Self.titleLeading * Double(titleLines.count - 1) + TextMetrics.descent * Self.titleSize + 4
        subtitleBaseline = cursor + TextMetrics.ascent * Self.textSize
        if !subtitleLines.isEmpty {
            cursor = subtitleBaseline + Self.textLeading * Double(subtitleLines.count - 1) + TextMetrics.descent * Self.textSize
        }
        let rows = Self.legendRows(chart, top: cursor + 8, width: width)
        legend = rows.items
        cursor = rows.bottom + 8
        yTitleBaseline = cursor + TextMetrics.ascent * Self.textSize
        cursor = yTitleBaseline + Self.textLeading * Double(yTitleLines.count - 1) + TextMetrics.descent * Self.textSize
        plotTop = cursor + 12
        xLabelBaseline = plotTop + Self.plotHeight + 18
        let labelLines = Self.xLabels(chart).map(\.count).max() ?? 1
        cursor = xLabelBaseline + Self.xLabelLeading * Double(labelLines - 1) + TextMetrics.descent * Self.textSize
        xTitleBaseline = cursor + 8 + TextMetrics.ascent * Self.textSize
        if chart.xTitle != nil { cursor = xTitleBaseline + TextMetrics.descent * Self.textSize }
        height = (cursor + Self.margin).rounded(.up)
        offsets = Self.offsets(chart, plotWidth: plotWidth, padding: needed.padding)
    }

    /// The label lines under the x-axis, in axis order.
    static func xLabels(_ chart: SVGChart) -> [[String]] {
        switch chart.xAxis {
        case .categories(let labels): labels
        case .logarithmic(let ticks): ticks.map(\.label)
        }
    }

    static func labelWidth(_ lines: [String]) -> Double {
        lines.map { TextMetrics.width($0, size: textSize) }.max() ?? 0
    }

    /// The slot of one category: its widest label and a gap, and room for a bar or a few markers.
    static func slotWidth(_ chart: SVGChart) -> Double {
        let widest = xLabels(chart).map(labelWidth).max() ?? 0
        return max(widest + labelGap, chart.kind == .bars ? 64 : 96)
    }
}

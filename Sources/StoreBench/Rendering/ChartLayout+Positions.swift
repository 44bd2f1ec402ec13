import Foundation

/// Where values land in the plot, how wide the plot must be, the legend's rows, and the lines'
/// sideways shifts.
extension ChartLayout {
    /// The y of `value`.
    func y(_ value: Double) -> Double { plotBottom - scale.fraction(value) * Self.plotHeight }

    /// The x of a point's `x` (a category index, or a size on a logarithmic axis), unshifted.
    func x(_ x: Double, axis: SVGChart.XAxis) -> Double {
        switch axis {
        case .categories(let labels):
            let slot = plotWidth / Double(max(labels.count, 1))
            return plotLeft + slot * (x + 0.5)
        case .logarithmic(let ticks):
            let values = ticks.map(\.value).filter { $0 > 0 }
            let inner = plotWidth - xPadding.left - xPadding.right
            guard let lo = values.min(), let hi = values.max(), hi > lo, x > 0 else {
                return plotLeft + xPadding.left + inner / 2
            }
            return plotLeft + xPadding.left + inner * log(x / lo) / log(hi / lo)
        }
    }

    /// The plot's width that keeps x labels apart, and (logarithmic axis) the room at its ends.
    static func plotWidthNeeded(_ chart: SVGChart) -> (width: Double, padding: (left: Double, right: Double)) {
        switch chart.xAxis {
        case .categories(let labels):
            return (slotWidth(chart) * Double(labels.count), (0, 0))
        case .logarithmic(let ticks):
            let sorted = ticks.filter { $0.value > 0 }.sorted { $0.value < $1.value }
            guard let first = sorted.first, let last = sorted.last else { return (0, (0, 0)) }
            let padding = (left: labelWidth(first.label) / 2 + 12, right: labelWidth(last.label) / 2 + 12)
            let span = log(last.value / first.value)
            var inner = 360.0
            for (a, b) in zip(sorted, sorted.dropFirst()) where b.value > a.value {
                let apart = (labelWidth(a.label) + labelWidth(b.label)) / 2 + labelGap
                inner = max(inner, apart * span / log(b.value / a.value))
            }
            return (inner + padding.left + padding.right, padding)
        }
    }

    /// The legend's items flowed into rows from `top` within the chart's width, and the bottom
    /// of the last row.
    static func legendRows(_ chart: SVGChart, top: Double, width: Double) -> (items: [LegendItem], bottom: Double) {
        var items: [LegendItem] = []
        var x = margin, row = 0
        for (i, s) in chart.series.enumerated() {
            let itemWidth = symbolWidth(chart) + 6 + TextMetrics.width(s.name, size: textSize)
            if x > margin && x + itemWidth > width - margin {
                row += 1
                x = margin
            }
            items.append(LegendItem(series: i, x: x, y: top + 10 + 20 * Double(row)))
            x += itemWidth + 18
        }
        return (items, chart.series.isEmpty ? top : top + 20 * Double(row + 1))
    }

    /// The legend's symbol: a marker on a short stretch of line for a line chart, a marker alone for bars.
    static func symbolWidth(_ chart: SVGChart) -> Double { chart.kind == .lines ? 26 : 14 }

    /// The sideways shift of each series: none for bars; for lines, spread around the true x by
    /// up to 8 px a step, within half the room between neighbouring x positions.
    static func offsets(_ chart: SVGChart, plotWidth: Double, padding: (left: Double, right: Double)) -> [Double] {
        let n = chart.series.count
        guard chart.kind == .lines, n > 1 else { return Array(repeating: 0, count: n) }
        var room: Double
        switch chart.xAxis {
        case .categories(let labels): room = plotWidth / Double(max(labels.count, 1))
        case .logarithmic(let ticks):
            let vs = ticks.map(\.value).filter { $0 > 0 }.sorted()
            let inner = plotWidth - padding.left - padding.right
            let span = log((vs.last ?? 1) / (vs.first ?? 1))
            room = span > 0 ? zip(vs, vs.dropFirst()).map { inner * log($1 / $0) / span }.min() ?? inner : inner
        }
        let step = min(8, room / 2 / Double(n))
        return (0..<n).map { (Double($0) - Double(n - 1) / 2) * step }
    }
}

import Foundation

/// The chart's text around the plot and its axes: title, subtitle, the value axis's title above
/// the plot, the grid with its tick labels, the x labels and the x title.
extension SVGChart {
    typealias L = ChartLayout

    /// Title (bold) and subtitle lines, left-aligned at the margin.
    func headings(_ layout: ChartLayout) -> String {
        var texts = layout.titleLines.enumerated().map { i, line in
            SVG.text(line, x: L.margin, y: layout.titleBaseline + L.titleLeading * Double(i), size: L.titleSize,
                     weight: "600", className: "title")
        }
        texts += layout.subtitleLines.enumerated().map { i, line in
            SVG.text(line, x: L.margin, y: layout.subtitleBaseline + L.textLeading * Double(i), size: L.textSize,
                     fill: ChartPalette.muted, className: "subtitle")
        }
        texts += layout.yTitleLines.enumerated().map { i, line in
            SVG.text(line, x: L.margin, y: layout.yTitleBaseline + L.textLeading * Double(i), size: L.textSize, className: "axis-title")
        }
        return SVG.group("headings", texts)
    }

    /// A horizontal grid line and a label per tick of the value axis; on a ratio axis, the line
    /// at 1× (the fastest) darker and dashed.
    func grid(_ layout: ChartLayout) -> String {
        let right = layout.plotLeft + layout.plotWidth
        var parts: [String] = []
        for (tick, label) in zip(layout.scale.ticks, layout.scale.labels) {
            let y = layout.y(tick)
            let reference = layout.scale.kind == .logarithmic && abs(tick - 1) < 1e-9
            parts.append(SVG.line(layout.plotLeft, y, right, y, stroke: reference ? ChartPalette.axis : ChartPalette.grid,
                                  dash: reference ? "4 3" : nil))
            parts.append(SVG.text(label, x: layout.plotLeft - 8, y: y + 4, size: L.textSize, anchor: .end, className: "tick"))
        }
        return SVG.group("grid", parts)
    }

    /// The axis lines, the x labels under the plot and the x title.
    func axes(_ layout: ChartLayout) -> String {
        let bottom = layout.plotBottom, right = layout.plotLeft + layout.plotWidth
        var parts = [SVG.line(layout.plotLeft, layout.plotTop, layout.plotLeft, bottom, stroke: ChartPalette.axis),
                     SVG.line(layout.plotLeft, bottom, right, bottom, stroke: ChartPalette.axis)]
        let positions: [(x: Double, lines: [String])]
        switch xAxis {
        case .categories(let labels): positions = labels.enumerated().map { (layout.x(Double($0.offset), axis: xAxis), $0.element) }
        case .logarithmic(let ticks): positions = ticks.map { (layout.x($0.value, axis: xAxis), $0.label) }
        }
        for (x, lines) in positions {
            parts.append(SVG.line(x, bottom, x, bottom + 5, stroke: ChartPalette.axis))
            for (k, line) in lines.enumerated() {
                parts.append(SVG.text(line, x: x, y: layout.xLabelBaseline + L.xLabelLeading * Double(k), size: L.textSize,
                                      anchor: .middle, fill: k == 0 ? ChartPalette.ink : ChartPalette.muted, className: "x-label"))
            }
        }
        if let xTitle {
            parts.append(SVG.text(xTitle, x: layout.plotLeft + layout.plotWidth / 2, y: layout.xTitleBaseline, size: L.textSize,
                                  anchor: .middle, className: "axis-title"))
        }
        return SVG.group("axes", parts)
    }
}

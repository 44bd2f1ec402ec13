import Foundation

/// The legend: every series' marker (on a stretch of its line, for a line chart) and its name.
extension SVGChart {
    func legend(_ layout: ChartLayout) -> String {
        let items = layout.legend.map { item -> String in
            let s = series[item.series]
            var parts: [String] = []
            let symbol = ChartLayout.symbolWidth(self)
            if kind == .lines {
                parts.append(SVG.line(item.x, item.y, item.x + symbol, item.y, stroke: s.style.color.hex, width: 2))
            }
            parts.append(s.style.marker.svg(x: item.x + symbol / 2, y: item.y, fill: s.style.color.hex))
            parts.append(SVG.text(s.name, x: item.x + symbol + 6, y: item.y + 4, size: ChartLayout.textSize, className: "legend-label"))
            return SVG.group("legend-item", series: s.name, parts)
        }
        return SVG.group("legend", items)
    }
}

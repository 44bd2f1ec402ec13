import Foundation

/// The data: bars or lines, whiskers for intervals, and markers, one group per series.
extension SVGChart {
    func marks(_ layout: ChartLayout) -> String {
        let groups = series.enumerated().map { i, s in
            SVG.group("series", series: s.name, kind == .bars ? bar(s, layout) : line(s, layout, offset: layout.offsets[i]))
        }
        return groups.joined(separator: "\n")
    }

    /// A bar per point from the bottom of the axis, its whisker, and its marker at its value on top.
    func bar(_ s: Series, _ layout: ChartLayout) -> [String] {
        var parts: [String] = []
        let slot: Double
        if case .categories(let labels) = xAxis { slot = layout.plotWidth / Double(max(labels.count, 1)) } else { slot = 64 }
        let barWidth = min(slot * 0.6, 48)
        for p in s.points {
            let x = layout.x(p.x, axis: xAxis), top = layout.y(p.value)
            parts.append(SVG.rect(x: x - barWidth / 2, y: top, width: barWidth, height: max(layout.plotBottom - top, 0),
                                  fill: s.style.color.hex))
            if let interval = shownInterval(p) {
                parts += whisker(x: x, low: layout.y(interval.low), high: layout.y(interval.high), cap: 7, stroke: ChartPalette.ink, halo: true)
            }
            parts.append(s.style.marker.svg(x: x, y: top, fill: s.style.color.hex))
        }
        return parts
    }

    /// The series' line through its points (shifted by `offset`), their whiskers, then their markers.
    func line(_ s: Series, _ layout: ChartLayout, offset: Double) -> [String] {
        let points = s.points.sorted { $0.x < $1.x }.map { (p: $0, x: layout.x($0.x, axis: xAxis) + offset, y: layout.y($0.value)) }
        var parts: [String] = []
        if points.count > 1 { parts.append(SVG.polyline(points.map { ($0.x, $0.y) }, stroke: s.style.color.hex)) }
        for q in points {
            guard let interval = shownInterval(q.p) else { continue }
            parts += whisker(x: q.x, low: layout.y(interval.low), high: layout.y(interval.high), cap: 4, stroke: s.style.color.hex)
        }
        parts += points.map { s.style.marker.svg(x: $0.x, y: $0.y, fill: s.style.color.hex) }
        return parts
    }

    /// A vertical line from `low` to `high` (pixels) with caps `cap` pixels either side; with a
    /// `halo`, over a wider white one, so it shows on a bar of any colour.
    func whisker(x: Double, low: Double, high: Double, cap: Double, stroke: String, halo: Bool = false) -> [String] {
        func strokes(_ colour: String, _ width: Double) -> [String] {
            [SVG.line(x, low, x, high, stroke: colour, width: width),
             SVG.line(x - cap, low, x + cap, low, stroke: colour, width: width),
             SVG.line(x - cap, high, x + cap, high, stroke: colour, width: width)]
        }
        return [SVG.group("whisker", (halo ? strokes(ChartPalette.background, 3.5) : []) + strokes(stroke, 1.5))]
    }
}

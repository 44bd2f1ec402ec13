import Foundation

/// The shape a series' points are drawn with, one per series, so that series differ by shape
/// as well as by colour. Every marker is filled with its series' colour and outlined in white,
/// so markers that touch stay apart.
enum ChartMarker: String, CaseIterable, Hashable {
    case circle, square, triangle, diamond, triangleDown, star, cross, plus

    /// The marker as a character, for the tables under the charts.
    var glyph: String {
        switch self {
        case .circle: "●"
        case .square: "■"
        case .triangle: "▲"
        case .diamond: "◆"
        case .triangleDown: "▼"
        case .star: "★"
        case .cross: "✖"
        case .plus: "✚"
        }
    }

    /// The SVG element of the marker centred at (`x`, `y`), about 11 px across.
    func svg(x: Double, y: Double, fill: String) -> String {
        let style = "fill=\"\(fill)\" stroke=\"\(ChartPalette.background)\" stroke-width=\"1\""
        if self == .circle {
            return "<circle cx=\"\(SVG.number(x))\" cy=\"\(SVG.number(y))\" r=\"5\" \(style)/>"
        }
        let points = outline.map { "\(SVG.number(x + $0.0)),\(SVG.number(y + $0.1))" }.joined(separator: " ")
        return "<polygon points=\"\(points)\" \(style)/>"
    }

    /// The polygon's corners around the centre (circle: none, it is drawn as a circle).
    private var outline: [(Double, Double)] {
        switch self {
        case .circle: []
        case .square: [(-4.5, -4.5), (4.5, -4.5), (4.5, 4.5), (-4.5, 4.5)]
        case .triangle: [(0, -6), (6, 4.5), (-6, 4.5)]
        case .diamond: [(0, -6.5), (6.5, 0), (0, 6.5), (-6.5, 0)]
        case .triangleDown: [(0, 6), (6, -4.5), (-6, -4.5)]
        case .star:
            (0..<10).map { k in
                let r = k % 2 == 0 ? 6.5 : 2.8, angle = Double.pi * (Double(k) / 5 - 0.5)
                return (r * cos(angle), r * sin(angle))
            }
        case .cross:
            [(-5, -3), (-3, -5), (0, -2), (3, -5), (5, -3), (2, 0), (5, 3), (3, 5), (0, 2), (-3, 5), (-5, 3), (-2, 0)]
        case .plus:
            [(-2, -6), (2, -6), (2, -2), (6, -2), (6, 2), (2, 2), (2, 6), (-2, 6), (-2, 2), (-6, 2), (-6, -2), (-2, -2)]
        }
    }
}

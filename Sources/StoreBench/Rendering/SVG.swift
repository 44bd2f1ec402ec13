import Foundation

/// The few SVG elements the charts draw, as text: numbers in a fixed short form (so a report
/// renders byte for byte the same each time) and every text escaped for XML.
enum SVG {
    /// A coordinate or length: at most two decimals, no trailing zeros (`12`, `12.5`, `12.25`).
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        var s = String(format: "%.2f", x)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }

    /// `text` safe inside an element or a double-quoted attribute.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Control characters other than tab and newline are not allowed in XML 1.0.
                if let a = c.asciiValue, a < 0x20, a != 0x09, a != 0x0A { out += " " } else { out.append(c) }
            }
        }
        return out
    }

    enum Anchor: String { case start, middle, end }

    /// One line of text with its baseline at `y`.
    static func text(_ s: String, x: Double, y: Double, size: Double, anchor: Anchor = .start, fill: String = ChartPalette.ink,
                     weight: String? = nil, className: String? = nil) -> String {
        var attributes = "x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(number(size))\""
        if anchor != .start { attributes += " text-anchor=\"\(anchor.rawValue)\"" }
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        attributes += " fill=\"\(fill)\""
        if let className { attributes += " class=\"\(className)\"" }
        return "<text \(attributes)>\(escape(s))</text>"
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1,
                     dash: String? = nil) -> String {
        "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(stroke)\" "
            + "stroke-width=\"\(number(width))\"" + (dash.map { " stroke-dasharray=\"\($0)\"" } ?? "") + "/>"
    }

    static func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil) -> String {
        "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\" fill=\"\(fill)\""
            + (stroke.map { " stroke=\"\($0)\" stroke-width=\"1\"" } ?? "") + "/>"
    }

    static func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 2) -> String {
        let list = points.map { "\(number($0.0)),\(number($0.1))" }.joined(separator: " ")
        return "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(number(width))\" "
            + "stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
    }

    /// A group whose `data-series` names the series it draws (tests read it back).
    static func group(_ className: String, series: String? = nil, _ children: [String]) -> String {
        let seriesAttribute = series.map { " data-series=\"\(escape($0))\"" } ?? ""
        return "<g class=\"\(className)\"\(seriesAttribute)>\n" + children.map { "  " + $0 }.joined(separator: "\n") + "\n</g>"
    }
}

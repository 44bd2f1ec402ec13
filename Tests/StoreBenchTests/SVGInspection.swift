import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One SVG chart read back with Foundation's XMLParser: whether it is well-formed, its title,
/// its texts with their estimated boxes, its legend and its series (by the `data-series` of
/// their groups), and each series' marks.
struct SVGInspection {
    struct Text {
        let content: String
        let x: Double
        let y: Double
        let size: Double
        let anchor: String
        let className: String
        let transformed: Bool

        /// The box the text takes, estimated as the charts estimate it independently here:
        /// 0.6 em a character, 0.8 em above the baseline and 0.2 em below.
        var box: (x0: Double, y0: Double, x1: Double, y1: Double) {
            let w = Double(content.count) * 0.6 * size
            let x0 = anchor == "middle" ? x - w / 2 : anchor == "end" ? x - w : x
            return (x0, y - 0.8 * size, x0 + w, y + 0.2 * size)
        }
    }

    struct Mark {
        let element: String
        let attributes: [String: String]
    }

    var wellFormed = false
    var error: String?
    var title = ""
    var width = 0.0
    var height = 0.0
    var texts: [Text] = []
    var legend: [String] = []
    var legendLabels: [String] = []
    var series: [String] = []
    /// Per series: its marks outside whiskers (bars, lines, markers), and its whiskers' count.
    var marks: [String: [Mark]] = [:]
    var whiskers: [String: Int] = [:]

    init(_ svg: String) {
        let delegate = Delegate()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = delegate
        wellFormed = parser.parse()
        error = parser.parserError.map { "\($0)" }
        self = delegate.result(wellFormed: wellFormed, error: error)
    }

    fileprivate init() {}

    /// Pairs of texts whose boxes overlap (touching is not overlapping).
    var overlaps: [(String, String)] {
        var out: [(String, String)] = []
        for (i, a) in texts.enumerated() {
            for b in texts[(i + 1)...] {
                let p = a.box, q = b.box
                if p.x0 < q.x1 - 0.01 && q.x0 < p.x1 - 0.01 && p.y0 < q.y1 - 0.01 && q.y0 < p.y1 - 0.01 {
                    out.append((a.content, b.content))
                }
            }
        }
        return out
    }

    /// Texts whose box reaches outside the picture.
    var outside: [String] {
        texts.filter { $0.box.x0 < 0 || $0.box.y0 < 0 || $0.box.x1 > width || $0.box.y1 > height }.map(\.content)
    }

    /// The first marker (circle or polygon) of a series: its element, fill and corner count.
    func marker(of series: String) -> String? {
        guard let m = marks[series]?.first(where: { $0.element == "circle" || $0.element == "polygon" }) else { return nil }
        let corners = m.attributes["points"].map { $0.split(separator: " ").count } ?? 0
        return "\(m.element) \(m.attributes["fill"] ?? "") \(corners)"
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var inspection = SVGInspection()
        /// The open elements' names and attributes, outermost first.
        var stack: [(String, [String: String])] = []
        var characters = ""

        func result(wellFormed: Bool, error: String?) -> SVGInspection {
            var r = inspection
            r.wellFormed = wellFormed
            r.error = error
            return r
        }

        func enclosing(_ className: String) -> [String: String]? {
            stack.last { $0.0 == "g" && $0.1["class"] == className }?.1
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            stack.append((name, attributes))
            characters = ""
            if name == "svg" {
                inspection.width = Double(attributes["width"] ?? "") ?? 0
                inspection.height = Double(attributes["height"] ?? "") ?? 0
            }
            if name == "g", let s = attributes["data-series"] {
                if attributes["class"] == "legend-item" { inspection.legend.append(s) }
                if attributes["class"] == "series" { inspection.series.append(s) }
            }
            if name == "g", attributes["class"] == "whisker", let s = enclosing("series")?["data-series"] {
                inspection.whiskers[s, default: 0] += 1
            }
            if ["rect", "polyline", "polygon", "circle", "line"].contains(name), enclosing("whisker") == nil,
               let s = enclosing("series")?["data-series"] {
                inspection.marks[s, default: []].append(Mark(element: name, attributes: attributes))
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { characters += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard let (_, a) = stack.popLast() else { return }
            if name == "title" && stack.last?.0 == "svg" { inspection.title = characters }
            if name == "text" {
                inspection.texts.append(Text(content: characters, x: Double(a["x"] ?? "") ?? 0, y: Double(a["y"] ?? "") ?? 0,
                                             size: Double(a["font-size"] ?? "") ?? 16, anchor: a["text-anchor"] ?? "start",
                                             className: a["class"] ?? "", transformed: a["transform"] != nil))
                if a["class"] == "legend-label" { inspection.legendLabels.append(characters) }
            }
            characters = ""
        }
    }
}

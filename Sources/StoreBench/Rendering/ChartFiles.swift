import Foundation

/// The SVG files of one rendering of a report, collected as its sections draw their charts:
/// file name → SVG text, in the order the charts appear. A chart registers its SVG under a
/// readable name (`time-by-category-crud.svg`); a name already taken by another chart gets
/// `-2`, `-3`, … so every file of a report is its own. `MarkdownReport.write(to:)` writes them
/// beside the detail pages, which link them as `linkPrefix` + name.
public final class ChartFiles {
    /// What goes before a file name in the Markdown's links: the folder of the SVGs as seen
    /// from the page that shows them (`latest/`), or "" from a page inside that folder.
    public let linkPrefix: String
    /// File name and SVG text of each chart, in the order registered.
    public private(set) var files: [(name: String, svg: String)] = []

    public init(linkPrefix: String = "") { self.linkPrefix = linkPrefix }

    /// Registers `svg` under `base` (made a readable file name: lower case, `-` between words)
    /// and returns the file name it got. The same chart registered again (a page rendered
    /// twice) keeps its file; another chart under a taken name gets the next free suffix.
    @discardableResult
    public func add(_ base: String, svg: String) -> String {
        let slug = Self.slug(base)
        var name = slug + ".svg", n = 1
        while let taken = files.first(where: { $0.name == name }) {
            if taken.svg == svg { return name }
            n += 1
            name = "\(slug)-\(n).svg"
        }
        files.append((name, svg))
        return name
    }

    /// The SVG registered as `name`, if any.
    public func svg(named name: String) -> String? { files.first { $0.name == name }?.svg }

    /// `crud.read-pk.single` → `crud-read-pk-single`: ASCII letters and digits, `-` for the rest.
    static func slug(_ s: String) -> String {
        var out = ""
        for c in s.lowercased() {
            if c.isASCII && (c.isLetter || c.isNumber) { out.append(c) } else if !out.isEmpty && !out.hasSuffix("-") { out.append("-") }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "chart" : out
    }
}

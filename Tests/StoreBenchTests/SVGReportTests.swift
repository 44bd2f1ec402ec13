import Foundation
@testable import StoreBench
import StoreConformance
import Testing

/// Every SVG a written report holds, read back: well-formed XML, a title, every series in the
/// legend, no two labels' estimated boxes overlapping, nothing outside the picture; and the
/// Markdown links exactly the files written, from the folder beside it.
@Suite struct SVGReportTests {
    /// Writes the report of `results` as `<tmp>/<name>.md` with its pages and charts in
    /// `<tmp>/<name>/`, and checks the charts and their links.
    func check(_ results: RunResults, name: String, expectAtLeast charts: Int) throws {
        let dir = try TemporaryDirectory("svg-report")
        let md = dir.url.appendingPathComponent("\(name).md")
        let folder = dir.url.appendingPathComponent(name)
        // Files an earlier report left: a stale chart goes, a file of another kind stays.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("<svg/>".utf8).write(to: folder.appendingPathComponent("stale-chart.svg"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try MarkdownReport(results, folder: name).write(to: md)

        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let files = names.filter { $0.hasSuffix(".svg") }
        #expect(files.count >= charts, "\(name): \(files.count) charts")
        #expect(!files.contains("stale-chart.svg"), "stale SVGs are removed")
        #expect(names.contains("notes.txt"), "other files stay")
        // Every page's image links, resolved from the page's own folder.
        let pages = [md] + names.filter { $0.hasSuffix(".md") }.map { folder.appendingPathComponent($0) }
        var links: [(alt: String, file: URL)] = []
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            links += text.matches(of: /!\[([^\]]+)\]\(([^)]+\.svg)\)/).map {
                (String($0.output.1), page.deletingLastPathComponent().appendingPathComponent(String($0.output.2)).standardizedFileURL)
            }
        }
        #expect(links.map(\.file.path).sorted() == files.map { folder.appendingPathComponent($0).standardizedFileURL.path },
                "every chart file linked once from a page, and every link to a file written")
        for (alt, file) in links {
            try checkChart(try String(contentsOf: file, encoding: .utf8), alt: alt, link: file.lastPathComponent)
        }
    }

    func checkChart(_ svg: String, alt: String, link: String) throws {
        let chart = SVGInspection(svg)
        #expect(chart.wellFormed, "\(link): \(chart.error ?? "")")
        #expect(!chart.title.isEmpty && chart.title == alt, "\(link): title")
        #expect(chart.texts.contains { $0.className == "title" }, "\(link): title drawn")
        #expect(!chart.series.isEmpty, "\(link): no series")
        #expect(Set(chart.series).isSubset(of: Set(chart.legend)) && chart.legendLabels == chart.legend, "\(link): legend \(chart.legend) for \(chart.series)")
        #expect(chart.overlaps.isEmpty, "\(link): overlapping labels \(chart.overlaps)")
        #expect(chart.outside.isEmpty, "\(link): labels outside the picture \(chart.outside)")
        #expect(!chart.texts.contains { $0.transformed }, "\(link): labels are laid out unrotated")
    }

    @Test func theReferenceReportsChartsAreWellFormedAndReadable() throws {
        Bench.registerCommandSuites()  // as `storebench report` renders it
        let results = try RunResults.read(Bench.root.appendingPathComponent("Reports/reference.json").path)
        try check(results, name: "reference", expectAtLeast: 10)
    }

    @Test func aSyntheticReportsChartsAreWellFormedAndReadable() throws {
        try check(ChartTests.results(outlier: 40), name: "synthetic", expectAtLeast: 8)
    }

    @Test func renderingTwiceKeepsOneFilePerChart() {
        let report = MarkdownReport(ChartTests.results())
        let once = report.renderAll()
        let names = report.chartFiles.files.map(\.name)
        #expect(report.renderAll() == once && report.chartFiles.files.map(\.name) == names, "the same charts, the same files")
    }
}

import Foundation
import StoreConformance
import StoreBenchKit

/// The detail pages the first page links to, in a folder beside it: one per workload family,
/// and the setup, charts, backends and method.
extension MarkdownReport {
    /// Each detail page: its file name inside `folder`, and its text.
    public func pages() -> [(name: String, text: String)] {
        var out: [(String, String)] = []
        for category in view.categories {
            guard let text = familyPage(category) else { continue }
            out.append(("\(category.rawValue).md", text))
        }
        out.append(("setup.md", header("Setup") + view.setup()))
        out.append(("charts.md", header("Charts") + charts()))
        out.append(("backends.md", header("Backends") + view.featureMatrix()))
        out.append(("method.md", header("Method") + view.method()))
        if !view.failedCells.isEmpty || results.cells.contains(where: { $0.status != .ok }) {
            out.append(("failures.md", header("Failed and skipped cells") + view.failures()))
        }
        return out
    }

    /// The first page and every detail page, one after the other (for a search through all of it).
    public func renderAll() -> String {
        ([render()] + pages().map(\.text)).joined(separator: "\n")
    }

    /// The first page's links to the detail pages.
    func detailLinks() -> String {
        var md = "## Details\n\n"
        md += "Per family, every workload decided with every backend's ratio and interval, the family's own sections and the full tables: "
        md += pages().compactMap { p in
            let category = view.categories.first { "\($0.rawValue).md" == p.name }
            return category.map { "[\($0.rawValue)](\(view.pageLink($0)))" }
        }.joined(separator: " · ") + ".\n\n"
        md += "Also: [setup and datasets](\(folder)/setup.md) · [charts](\(folder)/charts.md) · "
        md += "[feature matrix](\(folder)/backends.md) · [method](\(folder)/method.md).\n\n"
        return md
    }

    private func header(_ title: String) -> String {
        "# StoreBench report: \(title)\n\n[← the first page](../\(folder).md)\n\n"
    }

    /// A family's page: its workloads decided, its suite's sections, its tables.
    func familyPage(_ category: WorkloadCategory) -> String? {
        let ws = results.workloads.filter { $0.category == category }
        guard !ws.isEmpty else { return nil }
        let suite = suites.first { $0.category == category }
        var md = header(category.rawValue)
        let compared = ws.filter { $0.compared ?? true }.map(\.name)
        if !compared.isEmpty {
            md += "## Decisions at the \(view.mainScale) scale\n\n" + view.decisionRuleText + view.verdictTable(compared, scale: view.mainScale)
            for scale in view.scales where scale != view.mainScale {
                md += view.ratioTable(compared, scale: scale)
            }
        }
        if let suite { md += suite.report(.section, view) }
        md += view.workloadTables(category)
        if let suite { md += suite.report(.afterWorkloads, view) }
        return md
    }

    /// Writes the first page to `file`, and the detail pages and the SVG files of their charts
    /// into the folder beside it (`folder`), removing the pages and charts a previous report
    /// left there.
    public func write(to file: URL) throws {
        try FileAccess.write(Data(render().utf8), to: file.path)
        let dir = file.deletingLastPathComponent().appendingPathComponent(folder)
        try FileAccess.createFolder(dir.path)
        for old in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] where old.hasSuffix(".md") || old.hasSuffix(".svg") {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(old))
        }
        for page in pages() {
            try FileAccess.write(Data(page.text.utf8), to: dir.appendingPathComponent(page.name).path)
        }
        for chart in chartFiles.files {
            try FileAccess.write(Data(chart.svg.utf8), to: dir.appendingPathComponent(chart.name).path)
        }
    }
}

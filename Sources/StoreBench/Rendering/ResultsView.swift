import Foundation
import StoreBenchKit

/// A results file as the report reads it: the run's backends and scales, cells by key, figures
/// and parameters through their declarations, ratios to the fastest, verdicts, and the chart
/// helpers every section shares. Sections are its extensions: the generic ones in `Report/`,
/// each suite's in the suite's folder.
///
/// A section that draws a chart registers the chart's SVG with `charts` and puts the Markdown
/// image line that links it in its text (see `ResultsView.chart(_:file:)`).
public struct ResultsView {
    public let results: RunResults
    /// The folder of the detail pages, relative to the first page (`latest` for `latest.md`).
    public let folder: String
    /// Where this rendering's charts go (a reference: every copy of the view adds to the same).
    public let charts: ChartFiles
    /// The rule every decision of this report follows (`ResultsView+Decisions`).
    public private(set) var decisionRule = DecisionRule(comparisons: 1)

    public init(_ results: RunResults, folder: String = "latest", charts: ChartFiles = ChartFiles()) {
        self.results = results
        self.folder = folder
        self.charts = charts
        decisionRule = makeDecisionRule()
    }

    /// The link from the first page to a family's page.
    public func pageLink(_ category: WorkloadCategory) -> String { "\(folder)/\(category.rawValue).md" }

    // MARK: Shared lookups

    public var backends: [String] { results.targets.filter { $0.id.isBackend }.map(\.id.name) }
    public var scales: [String] { results.datasets.map(\.scale) }
    /// The largest scale of the run: summaries and charts use it.
    public var mainScale: String { scales.last ?? "" }

    /// A figure a workload reported for a backend at a scale (the main scale by default), or
    /// nil when the cell is missing or failed.
    public func figure(_ figure: Figure, _ backend: String, _ workload: String, at scale: String? = nil) -> Double? {
        results.cell(backend, workload, scale ?? mainScale).flatMap { $0.isOK ? $0.figure(figure) : nil }
    }

    /// A whole-number parameter as the first measured cell of `workloads` at the main scale
    /// recorded it; nil in files from before parameters were recorded.
    public func parameter(_ parameter: Parameter, _ workloads: [String]) -> Int? {
        results.cells.lazy.filter { $0.isOK && $0.scale == mainScale && workloads.contains($0.workload) }
            .compactMap { $0.parameter(parameter).flatMap { Int($0) } }.first
    }

    /// The cell of a backend at a scale (the main scale by default), when it measured.
    public func okCell(_ backend: String, _ workload: String, at scale: String? = nil) -> CellResult? {
        results.cell(backend, workload, scale ?? mainScale).flatMap { $0.isOK ? $0 : nil }
    }

    var failedCells: [CellResult] { results.cells.filter { $0.status == .failed || $0.status == .timeout } }

    /// Workloads compared in summaries: measured ones, not the loads that build stores twice over.
    public var comparedWorkloads: [RunResults.WorkloadInfo] { results.workloads.filter { $0.compared ?? true } }

    /// The run's categories, in the order their first workload is listed (then those of cells
    /// only, such as the loads that build the stores).
    public var categories: [WorkloadCategory] {
        var seen: [WorkloadCategory] = []
        for c in results.workloads.map(\.category) + results.cells.map(\.category) where !seen.contains(c) { seen.append(c) }
        return seen
    }

    public func cells(_ workload: String, _ scale: String, backendsOnly: Bool = true) -> [CellResult] {
        results.cells.filter { $0.workload == workload && $0.scale == scale && $0.isOK && $0.nanosPerOperation != nil
            && (!backendsOnly || $0.isBackend) }
    }

}

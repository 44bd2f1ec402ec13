import Foundation

/// The report's Mermaid charts, each with a key of colours before it and a table of its numbers
/// with their intervals after it:
/// - per category, each backend's time per operation ÷ the fastest backend's (geometric mean
///   over the category's workloads), at the main scale;
/// - resident memory after loading the social dataset, per record, at the main scale;
/// - when the run has several scales, a few workloads' time ÷ the fastest backend's at each
///   scale, on an axis logarithmic in records.
///
/// Every chart fixes its palette in an init line: a backend has one colour in every chart
/// (`ChartPalette`, by its position among the run's backends), dark on white whatever theme
/// renders it. Every y-axis starts at 0.
extension MarkdownReport {
    /// Workloads whose cost across scales the report charts, when the run has them.
    static let scaleChartWorkloads = ["crud.read-pk.single", "query.full-scan", "query.unindexed-eq", "batch.bulk-insert",
                                       "migrate.add-attribute", "migrate.rename-attribute", "migrate.add-index", "migrate.transform"]

    /// Each backend's chart colour.
    var chartColors: [String: ChartColor] {
        Dictionary(uniqueKeysWithValues: backends.enumerated().map { ($0.element, ChartPalette.color(at: $0.offset)) })
    }

    func charts() -> String {
        var md = "## Charts\n\n"
        md += "Each backend has one colour in every chart: "
        md += backends.map { "\(chartColors[$0]!.label) = `\($0)`" }.joined(separator: " · ") + ". "
        md += "Every y-axis starts at 0, so heights compare as ratios. A bar or line far above the rest would flatten them: "
        md += "one whose largest value exceeds \(Int(ChartAxis.outlierFactor))× the median of the others' is cut at the top "
        md += "of the axis, and its key and label say so (unless more than a third of the chart's bars or lines are that far "
        md += "up: then none is cut). The table under each chart has its numbers and their intervals.\n\n"
        md += categoryCharts()
        md += memoryChart()
        md += scaleCharts()
        return md
    }

    // MARK: Time by category

    /// Per category, at the main scale: each backend's geometric mean over the category's
    /// workloads of its time ÷ the fastest backend's.
    func categoryCharts() -> String {
        var md = "### Time by category\n\n"
        md += "Bars: each backend's time per operation ÷ the fastest backend's in each workload of the category, "
        md += "geometric mean over the workloads, at the \(mainScale) scale (1 = the fastest in every workload; lower is better). "
        md += "The range in each table is the geometric mean of the per-workload intervals' ends: it holds the geometric mean "
        md += "whenever every workload's interval holds its ratio, and is wider than a joint interval would be.\n\n"
        var any = false
        for category in WorkloadCategory.allCases where category != .selftest && category != .memory {
            let ws = comparedWorkloads.filter { $0.category == category }.map(\.name)
            guard !ws.isEmpty else { continue }
            let rels = ws.map { relativeToFastest($0, mainScale) }
            var rows: [(backend: String, score: Estimate, workloads: Int)] = []
            for b in backends {
                let es = rels.compactMap { $0[b] }
                guard let value = Format.geometricMean(es.map(\.value)) else { continue }
                let low = Format.geometricMean(es.map(\.low)) ?? value, high = Format.geometricMean(es.map(\.high)) ?? value
                rows.append((b, Estimate(value: value, low: low, high: high, confidence: 0), es.count))
            }
            guard !rows.isEmpty else { continue }
            any = true
            let title = "\(category.rawValue): time per operation ÷ fastest, geometric mean of \(ws.count) workload\(ws.count == 1 ? "" : "s"), \(mainScale) scale"
            md += barChart(title: title, yTitle: "× fastest (1 = fastest, lower is better)",
                           values: rows.map { ($0.backend, $0.score.value) }, format: Format.ratio)
            md += "| colour | backend | × fastest, geometric mean (range) | workloads measured |\n|---|---|---:|---:|\n"
            for r in rows {
                md += "| \(chartColors[r.backend]!.label) | \(r.backend) | \(Format.ratio(r.score)) | \(r.workloads) of \(ws.count) |\n"
            }
            md += "\n"
        }
        return any ? md : ""
    }

    // MARK: Memory

    /// Resident memory after `memory.load`, bytes per record, at the main scale.
    func memoryChart() -> String {
        guard let d = results.datasets.first(where: { $0.scale == mainScale }), d.records > 0 else { return "" }
        let rows: [(backend: String, perRecord: Double, load: CellResult, walk: CellResult?)] = backends.compactMap { b in
            guard let load = results.cell(b, "memory.load", mainScale), load.isOK,
                  let resident = load.metrics[MemoryWorkloads.Metric.residentAfterLoad] else { return nil }
            return (b, resident / Double(d.records), load, results.cell(b, "memory.walk", mainScale))
        }
        guard !rows.isEmpty else { return "" }
        var md = "### Memory\n\n"
        md += "Bars: the cell process's resident memory after `memory.load` loaded the \(mainScale) dataset "
        md += "(\(Format.count(d.records)) records), minus before the store opened, per record (lower is better). "
        md += "One measurement per backend, so no interval. LMDB's figure includes mapped file pages the kernel can drop "
        md += "(see Memory and disk).\n\n"
        let kib = (rows.map(\.perRecord).max() ?? 0) >= 10 * 1_024
        let unit = kib ? "KiB" : "bytes"
        md += barChart(title: "memory.load: resident memory after load, \(unit) per record, \(mainScale) scale",
                       yTitle: "\(unit) per record (lower is better)",
                       values: rows.map { ($0.backend, max(0, $0.perRecord) / (kib ? 1_024 : 1)) },
                       format: { v in kib ? Format.bytes(v * 1_024) : Format.bytes(v) })
        md += "| colour | backend | resident after load per record | resident after load | walk peak | disk per record |\n"
        md += "|---|---|---:|---:|---:|---:|\n"
        for r in rows {
            let disk = r.load.diskBytes.map { Double($0) / Double(d.records) }
            md += "| \(chartColors[r.backend]!.label) | \(r.backend) | \(Format.bytes(r.perRecord)) | "
            md += "\(Format.bytes(r.load.metrics[MemoryWorkloads.Metric.residentAfterLoad])) | "
            md += "\(Format.bytes(r.walk?.metrics[MemoryWorkloads.Metric.walkPeak])) | \(Format.bytes(disk)) |\n"
        }
        return md + "\n"
    }

    /// A bar chart with one bar per backend in its colour (one series per backend, its value at
    /// its own x position and no bar elsewhere), preceded by its key. A bar cut at the top of the
    /// axis says its value in its x label: `lmdb ↑40×`.
    func barChart(title: String, yTitle: String, values: [(backend: String, value: Double)], format: (Double) -> String) -> String {
        let axis = ChartAxis(seriesMaxima: values.map(\.value))
        var chart = MermaidXYChart(title: title, xLabels: [], yTitle: yTitle, yTop: axis.top)
        chart.xLabels = values.enumerated().map { i, v in
            axis.clamped.contains(i) ? "\(v.backend) ↑\(format(v.value))" : v.backend
        }
        chart.series = values.enumerated().map { i, v in
            MermaidXYChart.Series(kind: .bar, values: values.indices.map { $0 == i ? v.value : nil }, color: chartColors[v.backend]!)
        }
        let notes = values.enumerated().filter { axis.clamped.contains($0.offset) }.map {
            " `\($0.element.backend)`'s bar is cut at the top of the axis (\(format(axis.top))): its value is \(format($0.element.value))."
        }
        return legend(values.map(\.backend), kind: "Bar colours") + notes.joined() + "\n\n" + chart.render() + "\n"
    }

    /// The key before a chart: each plotted backend's swatch, colour name and hex.
    func legend(_ plotted: [String], kind: String, notes: [String: String] = [:]) -> String {
        "**\(kind):** " + plotted.map { b in "\(chartColors[b]!.label) = `\(b)`" + (notes[b].map { " (\($0))" } ?? "") }
            .joined(separator: " · ") + "."
    }

    // MARK: Across scales

    /// For a few workloads: each backend's time ÷ the fastest backend's at each scale, on an
    /// x-axis logarithmic in the scale's size (records, or rows for the rows workloads).
    func scaleCharts() -> String {
        guard scales.count > 1 else {
            return "Cost across scales needs a run with more than one scale (the standard profile has two).\n\n"
        }
        var md = "### Across scales\n\n"
        md += "Lines: each backend's time per operation ÷ the fastest backend's at each scale (1 = fastest at that scale), "
        md += "so a backend that grows worse than the others with more data rises. The x-axis is logarithmic in the "
        md += "dataset's size: its labels are sizes at equal ratios, and the measured scales are named; lines are straight "
        md += "between measured scales. Absolute times are in the table under each chart (median ± the half-width of its interval), "
        md += "with each ratio's interval.\n\n"
        let sized = results.datasets.filter { scales.contains($0.scale) }
        for w in Self.scaleChartWorkloads {
            guard let info = comparedWorkloads.first(where: { $0.name == w }) else { continue }
            let unit = info.category == .rows ? "rows" : "records"
            let ordered = sized.sorted { size($0, unit) < size($1, unit) }
            let rels = ordered.map { relativeToFastest(w, $0.scale) }
            let plotted = backends.filter { b in rels.allSatisfy { $0[b] != nil } }
            guard !plotted.isEmpty else { continue }
            let lines = plotted.map { b in rels.map { $0[b]!.value } }
            let axis = ChartAxis(seriesMaxima: lines.map { $0.max() ?? 0 })
            // A cut line is cut at its measured points, then drawn straight between them (no kink between scales).
            let drawn = lines.enumerated().map { i, l in axis.clamped.contains(i) ? l.map { min($0, axis.top) } : l }
            let names = ordered.map(\.scale)
            var chart = MermaidXYChart(title: "\(w): time per operation ÷ fastest at each scale", xLabels: [],
                                       yTitle: "× fastest (1 = fastest, lower is better)", yTop: axis.top)
            if let x = LogSizeAxis(sizes: ordered.map { size($0, unit) }, names: names) {
                chart.xTitle = "dataset size, \(unit) (logarithmic)"
                chart.xLabels = x.labels
                chart.series = zip(plotted, drawn).map { .init(kind: .line, values: x.interpolate($1), color: chartColors[$0]!) }
            } else {
                chart.xTitle = "scale (not to size: the scales do not differ in \(unit))"
                chart.xLabels = ordered.map { "\($0.scale) (\(LogSizeAxis.compact(size($0, unit))))" }
                chart.series = zip(plotted, drawn).map { .init(kind: .line, values: $1, color: chartColors[$0]!) }
            }
            var notes: [String: String] = [:]
            for (i, b) in plotted.enumerated() where axis.clamped.contains(i) {
                notes[b] = "cut at \(Format.ratio(axis.top)) at the top of the axis; reaches \(Format.ratio(lines[i].max()))"
            }
            md += legend(plotted, kind: "Line colours", notes: notes) + "\n\n" + chart.render() + "\n"
            md += "| colour | backend | " + names.map { "\($0) time/op | \($0) × fastest" }.joined(separator: " | ") + " |\n"
            md += "|---|---|" + names.map { _ in "---:|---:|" }.joined() + "\n"
            for b in backends {
                let cells = names.map { results.cell(b, w, $0) }
                guard cells.contains(where: { $0?.isOK == true }) else { continue }
                md += "| \(chartColors[b]!.label) | \(b) | "
                md += zip(cells, rels).map { c, r in "\(time(c)) | \(Format.ratio(r[b]))" }
                    .joined(separator: " | ") + " |\n"
            }
            md += "\n"
        }
        return md
    }

    /// A cell's time per operation with its interval (results schema 1 kept only the median).
    private func time(_ c: CellResult?) -> String {
        guard let c, c.isOK else { return "–" }
        return c.time.map { Format.nanos($0) } ?? Format.nanos(c.nanosPerOperation)
    }

    private func size(_ d: RunResults.DatasetInfo, _ unit: String) -> Double { Double(unit == "rows" ? d.rows : d.records) }
}

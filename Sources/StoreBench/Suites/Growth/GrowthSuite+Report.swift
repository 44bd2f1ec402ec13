import Foundation
import StoreBenchKit

/// The report's "Cost as the data grows" section, from the `growth.*` cells at the main scale:
/// per value size, each backend's read time at each record count, and the fitted slopes of
/// reads, inserts, sorted pages and resident memory against the record count.
extension ResultsView {
    func growth() -> String {
        let sizes = GrowthWorkloads.valueSizes.filter { s in backends.contains { okCell($0, GrowthWorkloads.name(s)) != nil } }
        guard !sizes.isEmpty else { return "" }
        var md = "## Cost as the data grows\n\n"
        md += "One store per cell grows from empty through four record counts (\(GrowthWorkloads.chunk) inserts per write transaction); "
        md += "at each count: \(Format.count(GrowthWorkloads.reads)) random reads by key, \(GrowthWorkloads.pages) pages of the 20 largest "
        md += "of an indexed attribute, and the process's resident memory above what it held when the store opened. **Slope**: the least-squares slope of log(time) "
        md += "against log(record count) in each round, the median over the rounds with its interval: 0 is flat, 1 grows in proportion "
        md += "to the count, and a cost that grows like log N shows a small positive slope. A cost is called flat when the whole interval "
        md += "lies within ±0.1, growing when it lies above; an interval below 90% confidence (fewer than 5 rounds) decides nothing, "
        md += "so the cell stays undecided.\n\n"
        for size in sizes { md += growthTable(size) }
        return md
    }

    private func growthTable(_ size: Int) -> String {
        typealias F = GrowthSuite.Figures
        let w = GrowthWorkloads.name(size)
        let cells = backends.compactMap { b in okCell(b, w).map { (b, $0) } }
        guard let first = cells.first?.1 else { return "" }
        let counts = F.points.map { first.figure(F.records($0)).map { Format.count($0) } ?? "?" }
        var md = "### \(Format.bytes(Double(size))) records (`\(w)`)\n\n" + growthChart(w, size, cells)
        md += "| backend | " + counts.map { "read at \($0)" }.joined(separator: " | ")
        md += " | read slope | insert slope | page slope | memory slope | memory per record at \(counts.last!) |\n"
        md += "|---|" + String(repeating: "---:|", count: counts.count + 5) + "\n"
        var sentences: [String] = []
        for (b, c) in cells {
            let fits = [F.read, F.insert, F.query, F.resident].map { GrowthFit(c, $0) }
            md += "| \(b) | " + F.points.map { Format.nanos(c.figure(F.read($0))) }.joined(separator: " | ")
            md += " | " + fits.map { $0?.text ?? "–" }.joined(separator: " | ")
            let last = F.points.upperBound - 1
            md += " | \(Format.bytes(c.figure(F.resident(last)).flatMap { m in c.figure(F.records(last)).map { m / max(1, $0) } })) |\n"
            if let read = fits[0] { sentences.append("`\(b)` \(read.verdict()) (\(read.text))") }
        }
        md += "\nReads by key as the store grows from \(counts.first!) to \(counts.last!) records: " + sentences.joined(separator: "; ") + ".\n\n"
        return md
    }

    /// Each backend's read time at each record count ÷ its time at the smallest, both axes
    /// logarithmic: a flat line stays flat, a power law is a straight line of its slope.
    private func growthChart(_ w: String, _ size: Int, _ cells: [(String, CellResult)]) -> String {
        typealias F = GrowthSuite.Figures
        let series = cells.compactMap { b, c -> SVGChart.Series? in
            let points = F.points.compactMap { i -> SVGChart.Point? in
                guard let n = c.figure(F.records(i)), let t = c.figure(F.read(i)), let t0 = c.figure(F.read(0)), t0 > 0 else { return nil }
                return .init(x: n, value: t / t0)
            }
            guard points.count >= 2, let style = chartStyles[b] else { return nil }
            return SVGChart.Series(name: b, style: style, points: points)
        }
        guard let first = series.first else { return "" }
        var chart = SVGChart(kind: .lines, title: "Read by key as the store grows: \(Format.bytes(Double(size))) records",
                             subtitle: "Workload \(w): time per read at each record count ÷ the time at the smallest, medians over the rounds; "
                                 + "both axes logarithmic, so a power law is a straight line of its slope.",
                             yTitle: "Time per read ÷ the time at the smallest store (log scale; lower is better)", xTitle: "Records in the store",
                             xAxis: .logarithmic(first.points.map { ($0.x, [Format.count($0.x)]) }), valueAxis: .ratio)
        chart.series = series
        return self.chart(chart, file: "growth-read-\(w)")
    }
}

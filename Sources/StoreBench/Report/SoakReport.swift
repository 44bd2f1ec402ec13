import Foundation

/// The report of a soak run (`run --soak`): per backend, how throughput, latency, file size
/// and resident memory moved from the first interval to the last, and a chart of each over time.
public struct SoakReport {
    public let series: [SoakSeries]
    public let seconds: Double
    public let command: String

    public init(series: [SoakSeries], seconds: Double, command: String) {
        self.series = series
        self.seconds = seconds
        self.command = command
    }

    /// Writes `soak.md`, `soak.json` and the charts in `soak/` of `folder`.
    public func write(to folder: URL) throws {
        let charts = folder.appendingPathComponent("soak")
        for (file, chart) in self.charts() { try FileAccess.write(Data(chart.render().utf8), to: charts.appendingPathComponent(file + ".svg").path) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileAccess.write(try encoder.encode(series), to: folder.appendingPathComponent("soak.json").path)
        try FileAccess.write(Data(markdown().utf8), to: folder.appendingPathComponent("soak.md").path)
    }

    public func markdown() -> String {
        var md = "# StoreBench soak\n\n`\(command)`: \(Int(seconds)) s per backend of a mixed workload on one store "
        md += "(50% reads by key, 30% updates, 10% inserts, 10% deletes over a sliding window of 2,000 users, so the record count "
        md += "stays level). Each backend ran in a process of its own. First interval → last; drift beyond a few percent, or a "
        md += "file or memory that keeps growing, is what a soak is for.\n\n"
        md += "| backend | intervals | ops/s | p99 latency | file size | resident memory | note |\n|---|---:|---|---|---|---|---|\n"
        for s in series {
            guard let a = s.samples.first, let b = s.samples.last else {
                md += "| \(s.backend) | 0 | | | | | \(s.failure ?? "no sample") |\n"
                continue
            }
            md += "| \(s.backend) | \(s.samples.count) | \(Format.rate(a.operationsPerSecond)) → \(Format.rate(b.operationsPerSecond)) (\(change(a.operationsPerSecond, b.operationsPerSecond))) | "
            md += "\(Format.nanos(Double(a.latency.p99))) → \(Format.nanos(Double(b.latency.p99))) | "
            md += "\(Format.bytes(a.fileBytes)) → \(Format.bytes(b.fileBytes)) | \(Format.bytes(a.residentBytes)) → \(Format.bytes(b.residentBytes)) | \(s.failure ?? "") |\n"
        }
        md += "\n" + charts().map { "![\($0.1.title)](soak/\($0.0).svg)\n" }.joined(separator: "\n")
        return md
    }

    private func change(_ a: Double, _ b: Double) -> String {
        a > 0 ? String(format: "%+.0f%%", (b / a - 1) * 100) : "–"
    }

    /// Throughput, p99 latency, file size and resident memory, each over time, one line per backend.
    func charts() -> [(String, SVGChart)] {
        let longest = series.max { $0.samples.count < $1.samples.count }?.samples ?? []
        let labels = longest.map { ["\(Int($0.seconds.rounded())) s"] }
        let figures: [(String, String, String, (SoakSample) -> Double, (Double) -> String)] = [
            ("throughput", "Throughput over time", "operations per second (higher is better)", { $0.operationsPerSecond }, { ChartScale.compact($0) }),
            ("p99", "p99 latency over time", "p99 latency of the interval's operations, nanoseconds (lower is better)", { Double($0.latency.p99) }, { Format.nanos($0) }),
            ("file", "Store file size over time", "bytes on disk (level is good; steady growth at a level record count is not)", { Double($0.fileBytes) }, { Format.bytes($0) }),
            ("memory", "Resident memory over time", "resident memory of the process, bytes", { Double($0.residentBytes) }, { Format.bytes($0) }),
        ]
        return figures.map { file, title, yTitle, value, label in
            var chart = SVGChart(kind: .lines, title: title, subtitle: "Soak: the mixed workload repeated for \(Int(seconds)) s per backend.",
                                 yTitle: yTitle, xTitle: "Elapsed time (end of each interval)", xAxis: .categories(labels), valueAxis: .linear(label))
            chart.series = series.enumerated().map { i, s in
                SVGChart.Series(name: s.backend, style: ChartPalette.style(at: i),
                                points: s.samples.prefix(labels.count).enumerated().map { .init(x: Double($0), value: value($1)) })
            }
            return (file, chart)
        }
    }
}

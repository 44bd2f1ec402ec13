import Foundation
@testable import StoreBench
import Testing

/// The report's Mermaid charts on crafted results: palette, key, axes from zero, range tables,
/// one colour per backend, and readable axes despite an outlier.
@Suite struct ChartTests {
    static let backends = ["sqlite", "lmdb", "grdb", "objectgraph+sqlite", "objectgraph+lmdb"]

    /// A backend cell measured in 6 rounds around `ns` (±3%, in an order of the backend's), so ratios have intervals.
    static func cell(_ backend: String, _ workload: String, _ scale: String, ns: Double) -> CellResult {
        var c = CellResult(target: .backend(backend), engine: backend, workload: workload,
                           category: WorkloadRegistry.named(workload)?.category ?? .crud, scale: scale, status: .ok, wallSeconds: 1)
        c.operations = 1_000
        c.spans = 1_000
        let jitter = [1.0, 0.97, 1.03, 1.01, 0.99, 1.02], shift = backends.firstIndex(of: backend) ?? 0
        let rounds = jitter.indices.map { jitter[($0 + shift) % jitter.count] * ns }
        c.setTiming(rounds.map { $0 * 1_000 / 1e9 }, rounds: rounds)
        return c
    }

    /// Two scales, five backends; `lmdb` is `outlier`× slower than the rest in the query workloads.
    static func results(outlier: Double = 1.3) -> RunResults {
        let base: [String: Double] = ["sqlite": 1_000, "lmdb": 800, "grdb": 1_400, "objectgraph+sqlite": 1_200, "objectgraph+lmdb": 1_100]
        var cells: [CellResult] = []
        for scale in ["tiny", "quick"] {
            let grow = scale == "quick" ? 3.0 : 1.0
            for b in backends {
                cells.append(cell(b, "crud.read-pk.single", scale, ns: base[b]! * grow))
                cells.append(cell(b, "batch.bulk-insert", scale, ns: base[b]! * 2 * grow))
                let q = (b == "lmdb" ? outlier * 1_000 : base[b]!) * grow
                cells.append(cell(b, "query.full-scan", scale, ns: q))
                cells.append(cell(b, "query.unindexed-eq", scale, ns: q * 10))
                var load = cell(b, "memory.load", scale, ns: 5_000)
                load.metrics["residentAfterLoadBytes"] = Double(Self.backends.firstIndex(of: b)! + 1) * 400 * (scale == "quick" ? 21_060 : 852)
                load.diskBytes = 1 << 22
                cells.append(load)
            }
        }
        let machine = MachineInfo(cpu: "Test CPU", cores: 2, memoryBytes: 8 << 30, os: "TestOS", swift: "6.3", build: "release",
                                  sqlite: "3.40.1", lmdb: "0.9.24")
        let workloads = ["crud.read-pk.single", "batch.bulk-insert", "query.full-scan", "query.unindexed-eq", "memory.load"].map { w in
            RunResults.WorkloadInfo(name: w, category: WorkloadRegistry.named(w)?.category ?? .crud, summary: "test", hasFloor: false)
        }
        return RunResults(generatedAt: Date(timeIntervalSince1970: 1_800_000_000), command: "storebench run", profile: "test",
                          durability: .durable, repetitions: 3, warmup: 1, machine: machine,
                          runner: .init(clockReadingNanos: 25, minimumSpanNanos: 2_500, overheadNanosPerOperation: 0.5),
                          datasets: [.init(scale: "tiny", seed: 7, checksum: "0", users: 40, posts: 200, comments: 600, tags: 12, rows: 1_000),
                                     .init(scale: "quick", seed: 1, checksum: "1", users: 1_000, posts: 5_000, comments: 15_000, tags: 60, rows: 100_000)],
                          targets: backends.map { RunResults.TargetInfo(id: .backend($0), engine: $0, summary: "test") },
                          workloads: workloads, cells: cells, conformance: [], durationSeconds: 42, rounds: 6)
    }

    /// One chart of the report: the text before its block (back to the previous block), the
    /// block's lines, and the text after it.
    struct Chart {
        let before: String
        let lines: [String]
        let after: String
        var palette: [String] {
            guard let line = lines.first(where: { $0.hasPrefix("%%{init:") }),
                  let r = line.range(of: "\"plotColorPalette\": \"") else { return [] }
            let rest = line[r.upperBound...]
            return rest[..<rest.firstIndex(of: "\"")!].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        var series: [[Double]] {
            lines.filter { $0.hasPrefix("    bar [") || $0.hasPrefix("    line [") }.map { l in
                l[l.index(after: l.firstIndex(of: "[")!)..<l.lastIndex(of: "]")!].split(separator: ",")
                    .map { Double($0.trimmingCharacters(in: .whitespaces))! }
            }
        }
        var yAxis: (low: Double, high: Double)? {
            guard let l = lines.first(where: { $0.hasPrefix("    y-axis ") }), let r = l.range(of: "\" ") else { return nil }
            let parts = l[r.upperBound...].components(separatedBy: " --> ")
            guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]) else { return nil }
            return (a, b)
        }
        /// The key's backend → hex pairs, in order.
        var key: [(backend: String, hex: String)] {
            guard let line = before.split(separator: "\n").last(where: { $0.hasPrefix("**Bar colours:**") || $0.hasPrefix("**Line colours:**") })
            else { return [] }
            let regex = /`(#[0-9A-F]{6})` = `([^`]+)`/
            return line.matches(of: regex).map { (String($0.output.2), String($0.output.1)) }
        }
    }

    static func charts(_ md: String) -> [Chart] {
        let section = md.components(separatedBy: "## Charts\n")[1].components(separatedBy: "\n## ")[0]
        let pieces = section.components(separatedBy: "```mermaid\n")
        return pieces.indices.dropFirst().map { i in
            let block = pieces[i].components(separatedBy: "```\n")
            return Chart(before: pieces[i - 1].components(separatedBy: "```\n").last!, lines: block[0].split(separator: "\n").map(String.init),
                         after: block.dropFirst().joined(separator: "```\n"))
        }
    }

    @Test func everyChartHasPaletteKeyZeroAxisAndRangeTable() {
        let charts = Self.charts(MarkdownReport(Self.results()).renderAll())
        #expect(charts.count == 3 + 1 + 4, "crud, batch, query; memory; four workloads across scales")
        for c in charts {
            #expect(c.lines.first?.hasPrefix("%%{init: {") == true && c.lines.first?.hasSuffix("}%%") == true)
            #expect(c.lines.contains("xychart-beta"))
            #expect(c.lines.contains { $0.hasPrefix("    title \"") })
            #expect(c.palette.count == c.series.count, "one colour per series")
            #expect(c.key.map(\.hex) == c.palette, "the key lists the palette in order")
            #expect(c.yAxis?.low == 0, "y-axis from zero: \(c.lines)")
            // Values on the axis; a bar chart's "no bar" is −top, below it.
            #expect(c.series.allSatisfy { $0.allSatisfy { ($0 >= 0 && $0 <= c.yAxis!.high) || $0 == -c.yAxis!.high } })
            #expect(c.after.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("| colour | backend |"), "a table follows")
        }
    }

    @Test func aBackendHasOneColourInEveryChart() {
        let charts = Self.charts(MarkdownReport(Self.results(outlier: 20)).renderAll())
        var seen: [String: String] = [:]
        for c in charts {
            for (b, hex) in c.key {
                #expect(seen[b, default: hex] == hex, "\(b) drawn in \(hex) and \(seen[b]!)")
                seen[b] = hex
            }
            // A bar chart's series i has its only bar at x position i: the backend keyed i-th.
            if c.lines.contains(where: { $0.hasPrefix("    bar [") }) {
                for (i, s) in c.series.enumerated() { #expect(s.indices.filter { s[$0] >= 0 } == [i]) }
            }
        }
        #expect(Set(seen.keys) == Set(Self.backends))
        #expect(Set(seen.values).count == Self.backends.count, "distinct colours")
        #expect(seen["sqlite"] == ChartPalette.colors[0].hex, "colour follows the backend's position in the run")
    }

    @Test func thePaletteContrastsWithWhite() {
        for c in ChartPalette.colors { #expect(ChartPalette.contrastAgainstWhite(c.hex) >= 4.5, "\(c.name) \(c.hex)") }
        #expect(ChartPalette.contrastAgainstWhite("#ECECFF") < 1.2, "Mermaid's default first colour, for contrast")
        #expect(Set(ChartPalette.colors.map(\.hex)).count == ChartPalette.colors.count)
    }

    @Test func anOutlierIsCutAndSaidSoAndTheRestKeepTheAxis() {
        let md = MarkdownReport(Self.results(outlier: 40)).renderAll()
        let charts = Self.charts(md)
        let query = charts.first { $0.lines.contains { $0.contains("title \"query:") } }!
        // lmdb is 40× the fastest in both query workloads; the others are 1–1.4×.
        let axis = query.yAxis!
        #expect(axis.high <= 2.5, "the axis fits the four others, not the outlier: \(axis)")
        #expect(query.lines.contains { $0.contains(/"lmdb ↑(39|40|41)×"/) })
        #expect(query.before.contains("`lmdb`'s bar is cut at the top of the axis"))
        #expect(query.after.contains(/\| lmdb \| (39|40|41)× \(/), "the table keeps its value and range")
        // Lines: the unindexed scan across scales.
        let lines = charts.first { $0.lines.contains { $0.contains("title \"query.unindexed-eq:") } }!
        #expect(lines.yAxis!.high <= 2.5)
        #expect(lines.before.contains("= `lmdb` (cut at"))
        // The others use at least a third of the axis.
        let others = lines.series.enumerated().filter { lines.key[$0.offset].backend != "lmdb" }.flatMap(\.element)
        #expect(lines.series[lines.key.firstIndex { $0.backend == "lmdb" }!].allSatisfy { $0 == lines.yAxis!.high }, "drawn at the top")
        #expect(others.max()! >= lines.yAxis!.high / 3)
        // Without an outlier nothing is cut.
        let calm = Self.charts(MarkdownReport(Self.results()).renderAll())
        #expect(!calm.contains { c in c.lines.contains { $0.contains("↑") } || c.before.contains("(cut at") })
    }

    @Test func scalesSitAtLogarithmicDistances() throws {
        let charts = Self.charts(MarkdownReport(Self.results()).renderAll())
        let c = charts.first { $0.lines.contains { $0.contains("title \"crud.read-pk.single:") } }!
        let x = try #require(c.lines.first { $0.hasPrefix("    x-axis ") })
        #expect(x.contains("\"dataset size, records (logarithmic)\""))
        // tiny 852 records, quick 21,060: 1.39 decades → 3 half-decade slots, the scales at both ends.
        let ax = try #require(LogSizeAxis(sizes: [852, 21_060], names: ["tiny", "quick"]))
        #expect(ax.labels.first == "tiny (850)" && ax.labels.last == "quick (21k)")
        #expect(ax.slots == [0, ax.labels.count - 1] && ax.labels.count >= 3)
        // Three sizes 1.1k, 110k, 1.1M: 2 and 1 decades apart → slots at 0, 4, 6 of half decades.
        let three = try #require(LogSizeAxis(sizes: [1_100, 110_000, 1_100_000], names: ["a", "b", "c"]))
        #expect(three.slots == [0, 4, 6])
        #expect(three.labels == ["a (1.1k)", "3.5k", "11k", "35k", "b (110k)", "350k", "c (1.1M)"])
        #expect(three.interpolate([1, 3, 2]) == [1, 1.5, 2, 2.5, 3, 2.5, 2])
        #expect(LogSizeAxis(sizes: [100, 100], names: ["a", "b"]) == nil, "equal sizes have no log distance")
    }

    @Test func axisTopsAreRound() {
        #expect(ChartAxis.roundUp(1.31) == 1.5)
        #expect(ChartAxis.roundUp(4.9) == 5)
        #expect(ChartAxis.roundUp(0.034) == 0.04)
        #expect(ChartAxis(seriesMaxima: [1, 1.2, 1.4]).clamped.isEmpty)
        #expect(ChartAxis(seriesMaxima: [1, 1.2, 1.4, 30]).clamped == [3])
        #expect(ChartAxis(seriesMaxima: [1, 30, 40]).clamped.isEmpty, "most series far apart: nothing is an outlier")
        #expect(ChartAxis(seriesMaxima: [32, 37, 77, 420, 542]).clamped.isEmpty, "two far ones of five are a group, not outliers")
        let fits = ChartAxis(seriesMaxima: [1.05, 1.06, 1.26, 4.4, 5.52])
        #expect(fits.clamped.isEmpty && fits.top == 8, "5.52 is 4.8× the others' median, but fits under the top the rest need")
        #expect(MermaidXYChart.number(0.000123) == "0.000123" && MermaidXYChart.number(1234.6) == "1235" && MermaidXYChart.number(1.5) == "1.5")
    }

    @Test func theMemoryChartPlotsMemory() {
        let charts = Self.charts(MarkdownReport(Self.results()).renderAll())
        let m = charts.first { $0.lines.contains { $0.contains("title \"memory.load: resident memory after load") } }
        #expect(m != nil)
        // sqlite 400 B per record, … objectgraph+lmdb 2,000 B per record.
        #expect(m?.series.map { $0.max()! } == [400, 800, 1_200, 1_600, 2_000])
        #expect(m?.after.contains("| 🟦 blue `#1F5FBF` | sqlite | 400 B | 8.0 MiB |") == true)
        #expect(!charts.contains { $0.lines.contains { $0.contains("title \"memory: time") } })
    }
}

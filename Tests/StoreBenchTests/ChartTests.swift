import Foundation
@testable import StoreBench
import Testing

/// The report's SVG charts on crafted results: every chart linked as an image with its title,
/// a legend and a table; one style per backend; log axes for ratios with readable ticks; an
/// outlier drawn whole; intervals as whiskers; sizes at logarithmic distances.
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
            RunResults.WorkloadInfo(name: w, category: WorkloadRegistry.named(w)?.category ?? .crud,
                                    summary: WorkloadRegistry.named(w)?.summary ?? "test", hasFloor: false)
        }
        return RunResults(generatedAt: Date(timeIntervalSince1970: 1_800_000_000), command: "storebench run", profile: "test",
                          durability: .durable, repetitions: 3, warmup: 1, machine: machine,
                          runner: .init(clockReadingNanos: 25, minimumSpanNanos: 2_500, overheadNanosPerOperation: 0.5),
                          datasets: [.init(scale: "tiny", seed: 7, checksum: "0", users: 40, posts: 200, comments: 600, tags: 12, rows: 1_000),
                                     .init(scale: "quick", seed: 1, checksum: "1", users: 1_000, posts: 5_000, comments: 15_000, tags: 60, rows: 100_000)],
                          targets: backends.map { RunResults.TargetInfo(id: .backend($0), engine: $0, summary: "test") },
                          workloads: workloads, cells: cells, conformance: [], durationSeconds: 42, rounds: 6)
    }

    /// One chart of the report: its image line's text and file, its SVG read back, and the
    /// Markdown after the image line (up to the next image or heading).
    struct Chart {
        let alt: String
        let file: String
        let svg: SVGInspection
        let after: String
    }

    /// The charts of the report's "Charts" page.
    static func charts(_ results: RunResults) -> [Chart] {
        let report = MarkdownReport(results)
        let md = report.renderAll()
        let section = md.components(separatedBy: "## Charts\n")[1].components(separatedBy: "\n## ")[0]
        return charts(in: section, report.chartFiles)
    }

    static func charts(in markdown: String, _ files: ChartFiles) -> [Chart] {
        let pieces = markdown.components(separatedBy: "\n![")
        return pieces.dropFirst().map { piece in
            let line = piece.prefix { $0 != "\n" }
            let m = line.firstMatch(of: /^(.*)\]\(([a-z0-9-]+\.svg)\)$/)!
            let file = String(m.output.2)
            let rest = piece.dropFirst(line.count)
            return Chart(alt: String(m.output.1), file: file, svg: SVGInspection(files.svg(named: file) ?? ""),
                         after: String(rest.components(separatedBy: "\n#")[0]))
        }
    }

    @Test func everyChartIsAnSVGWithItsTitleLegendAndTable() {
        let charts = Self.charts(Self.results())
        #expect(charts.count == 3 + 1 + 4, "crud, batch, query; memory; four workloads across scales")
        for c in charts {
            #expect(c.svg.wellFormed, "\(c.file): \(c.svg.error ?? "")")
            #expect(!c.svg.title.isEmpty && c.svg.title == c.alt, "the image's text is the chart's title")
            #expect(c.svg.texts.contains { $0.className == "title" })
            #expect(!c.svg.series.isEmpty && c.svg.legend == c.svg.series, "every series in the legend: \(c.file)")
            #expect(c.svg.legendLabels == c.svg.series)
            #expect(c.svg.overlaps.isEmpty, "\(c.file): \(c.svg.overlaps)")
            #expect(c.svg.outside.isEmpty, "\(c.file): \(c.svg.outside)")
            #expect(c.after.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("| key | backend |"), "a table follows")
        }
        let files = charts.map(\.file)
        #expect(Set(files).count == files.count)
        #expect(files.contains("time-by-category-crud.svg") && files.contains("memory-per-record.svg")
            && files.contains("across-scales-crud-read-pk-single.svg"))
    }

    @Test func axisLabelsAreWordsNotKeys() {
        let charts = Self.charts(Self.results())
        let crud = charts.first { $0.file == "time-by-category-crud.svg" }!
        #expect(crud.svg.title == "Create, read, update, delete: time per operation relative to the fastest backend")
        let read = charts.first { $0.file == "across-scales-crud-read-pk-single.svg" }!
        #expect(read.svg.title == "Read a post by a random primary key, every field: time relative to the fastest backend, by dataset size",
                "the workload's summary up to its first semicolon: \(read.svg.title)")
        for c in charts {
            let axisWords = c.svg.texts.filter { $0.className == "x-label" || $0.className == "axis-title" || $0.className == "title" }
            #expect(!axisWords.contains { $0.content.contains(/[a-z]+\.[a-z-]+\.[a-z]/) }, "no workload key in \(c.file)'s axes")
        }
        #expect(read.svg.texts.contains { $0.className == "axis-title" && $0.content.contains("(log scale") })
        #expect(read.svg.texts.contains { $0.className == "x-label" && $0.content == "21,060 records" })
    }

    @Test func aBackendHasOneStyleInEveryChart() {
        let charts = Self.charts(Self.results(outlier: 20))
        var seen: [String: String] = [:]
        for c in charts {
            for b in c.svg.series {
                let marker = c.svg.marker(of: b)!
                #expect(seen[b, default: marker] == marker, "\(b) drawn as \(marker) and \(seen[b]!)")
                seen[b] = marker
            }
        }
        #expect(Set(seen.keys) == Set(Self.backends))
        #expect(Set(seen.values).count == Self.backends.count, "distinct styles")
        #expect(Set(seen.values.map { $0.split(separator: " ")[1] }).count == Self.backends.count, "distinct colours")
        #expect(seen["sqlite"] == "circle \(ChartPalette.colors[0].hex) 0", "style follows the backend's position in the run")
        #expect(seen["lmdb"] == "polygon \(ChartPalette.colors[1].hex) 4", "lmdb's marker is a square")
    }

    @Test func thePaletteIsColourBlindSafeAndVisible() {
        // Okabe and Ito's eight colours, those reaching 3:1 against white (graphics contrast) first.
        #expect(Set(ChartPalette.colors.map(\.hex)) == ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#E69F00", "#56B4E9", "#F0E442"])
        for c in ChartPalette.colors.prefix(5) { #expect(ChartPalette.contrastAgainstWhite(c.hex) >= 3, "\(c.name) \(c.hex)") }
        #expect(Set(ChartMarker.allCases.map(\.glyph)).count == ChartMarker.allCases.count)
        let styles = (0..<16).map(ChartPalette.style(at:))
        #expect(Set(styles).count == styles.count, "more backends than colours still get distinct styles")
        #expect(ChartPalette.style(at: 0).label == "● blue")
    }

    @Test func anOutlierIsDrawnWholeOnTheLogAxisAndTheOthersKeepRoom() throws {
        let charts = Self.charts(Self.results(outlier: 40))
        let query = try #require(charts.first { $0.file == "time-by-category-query.svg" })
        let ticks = query.svg.texts.filter { $0.className == "tick" }.map(\.content)
        #expect(ticks.contains("1×") && ticks.contains("10×"), "\(ticks)")
        #expect(ticks.last.flatMap { Double($0.dropLast()) }.map { $0 >= 40 } == true, "the axis reaches the outlier: \(ticks)")
        func barHeight(_ b: String) -> Double { Double(query.svg.marks[b]!.first { $0.element == "rect" }!.attributes["height"]!)! }
        #expect(barHeight("lmdb") > barHeight("grdb"))
        #expect(barHeight("grdb") >= 300 * 0.15, "a 1.4× bar keeps a visible height beside a 40× one")
        #expect(query.after.contains(/\| lmdb \| (39|40|41)× \(/), "the table keeps its value and range")
        #expect(!query.svg.texts.contains { $0.content.contains("cut") })
    }

    /// Each chart's series has a whisker exactly where the table under it shows a range (the
    /// fastest backend's ratio to itself has none; an interval too wide to say anything neither).
    static func expectWhiskersMatchTables(_ charts: [Chart]) {
        for c in charts {
            for s in c.svg.series {
                let row = c.after.split(separator: "\n").first { $0.contains("| \(s) |") } ?? ""
                let ranged = row.contains(/\(\d[\d.]*–\d[\d.]*\)/)
                #expect(((c.svg.whiskers[s] ?? 0) > 0) == ranged, "\(c.file) \(s): \(row)")
            }
        }
    }

    @Test func intervalsAreWhiskers() {
        let charts = Self.charts(Self.results())
        Self.expectWhiskersMatchTables(charts)
        #expect(charts.contains { c in c.svg.whiskers.values.reduce(0, +) >= 4 }, "whiskers drawn")
        let memory = charts.first { $0.file == "memory-per-record.svg" }!
        #expect(memory.svg.whiskers.isEmpty, "one measurement: no interval")
    }

    /// Two rounds that disagree 40-fold give ratio intervals spanning many decades (1 degree of
    /// freedom); the report still renders, and shows such an interval neither in a table nor as a whisker.
    @Test func intervalsTooWideToSayAnythingAreNotDrawn() {
        var results = Self.results()
        results.cells = results.cells.map { c in
            var c = c
            let ns = c.typicalNanos ?? 1_000
            let rounds = c.target.name == "lmdb" ? [ns, ns * 40] : [ns, ns * 1.01]
            c.setTiming(rounds.map { $0 * 1_000 / 1e9 }, rounds: rounds)
            return c
        }
        results.rounds = 2
        let charts = Self.charts(results)
        #expect(!charts.isEmpty)
        #expect(charts.contains { $0.after.contains("(no interval)") }, "a wild interval is named as none")
        Self.expectWhiskersMatchTables(charts)
    }

    @Test func ratioAxesAreLogarithmicWithReadableTicks() {
        let wide = ChartScale.ratio(spanning: [1, 40])
        #expect(wide.kind == .logarithmic && wide.ticks == [0.5, 1, 2, 5, 10, 20, 50])
        #expect(wide.labels == ["0.5×", "1×", "2×", "5×", "10×", "20×", "50×"])
        #expect(abs(wide.fraction(10) - wide.fraction(1) - (wide.fraction(20) - wide.fraction(2))) < 1e-12, "equal factors, equal steps")
        let narrow = ChartScale.ratio(spanning: [1, 1.4])
        #expect(narrow.ticks == [0.7, 1, 1.5], "a finer series when 1-2-5 would leave the data a sliver")
        let calm = ChartScale.ratio(spanning: [1.05, 2.4])
        #expect(calm.ticks.contains(1) && calm.low <= 1 && calm.high >= 2.4)
        let huge = ChartScale.ratio(spanning: [1, 2e6]).thinned(length: 300, gap: 16)
        #expect(huge.labels.first == "0.5×" || huge.labels.first == "1×")
        #expect(zip(huge.ticks, huge.ticks.dropFirst()).allSatisfy { (huge.fraction($1) - huge.fraction($0)) * 300 >= 16 })
        #expect(huge.labels.contains("1,000×"))
        let absurd = ChartScale.ratio(spanning: [1, 3e21])
        #expect(absurd.high >= 3e21 && absurd.labels.last == "5e+21×", "any finite ratio gets a label")
        let linear = ChartScale.linear(spanning: [33, 523, 636])
        #expect(linear.ticks == [0, 100, 200, 300, 400, 500, 600, 700] || linear.ticks == [0, 200, 400, 600, 800])
        #expect(linear.low == 0 && linear.high >= 636)
        #expect(ChartScale.compact(1_500) == "1.5k" && ChartScale.compact(250_000) == "250k" && ChartScale.compact(0.25) == "0.25")
    }

    @Test func sizesSitAtLogarithmicDistances() {
        let chart = SVGChart(kind: .lines, title: "t", yTitle: "y",
                             xAxis: .logarithmic([(1_100, ["a"]), (110_000, ["b"]), (1_100_000, ["c"])]), valueAxis: .ratio)
        let layout = ChartLayout(chart)
        let xs = [1_100.0, 110_000, 1_100_000].map { layout.x($0, axis: chart.xAxis) }
        #expect(abs((xs[1] - xs[0]) / (xs[2] - xs[0]) - 2.0 / 3) < 1e-9, "two decades of three")
    }

    @Test func crowdedChartsWidenWrapAndKeepLabelsApart() {
        let names = (0..<9).map { "a-rather-long-backend-name-\($0)" }
        var chart = SVGChart(kind: .lines, title: String(repeating: "A long title in words ", count: 20),
                             subtitle: String(repeating: "and a subtitle ", count: 12), yTitle: "× fastest (log scale)",
                             xTitle: "size", xAxis: .categories(names.map { [$0, "second line"] }), valueAxis: .ratio)
        chart.series = names.enumerated().map { i, n in
            SVGChart.Series(name: n, style: ChartPalette.style(at: i), points: names.indices.map {
                .init(x: Double($0), value: 1 + Double(i % 3), low: 0.9 + Double(i % 3), high: 1.2 + Double(i % 3))
            })
        }
        let svg = SVGInspection(chart.render())
        #expect(svg.wellFormed)
        #expect(svg.overlaps.isEmpty, "\(svg.overlaps)")
        #expect(svg.outside.isEmpty, "\(svg.outside)")
        #expect(svg.legend == names && svg.width > 9 * 200, "widened for nine long labels: \(svg.width)")
        #expect(svg.texts.filter { $0.className == "title" }.count > 1, "the title wraps")
        // Equal values: each series' markers sit apart from the others'.
        let firstX = names.map { n in svg.marks[n]!.first { $0.element == "polyline" }!.attributes["points"]!.split(separator: ",")[0] }
        #expect(Set(firstX).count == names.count)
    }

    @Test func textIsEscaped() {
        var chart = SVGChart(kind: .bars, title: "A <b> & \"c\" 'd'", yTitle: "y", xAxis: .categories([["x<y"]]), valueAxis: .linear { "\($0)" })
        chart.series = [.init(name: "a&b<c>", style: ChartPalette.style(at: 0), points: [.init(x: 0, value: 1)])]
        let svg = SVGInspection(chart.render())
        #expect(svg.wellFormed, "\(svg.error ?? "")")
        #expect(svg.title == "A <b> & \"c\" 'd'" && svg.legend == ["a&b<c>"] && svg.legendLabels == ["a&b<c>"])
    }

    @Test func chartFilesHaveReadableUniqueNames() {
        let files = ChartFiles(linkPrefix: "latest/")
        #expect(files.add("time-by-category-crud", svg: "<svg>a</svg>") == "time-by-category-crud.svg")
        #expect(files.add("time-by-category-crud", svg: "<svg>b</svg>") == "time-by-category-crud-2.svg", "another chart, another file")
        #expect(files.add("time-by-category-crud", svg: "<svg>b</svg>") == "time-by-category-crud-2.svg", "the same chart again, its file")
        #expect(files.add("Across scales: crud.read-pk.single", svg: "<svg/>") == "across-scales-crud-read-pk-single.svg")
        #expect(files.files.map(\.name) == ["time-by-category-crud.svg", "time-by-category-crud-2.svg", "across-scales-crud-read-pk-single.svg"])
    }

    @Test func theMemoryChartPlotsMemory() throws {
        let charts = Self.charts(Self.results())
        let m = try #require(charts.first { $0.file == "memory-per-record.svg" })
        #expect(m.svg.title.hasPrefix("Resident memory after loading the quick dataset, per record"))
        // sqlite 400 B per record, … objectgraph+lmdb 2,000 B per record, bars in that order of height.
        let labels = m.svg.texts.filter { $0.className == "x-label" }.map(\.content)
        #expect(labels.contains("400 B") && labels.contains("1.95 KiB") || labels.contains("2000 B") || labels.contains("1.9 KiB") || labels.contains("2.0 KiB"), "\(labels)")
        let heights = Self.backends.map { Double(m.svg.marks[$0]!.first { $0.element == "rect" }!.attributes["height"]!)! }
        #expect(heights == heights.sorted() && abs(heights[4] / heights[0] - 5) < 0.01, "linear from 0: \(heights)")
        #expect(m.after.contains("| ● blue | sqlite | 400 B | 8.0 MiB |"))
        #expect(!charts.contains { $0.svg.title.hasPrefix("Memory:") }, "memory has no time-by-category chart")
    }
}

import Foundation
import SQLiteStore
@testable import StoreBench
import StoreConformance
import StoreCore
import StoreBenchModels
import Testing

/// A family added by a test alone: one type, registered at run time, not in `Suites.all`.
struct ToySuite: WorkloadSuite {
    static let toy = WorkloadCategory("toy")
    static let answer = Figure("answer", .count, better: .neither)
    static let size = Parameter("size", "items the toy counts to")

    var category: WorkloadCategory { Self.toy }
    /// Out of the profiles, so the other tests' workload lists do not change once it is registered.
    var inProfiles: Bool { false }
    var figures: [Figure] { [Self.answer] }
    var parameters: [Parameter] { [Self.size] }

    var workloads: [Workload] {
        [.define("toy.count", Self.toy, "Counts to 100 on an empty store", dataset: .empty,
                 setup: { ctx in
                     ctx.record(Self.size, 100)
                     return 100
                 },
                 body: { _, n, timer in
                     timer.each(n) { _ in }
                     timer.report(Self.answer, 42)
                     return n
                 })]
    }

    func report(_ placement: ReportPlacement, _ view: ResultsView) -> String {
        guard placement == .section else { return "" }
        let rows = view.backends.map { b in "| \(b) | \(view.figure(Self.answer, b, "toy.count").map { "\(Int($0))" } ?? "–") |" }
        return "## Toy\n\n| backend | answer |\n|---|---:|\n" + rows.joined(separator: "\n") + "\n\n"
    }
}

/// Suites own their workloads' names, figures and report parts; results files carry what a
/// cell ran with, and old files still render.
@Suite struct SuiteTests {
    static let sources = Bench.root.appendingPathComponent("Sources")

    /// Swift files under `folder`, with their code lines (comments dropped).
    static func code(under folder: URL) throws -> [(path: String, lines: [String])] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
        return try files.filter { $0.pathExtension == "swift" }.map { url in
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            return (url.path.replacingOccurrences(of: sources.path + "/", with: ""), lines)
        }
    }

    @Test func noWorkloadNameOrFigureLookupOutsideTheSuites() throws {
        let families = Suites.all.map(\.category.rawValue).joined(separator: "|")
        let name = try Regex("\"(\(families))\\.")
        var found: [String] = []
        for (path, lines) in try Self.code(under: Self.sources) where !path.hasPrefix("StoreBench/Suites/") {
            for (i, line) in lines.enumerated() where line.contains(name) || line.contains("metrics[\"") {
                found.append("\(path):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "workload names or figure look-ups outside Sources/StoreBench/Suites:\n\(found.joined(separator: "\n"))")
    }

    @Test func theReferenceReportRendersByteForByte() throws {
        // `storebench` registers its graph suite; so does this process, to render as it does.
        Bench.registerCommandSuites()
        let reports = Bench.root.appendingPathComponent("Reports")
        let results = try RunResults.read(reports.appendingPathComponent("reference.json").path)
        let committed = try String(contentsOf: reports.appendingPathComponent("reference.md"), encoding: .utf8)
        let report = MarkdownReport(results, folder: "reference")
        #expect(report.render() == committed, "storebench report Reports/reference.json differs from Reports/reference.md")
        for page in report.pages() {
            let file = reports.appendingPathComponent("reference/\(page.name)")
            #expect((try? String(contentsOf: file, encoding: .utf8)) == page.text, "Reports/reference/\(page.name) differs")
        }
        let folder = reports.appendingPathComponent("reference")
        let svgs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".svg") }
        #expect(Set(svgs) == Set(report.chartFiles.files.map(\.name)), "storebench report writes other charts than Reports/reference/ holds")
        for chart in report.chartFiles.files {
            let file = folder.appendingPathComponent(chart.name)
            #expect((try? String(contentsOf: file, encoding: .utf8)) == chart.svg, "Reports/reference/\(chart.name) differs")
        }
    }

    /// A file written by the build before suites (schema 2) still renders, every line as this
    /// report shape renders it (the fixture's `.md` was rendered when the shape last changed).
    @Test func aResultsFileOfSchema2StillRendersAsItDid() throws {
        let fixtures = Bench.root.appendingPathComponent("Tests/StoreBenchTests/Fixtures")
        let old = try RunResults.read(fixtures.appendingPathComponent("results-schema2.json").path)
        #expect(old.schemaVersion == 2)
        let then = try String(contentsOf: fixtures.appendingPathComponent("results-schema2.md"), encoding: .utf8)
        let now = Set(MarkdownReport(old).renderAll().split(separator: "\n"))
        let missing = then.split(separator: "\n").filter { !now.contains($0) }
        #expect(missing.isEmpty, "lines the old build rendered and this one does not:\n\(missing.prefix(10).joined(separator: "\n"))")
    }

    @Test func aNewerSchemaIsAClearError() throws {
        let dir = try TemporaryDirectory("schema")
        let path = dir.url.appendingPathComponent("future.json").path
        try Data(#"{"schemaVersion": 99}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: BenchError.self) { try RunResults.read(path) }
        do { _ = try RunResults.read(path) } catch { #expect("\(error)".contains("schema 99")) }
    }

    @Test func aSuiteRegisteredAtRunTimeRunsLandsInJSONAndGetsItsSection() throws {
        if Suites.suite(of: ToySuite.toy) == nil { try Suites.register(ToySuite()) }
        #expect(!Suites.all.contains { $0.category == ToySuite.toy })
        #expect(throws: BenchError.self, "a category taken is refused") { try Suites.register(ToySuite()) }
        let toy = try #require(WorkloadRegistry.named("toy.count"))
        var plan = RunPlan(backends: [SQLiteStore.descriptor], workloads: [toy], scales: ["tiny"], repetitions: 1, warmup: 0,
                           durability: .relaxed, cellTimeout: 60, fixtures: Bench.fixtures, profile: "test")
        plan.runConformance = false
        plan.countAllocations = false
        let work = try TemporaryDirectory("toy-suite")
        let runner = BenchmarkRunner(plan: plan, executable: URL(fileURLWithPath: "/nonexistent"), workDirectory: work.url, progress: nil)
        runner.launch = .inProcess([SQLiteStore.descriptor])
        let path = work.url.appendingPathComponent("toy.json").path
        try runner.run().write(path)

        let results = try RunResults.read(path)
        let cell = try #require(results.cell("sqlite", "toy.count", "tiny"))
        #expect(cell.status == .ok, "\(cell.reason ?? "")")
        #expect(cell.operations == 100 && cell.figure(ToySuite.answer) == 42)
        #expect(cell.parameter(ToySuite.size) == "100" && cell.parameter(.durability) == "relaxed" && cell.parameter(.rounds) == "1")
        #expect(results.figures?.contains(ToySuite.answer) == true)
        #expect(results.workloads.first?.useCases == [UseCase.overall])
        #expect(MarkdownReport(results).renderAll().contains("## Toy\n\n| backend | answer |\n|---|---:|\n| sqlite | 42 |"))
    }

    @Test func poolingCountsTheRoundsAndKeepsTheParameters() throws {
        var c = CellResult(target: .backend("sqlite"), engine: "sqlite", workload: "crud.read-pk.single", category: .crud,
                           scale: "tiny", status: .ok)
        c.parameters = ["threads": "4"]
        let pooled = CellResult.pooledRounds([c, c])
        #expect(pooled.first?.parameter(.rounds) == "2" && pooled.first?.parameters?["threads"] == "4")
    }

    @Test func compareRefusesRunsWithDifferentSettings() throws {
        var a = CompareAndReportTests.results([CompareAndReportTests.cell("sqlite", "concurrency.read.4-threads", ns: 1_000, cv: 0.02)])
        var b = a
        #expect(SettingsDifference(base: a, new: b).isEmpty)
        a.cells[0].parameters = ["threads": "4", "rounds": "5", "durability": "durable", "scale": "quick"]
        b.cells[0].parameters = ["threads": "8", "rounds": "3", "durability": "relaxed", "scale": "quick"]
        b.durability = .relaxed
        let d = SettingsDifference(base: a, new: b)
        #expect(d.lines == ["durability: durable in the base, relaxed in the new file",
                            "`concurrency.read.4-threads` threads: 4 in the base, 8 in the new file"],
                "rounds change precision, not work; durability is said once, not per cell")
        var c = a
        c.datasets[0].scale = "standard"
        #expect(SettingsDifference(base: a, new: c).lines == ["scales: quick in the base, standard in the new file"])

        let dir = try TemporaryDirectory("settings")
        let (pa, pb) = (dir.url.appendingPathComponent("a.json").path, dir.url.appendingPathComponent("b.json").path)
        try a.write(pa)
        try b.write(pb)
        let refused = try Bench.run(["compare", pa, pb, "--metric", "time"])
        #expect(refused.status == 3 && refused.err.contains("threads: 4 in the base, 8 in the new file"), "\(refused.err)")
        let allowed = try Bench.run(["compare", pa, pb, "--metric", "time", "--allow-different-settings"])
        #expect(allowed.status == 0 && allowed.out.contains("Different settings"), "\(allowed.out)")
    }

    @Test func suitesThatShareAFigureNameDeclareItAlike() {
        let byName = Dictionary(grouping: Suites.all.flatMap(\.figures), by: \.name)
        let unlike = byName.filter { Set($0.value).count > 1 }.keys.sorted()
        #expect(unlike.isEmpty, "figures declared differently by two suites: \(unlike)")
        #expect(Suites.figures(of: Set(Suites.all.map(\.category))).count == byName.count)
    }

    @Test func aWorkloadNameTakenIsRefused() {
        struct Clash: WorkloadSuite {
            var category: WorkloadCategory { WorkloadCategory("clash") }
            var workloads: [Workload] { [.define("crud.read-pk.single", category, "a taken name", setup: { _ in () }, body: { _, _, _ in 0 })] }
        }
        #expect(throws: BenchError.self) { try Suites.register(Clash()) }
        #expect(Suites.suite(of: WorkloadCategory("clash")) == nil)
    }

    @Test func theReadmeCountsTheWorkloadsAndSuites() throws {
        let readme = try String(contentsOf: Bench.root.appendingPathComponent("README.md"), encoding: .utf8)
        let m = try #require(readme.firstMatch(of: /(\d+) declarative workloads in (\d+) suites/))
        // The built-in suites (`Suites.all`): a test may register storebench's graph suite too.
        let builtIn = Suites.all.filter(\.inProfiles)
        #expect(Int(m.1) == builtIn.flatMap(\.workloads).count && Int(m.2) == builtIn.count,
                "README says \(m.1) workloads in \(m.2) suites")
    }
}

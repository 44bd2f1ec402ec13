import Foundation
@testable import StoreBench
@testable import StoreBenchCLI
import StoreConformance
import Testing

/// The command line's edges a CI user meets: `--version`, `compare` when nothing could be
/// compared, files that cannot be read or written (one line, never an error dump), an empty
/// `--workloads`, and a long cell showing it is alive.
@Suite("CLI edges") struct CLIEdgeTests {
    @Test func versionIsPrinted() throws {
        let r = try Bench.run(["--version"])
        #expect(r.status == 0)
        #expect(r.out == StoreBenchCLI.version + "\n")
        #expect(StoreBenchCLI.version.split(separator: ".").compactMap { Int($0) }.count == 3, "major.minor.patch")
    }

    @Test func nothingComparedIsItsOwnExitStatus() throws {
        typealias T = CompareAndReportTests
        let read = T.cell("sqlite", "crud.read-pk.single", ns: 1_000, cv: 0.01)
        let disjoint = ResultsComparison(base: T.results([read]), new: T.results([T.cell("lmdb", "query.count", ns: 900, cv: 0.01)]), metric: .time)
        #expect(disjoint.exitCode == 5 && disjoint.nothingCompared?.contains("no cell measured in the base ran in the new file") == true)
        #expect(disjoint.markdown().hasPrefix("### StoreBench: nothing compared"))
        let noMetric = ResultsComparison(base: T.results([read]), new: T.results([read]), metric: .instructions)
        #expect(noMetric.exitCode == 5 && noMetric.nothingCompared?.contains("none of the 1 cell(s) both files ran has instructions") == true)
        let nowFails = ResultsComparison(base: T.results([read]), new: T.results([T.cell("sqlite", "crud.read-pk.single", ns: 0, cv: 0, status: .failed)]), metric: .time)
        #expect(nowFails.exitCode == 2 && nowFails.nothingCompared == nil, "a cell that now fails was compared: a regression")

        let dir = try TemporaryDirectory("compare-nothing")
        func write(_ name: String, _ cells: [CellResult]) throws -> String {
            let path = dir.url.appendingPathComponent(name).path
            try T.results(cells).write(path)
            return path
        }
        let base = try write("base.json", [read])
        let other = try write("other.json", [T.cell("lmdb", "query.count", ns: 900, cv: 0.01)])
        let r = try Bench.run(["compare", base, other, "--metric", "time"])
        #expect(r.status == 5)
        #expect(r.err.hasPrefix("storebench compare: nothing compared: no cell measured in the base ran in the new file"))
        #expect(r.err.split(separator: "\n").count == 1, "one line: \(r.err)")
        #expect(r.out.contains("nothing compared") && !r.out.contains("No change beyond noise"))
        let m = try Bench.run(["compare", base, base])   // crafted cells have no allocation counts
        #expect(m.status == 5 && m.err.contains("allocation calls per operation"), "\(m.err)")
        #expect(try Bench.run(["compare", base, base, "--metric", "time"]).status == 0)
        let help = try Bench.run(["compare", "--help"])
        for code in ["0  no change", "1  a results file", "2  a regression", "3  the runs had different settings", "4  only improvements",
                     "5  nothing compared", "64 bad arguments"] {
            #expect(help.out.contains(code), "compare --help documents \(code)")
        }
    }

    /// Lines of standard error that are not the debug-build note.
    private func messages(_ err: String) -> [String] {
        err.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("note: this is a debug build") }
    }

    @Test func filesThatCannotBeWrittenOrReadAreOneLine() throws {
        let dir = try TemporaryDirectory("file-errors")
        let file = dir.url.appendingPathComponent("a-file").path
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
        let run = try Bench.run(["run", "--scale", "tiny", "--backends", "sqlite", "--workloads", "crud.read-pk.single", "--no-conformance",
                                 "--out", file + "/Reports"])
        #expect(run.status == 73)
        #expect(messages(run.err) == ["storebench: cannot create the folder \(file)/Reports: Not a directory"], "checked before any cell")
        let json = try Bench.run(["run", "--scale", "tiny", "--backends", "sqlite", "--workloads", "crud.read-pk.single", "--no-conformance",
                                  "--out", dir.url.appendingPathComponent("ok").path, "--json", file + "/latest.json"])
        #expect(json.status == 73 && messages(json.err) == ["storebench: cannot create the folder \(file): File exists"])

        let results = Bench.root.appendingPathComponent("Tests/StoreBenchTests/Fixtures/results-schema2.json").path
        let report = try Bench.run(["report", results, "-o", file + "/latest.md"])
        #expect(report.status == 73 && messages(report.err) == ["storebench: cannot create the folder \(file): File exists"])
        let missing = dir.url.appendingPathComponent("missing.json").path
        let unread = try Bench.run(["report", missing])
        #expect(unread.status == 1 && messages(unread.err) == ["storebench report: cannot read \(missing): No such file or directory"])
        let compare = try Bench.run(["compare", missing, results])
        #expect(compare.status == 1 && messages(compare.err) == ["storebench compare: cannot read \(missing): No such file or directory"])
        for r in [run, json, report, unread, compare] { #expect(!r.err.contains("Error Domain") && !r.err.contains("Usage:")) }
    }

    @Test func aFolderWithoutWritePermissionFailsBeforeTheFirstCell() throws {
        let dir = try TemporaryDirectory("read-only")
        let reports = dir.url.appendingPathComponent("Reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: reports.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: dir.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: reports.path) }
        // root writes anywhere: run as nobody (setpriv) when root, as is otherwise.
        var launcher: [String] = []
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
            launcher = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        }
        let r = try Bench.run(["run", "--scale", "tiny", "--backends", "sqlite", "--workloads", "crud.read-pk.single", "--no-conformance",
                               "--fixtures", Bench.fixtures.path, "--out", reports.path], via: launcher)
        #expect(r.status == 73)
        #expect(messages(r.err) == ["storebench: cannot write \(reports.path)/latest.md: Permission denied"])
    }

    @Test(arguments: ["", " , ", ","])
    func anEmptyListSaysWhatIsAccepted(list: String) throws {
        let w = try Bench.run(["run", "--workloads", list, "--backends", "sqlite"])
        #expect(w.status == 64)
        #expect(w.err.contains("--workloads '\(list)' names nothing; give comma-separated workload names"), "\(w.err)")
        #expect(w.err.contains("categories (") && w.err.contains("globs"))
        let b = try Bench.run(["run", "--backends", list])
        #expect(b.status == 64 && b.err.contains("--backends '\(list)' names nothing; give comma-separated backend names (sqlite, lmdb"))
        let s = try Bench.run(["run", "--scale", list])
        #expect(s.status == 64 && s.err.contains("--scale '\(list)' names nothing"))
    }

    @Test func aLongCellSaysItIsAliveInALog() throws {
        let out = try TemporaryDirectory("heartbeat")
        let r = try Bench.run(["run", "--scale", "tiny", "--backends", "sqlite", "--repetitions", "1", "--rounds", "1", "--warmup", "0",
                               "--no-floors", "--no-conformance", "--workloads", "selftest.hang", "--cell-timeout", "5", "--heartbeat", "2",
                               "--out", out.url.path])
        #expect(r.status == 1, "the hanging cell times out")
        let alive = r.err.split(separator: "\n").filter { $0.hasPrefix("still running") }
        #expect((1...2).contains(alive.count), "a line every 2 s of a 5 s cell: \(r.err)")
        for line in alive {
            #expect(line.wholeMatch(of: /still running sqlite selftest\.hang tiny: [2-4] s, measuring 1 of 1/) != nil, "\(line)")
        }
        #expect(!r.err.contains("\u{1B}"), "no terminal escapes in a log")
    }

    @Test func theProgressViewShowsTheRunningCell() {
        final class Text { var value = "" }
        let terminal = Text()
        let view = RunProgressView(isTerminal: true, stillRunningEvery: 30) { terminal.value += $0 }
        view.columns = 500
        view.begin(cells: 2)
        view.cellStarted(index: 0, label: "sqlite ycsb.a quick")
        view.cellRunning(index: 0, elapsed: 65.4, phase: "measuring 2 of 5")
        #expect(terminal.value.hasSuffix("sqlite ycsb.a quick · 1 min 5 s, measuring 2 of 5"))
        #expect(terminal.value.components(separatedBy: "\r\u{1B}[K").count == 3, "the line is rewritten in place")
        #expect(!terminal.value.dropFirst("running 2 cells\n".count).contains("\n"))
        view.columns = 40
        view.cellRunning(index: 0, elapsed: 66, phase: "measuring 2 of 5")
        #expect(terminal.value.components(separatedBy: "\r\u{1B}[K").last?.count == 39, "cut to the terminal's width")

        let log = Text()
        let ci = RunProgressView(isTerminal: false, stillRunningEvery: 30) { log.value += $0 }
        ci.begin(cells: 1)
        ci.cellStarted(index: 0, label: "lmdb ycsb.a quick")
        for s in 1...95 { ci.cellRunning(index: 0, elapsed: Double(s) + 0.3, phase: s < 50 ? "loading the dataset" : nil) }
        #expect(log.value == """
            running 1 cells
            still running lmdb ycsb.a quick: 30 s, loading the dataset
            still running lmdb ycsb.a quick: 1 min
            still running lmdb ycsb.a quick: 1 min 30 s

            """)
        #expect(RunProgressView.duration(3_725) == "1 h 2 min")
    }
}

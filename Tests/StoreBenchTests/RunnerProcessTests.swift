import Foundation
@testable import StoreBench
import StoreConformance
import Testing

/// The runner end to end through the real CLI: cells in child processes at the tiny scale.
@Suite(.serialized) struct RunnerProcessTests {
    @Test func aCrashingAndAHangingCellAreReportedAndTheRunGoesOn() throws {
        let out = try TemporaryDirectory("run-crash")
        let r = try Bench.run(["run", "--scale", "tiny", "--backends", "sqlite", "--repetitions", "1", "--rounds", "1", "--warmup", "0",
                               "--workloads", "selftest.crash,crud.read-pk.single,selftest.hang", "--cell-timeout", "8",
                               "--no-conformance", "--out", out.url.path])
        #expect(r.status == 1, "a failed cell makes the run exit 1")
        let results = try RunResults.read(out.url.appendingPathComponent("latest.json").path)

        let crash = try #require(results.cell("sqlite", "selftest.crash", "tiny"))
        #expect(crash.status == .failed)
        #expect(crash.reason?.contains("crashed with signal") == true)
        #expect(crash.outputTail?.contains("crashing on purpose") == true)

        let hang = try #require(results.cell("sqlite", "selftest.hang", "tiny"))
        #expect(hang.status == .timeout)
        #expect(hang.reason?.contains("time limit of 8 s") == true)

        // The cells after the crash ran and measured.
        let read = try #require(results.cell("sqlite", "crud.read-pk.single", "tiny"))
        #expect(read.status == .ok)
        #expect(read.operations == (try Bench.spec().operations.single))
        #expect((read.latency?.p50 ?? 0) > 0 && (read.peakResidentBytes ?? 0) > 0 && (read.diskBytes ?? 0) > 0)
        #expect((read.floorRatio?.value ?? 0) > 0, "read by key has a floor, which ran in the same run")
        #expect(results.cell(.floor("sqlite"), "crud.read-pk.single", "tiny")?.status == .ok)
        #expect(results.cell("sqlite", "memory.load", "tiny")?.status == .ok, "the load that builds the store runs first")

        let md = try String(contentsOf: out.url.appendingPathComponent("latest.md"), encoding: .utf8)
        for section in MarkdownReport.sections { #expect(md.contains(section), "missing \(section)") }
        #expect(md.contains("did not measure") && md.contains("latest/failures.md"))
        let failures = try String(contentsOf: out.url.appendingPathComponent("latest/failures.md"), encoding: .utf8)
        #expect(failures.contains("## Failed and skipped cells") && failures.contains("crashing on purpose"))
        #expect(r.err.contains("FAILED") && r.err.contains("TIMEOUT"), "progress names the failed cells")
    }

    @Test func everyBackendAndFloorMeasuresAWorkloadOfEachCategory() throws {
        let out = try TemporaryDirectory("run-all")
        let r = try Bench.run(["run", "--scale", "tiny", "--repetitions", "1", "--rounds", "2", "--warmup", "0",
                               "--workloads", "crud.update.batched,batch.bulk-insert,query.any-tag,rows.fetch,memory.walk",
                               "--out", out.url.path])
        #expect(r.status == 0, "\(r.err)")
        let results = try RunResults.read(out.url.appendingPathComponent("latest.json").path)
        #expect(results.targets.map(\.id.description) == ["sqlite", "lmdb", "grdb", "objectgraph+sqlite", "objectgraph+lmdb", "floor:sqlite", "floor:lmdb", "c:sqlite", "c:lmdb", "journal:sqlite", "plain:grdb"])
        let journal = try #require(results.cell(.reference("journal:sqlite"), "batch.bulk-insert", "tiny"))
        #expect(journal.status == .ok && (journal.floorRatio?.value ?? 0) > 0, "the rollback journal checks floor:sqlite: WAL ÷ rollback")
        let plain = try #require(results.cell(.reference("plain:grdb"), "batch.bulk-insert", "tiny"))
        #expect(plain.status == .ok && (plain.floorRatio?.value ?? 0) > 0, "plain GRDB checks GRDBStore: grdb ÷ plain")
        let c = try #require(results.cell(.reference("c:sqlite"), "rows.fetch", "tiny"))
        #expect(c.status == .ok && (c.floorRatio?.value ?? 0) > 0, "the C reference checks the SQLite floor: floor ÷ C")
        #expect(results.rounds == 2)
        for backend in ["sqlite", "lmdb", "grdb", "objectgraph+sqlite", "objectgraph+lmdb"] {
            for w in ["memory.load", "rows.load", "crud.update.batched", "batch.bulk-insert", "query.any-tag", "rows.fetch", "memory.walk"] {
                let c = try #require(results.cell(backend, w, "tiny"), "\(backend) \(w)")
                #expect(c.status == .ok, "\(backend) \(w): \(c.reason ?? "")")
                #expect((c.nanosPerOperation ?? 0) > 0)
            }
            #expect(results.cell(backend, "batch.bulk-insert", "tiny")?.floorRatio != nil)
            #expect(results.cell(backend, "query.any-tag", "tiny")?.roundNanos?.count == 2)
            #expect(results.cell(backend, "memory.load", "tiny")?.metrics["residentAfterLoadBytes"] != nil)
        }
        #expect(results.conformance.count == 5 && results.conformance.allSatisfy { $0.failed == 0 })
        #expect(results.datasets.first?.checksum == SocialGenerator(try Bench.spec()).checksum().hex)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.url.appendingPathComponent("latest").path).sorted()
        let pages = files.filter { $0.hasSuffix(".md") }
        #expect(pages.contains("crud.md") && pages.contains("charts.md") && pages.contains("setup.md"))
        let md = try (["latest.md"] + pages.map { "latest/\($0)" }).map {
            try String(contentsOf: out.url.appendingPathComponent($0), encoding: .utf8)
        }.joined()
        let chart = try #require(md.firstMatch(of: /!\[[^\]]+\]\(([a-z0-9-]+\.svg)\)/), "a chart linked as an image")
        #expect(files.contains(String(chart.output.1)), "its SVG beside the pages")
        #expect(md.contains("| Build | debug") || md.contains("| Build | release"))
        #expect(md.contains("`41c4c3cc84df5be8`") || md.contains(results.datasets[0].checksum))
    }

    /// Starts a run whose third cell hangs, and returns once that cell's workload is running
    /// (past its start-up, where it asks to die with the runner), with the runner's process and
    /// the cell's pid. The runner's standard error goes to `stderr.log` in `out`.
    private func startRunUntilTheHangingCell(out: TemporaryDirectory) throws -> (runner: Process, cell: pid_t) {
        let p = Process()
        p.executableURL = try Bench.binary()
        p.arguments = ["run", "--scale", "tiny", "--backends", "sqlite", "--repetitions", "1", "--rounds", "1", "--warmup", "0", "--no-floors",
                       "--workloads", "crud.read-pk.single,selftest.hang", "--cell-timeout", "120", "--out", out.url.path]
        p.standardOutput = FileHandle.nullDevice
        let errors = out.url.appendingPathComponent("stderr.log")
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: errors)
        try p.run()
        // The hanging cell has said so in its log, and a child of the runner runs it.
        let deadline = Date().addingTimeInterval(60)
        let log = NSTemporaryDirectory() + "storebench-run-\(p.processIdentifier)/cells/2/output.log"
        while Date() < deadline {
            if let text = try? String(contentsOfFile: log, encoding: .utf8), text.contains("hanging on purpose"),
               let child = Self.children(of: p.processIdentifier).first {
                return (p, child)
            }
            usleep(50_000)
        }
        p.terminate()
        throw BenchError("the hanging cell never started")
    }

    /// A process's state letter and parent pid from `/proc/<pid>/stat`, or `nil` once it is gone.
    static func procStat(_ pid: pid_t) -> (state: Substring, parent: pid_t?)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2 else { return nil }
        return (fields[0], Int32(fields[1]))
    }

    /// Live (not zombie) processes whose parent is `pid`, from /proc.
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { child in
            procStat(child).map { $0.state != "Z" && $0.parent == pid } ?? false
        }
    }

    /// Whether `pid` is a live process (a zombie, or a reaped one, is not).
    static func isAlive(_ pid: pid_t) -> Bool { procStat(pid).map { $0.state != "Z" } ?? false }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aRunStoppedByASignalWritesWhatItMeasured(signal: Int32) throws {
        let out = try TemporaryDirectory("run-interrupt")
        let (p, cell) = try startRunUntilTheHangingCell(out: out)
        let sent = Date()
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        #expect(p.terminationStatus == 128 + signal, "128 + the signal")
        // The cell ends on the runner's SIGTERM, before the 3 s grace that precedes SIGKILL.
        #expect(Date().timeIntervalSince(sent) < 2.9, "the runner took \(Date().timeIntervalSince(sent)) s to stop")
        #expect(!Self.isAlive(cell), "the running cell was stopped")
        let results = try RunResults.read(out.url.appendingPathComponent("latest.json").path)
        #expect(results.interrupted == true)
        #expect(results.interruptedBy == BenchmarkRunner.signalName(signal))
        #expect(results.cell("sqlite", "crud.read-pk.single", "tiny")?.status == .ok, "what ran before is kept")
        #expect(results.cell("sqlite", "selftest.hang", "tiny")?.reason == "the run was interrupted")
        let md = try String(contentsOf: out.url.appendingPathComponent("latest.md"), encoding: .utf8)
        #expect(md.contains("**Interrupted** (\(BenchmarkRunner.signalName(signal)))"))
        let err = try String(contentsOf: out.url.appendingPathComponent("stderr.log"), encoding: .utf8)
        #expect(err.hasSuffix("storebench: interrupted by \(BenchmarkRunner.signalName(signal)) after 2 of 3 cells; "
                              + "partial results in \(out.url.path)/latest.json\n"), "\(err)")
        #expect(!err.contains("SKIPPED") && !err.contains("FAILED"), "the stopped cell is not reported as a failure")
    }

    /// Ctrl-C, or a CI job's cancellation, reaches the whole process group: the cell can die of
    /// the signal before the runner has noted its own. The cell is then stopped, not crashed, and
    /// the run ends as interrupted. (SIGTERM here: a test runner's children inherit SIGINT
    /// blocked, and the cell unblocks only SIGTERM and SIGHUP.)
    @Test func aSignalThatKillsTheCellFirstIsAnInterruptionNotACrash() throws {
        let out = try TemporaryDirectory("run-group-signal")
        let (p, cell) = try startRunUntilTheHangingCell(out: out)
        kill(cell, SIGTERM)
        usleep(150_000)   // the runner sees its cell gone before it gets its own signal
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        #expect(p.terminationStatus == 128 + SIGTERM)
        let results = try RunResults.read(out.url.appendingPathComponent("latest.json").path)
        #expect(results.cell("sqlite", "selftest.hang", "tiny")?.reason == BenchmarkRunner.interruptedReason)
        #expect(results.cells.allSatisfy { $0.status != .failed })
        let err = try String(contentsOf: out.url.appendingPathComponent("stderr.log"), encoding: .utf8)
        #expect(!err.contains("crashed") && !err.contains("FAILED"), "\(err)")
        #expect(err.split(separator: "\n").last == "storebench: interrupted by SIGTERM after 2 of 3 cells; partial results in \(out.url.path)/latest.json")
    }

    @Test func aCellDiesWithItsRunnerEvenUnderSIGKILL() throws {
        let out = try TemporaryDirectory("run-killed")
        let (p, cell) = try startRunUntilTheHangingCell(out: out)
        defer { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "storebench-run-\(p.processIdentifier)") }
        #expect(Self.isAlive(cell))
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let deadline = Date().addingTimeInterval(10)
        while Self.isAlive(cell) && Date() < deadline { usleep(20_000) }
        #expect(!Self.isAlive(cell), "the cell (pid \(cell)) outlived its runner")
        if Self.isAlive(cell) { kill(cell, SIGKILL) }
    }

    @Test func argumentErrorsAreClear() throws {
        let bad = try Bench.run(["run", "--backends", "sqlite,nosuch"])
        #expect(bad.status == 64 && bad.err.contains("unknown backend 'nosuch'"))
        let w = try Bench.run(["run", "--workloads", "zzz"])
        #expect(w.status == 64 && w.err.contains("no workload matches 'zzz'"))
        let s = try Bench.run(["run", "--scale", "enormous"])
        #expect(s.status == 64 && s.err.contains("unknown scale 'enormous'"))
        let p = try Bench.run(["run", "--profile", "fast"])
        #expect(p.status == 64 && p.err.contains("quick") && p.err.contains("standard"))
        let list = try Bench.run(["list"])
        #expect(list.status == 0 && list.out.contains("query.any-tag") && list.out.contains("objectgraph+lmdb"))
    }
}

@Suite struct NamedProgramsOnlyTests {
    @Test func readScalingRunsOnPlainGRDBAndNotOnTheFloors() throws {
        let out = try TemporaryDirectory("read-scaling-programs")
        let r = try Bench.run(["run", "--scale", "tiny", "--repetitions", "1", "--rounds", "1", "--warmup", "0", "--backends", "grdb",
                               "--workloads", "concurrency.read.2-threads", "--no-conformance", "--no-allocations", "--out", out.url.path])
        #expect(r.status == 0, "\(r.err)")
        let results = try RunResults.read(out.url.appendingPathComponent("latest.json").path)
        let plain = try #require(results.cell(.reference("plain:grdb"), "concurrency.read.2-threads", "tiny"))
        #expect(plain.status == .ok && (plain.operations ?? 0) > 0 && plain.figure(ConcurrencySuite.Figures.threads) == 2)
        #expect(results.cell(.floor("sqlite"), "concurrency.read.2-threads", "tiny") == nil, "the floor has no concurrent reads")
        #expect(try String(contentsOf: out.url.appendingPathComponent("latest/concurrency.md"), encoding: .utf8).contains("| `plain:grdb` | "))
    }
}

extension NamedProgramsOnlyTests {
    @Test func theGRDBNoteNeedsGRDBUsedDirectlyToFallToo() {
        let view = ResultsView(CompareAndReportTests.results([]))
        let both = view.grdbReadScalingNote(["grdb": [10_000, 20_000, 30_000, 10_000], "`plain:grdb`": [12_000, 22_000, 31_000, 12_000]])
        #expect(both.contains("falls alike, from 31.0 k/s to 12.0 k/s: the fall is GRDB's own") && both.contains("barrierQueue.sync"))
        #expect(view.grdbReadScalingNote(["grdb": [10_000, 20_000, 30_000, 10_000], "`plain:grdb`": [12_000, 22_000, 31_000, 30_000]]).isEmpty,
                "GRDB used directly keeps its rate: the fall would be GRDBStore's, and the sentence would be wrong")
        #expect(view.grdbReadScalingNote(["grdb": [10_000, 20_000, 30_000, 29_000]]).isEmpty)
    }
}

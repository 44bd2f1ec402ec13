import CBenchSupport
import Foundation
@testable import StoreBench
import StoreBenchKit
import StoreConformance
import Testing

/// The durability suite: syncs and bytes written are counted where they happen, each commit
/// mode makes the syncs its engine documents, and the report's "Commit modes" section shows
/// every mode with its guarantee.
@Suite("Durability suite", .serialized)
struct DurabilitySuiteTests {
    @Test func syncsAndWritesAreCountedInThisProcess() throws {
        #expect(WriteCounters.countsSyncs, "the executable exports the counting fsync, fdatasync and pwrite")
        let dir = try TemporaryDirectory("write-counters")
        let fd = open(dir.url.appendingPathComponent("f").path, O_CREAT | O_RDWR, 0o644)
        defer { close(fd) }
        // Other tests run on other threads of this process: count this thread's syncs.
        let before = WriteCounters.now(), syncs = sb_thread_syncs()
        let bytes = [UInt8](repeating: 7, count: 10_000)
        #expect(write(fd, bytes, bytes.count) == bytes.count)
        #expect(fsync(fd) == 0 && fdatasync(fd) == 0)
        let spent = WriteCounters.now() - before
        #expect(sb_thread_syncs() - syncs == 2 && (spent.syncs ?? 0) >= 2)
        #expect((spent.written ?? 0) >= 10_000, "wchar counts the bytes handed to write")

        // A pwrite through an O_DSYNC descriptor is a sync while watched, and only then.
        let dsync = open(dir.url.appendingPathComponent("g").path, O_CREAT | O_WRONLY | O_DSYNC, 0o644)
        defer { close(dsync) }
        let plain = sb_thread_syncs()
        #expect(pwrite(dsync, bytes, 100, 0) == 100)
        #expect(sb_thread_syncs() == plain, "not watched: not counted")
        let watched = WriteCounters.watchingWrites {
            let start = sb_thread_syncs()
            #expect(pwrite(dsync, bytes, 100, 0) == 100 && pwrite(fd, bytes, 100, 0) == 100)
            return sb_thread_syncs() - start
        }
        #expect(watched == 1, "the O_DSYNC write counts, the plain one does not")
    }

    /// The durability workloads on sqlite and lmdb, their floors and modes, at the tiny scale
    /// (after a warm-up: the first commit after opening a SQLite store also creates its WAL and
    /// syncs the folder).
    static let run: Result<RunResults, Error> = Result {
        let dir = try TemporaryDirectory("durability-run")
        let out = dir.url.appendingPathComponent("out")
        let r = try Bench.run(["run", "--scale", "tiny", "--backends", "sqlite,lmdb", "--workloads", "durability", "--rounds", "2",
                               "--repetitions", "1", "--warmup", "1", "--no-conformance", "--no-allocations", "--out", out.path])
        guard r.status == 0 else { throw BenchError("storebench run failed (\(r.status)): \(r.err)") }
        return try RunResults.read(out.appendingPathComponent("latest.json").path)
    }

    @Test func everyModeMakesTheSyncsItsEngineDocuments() throws {
        let results = try Self.run.get()
        typealias F = DurabilitySuite.Figures
        let syncs = { (t: String) -> Double? in
            results.cells.first { $0.target.description == t && $0.workload == "durability.commit-one" }?.figure(F.syncsPerCommit)
        }
        // SQLite: WAL syncs the log at a FULL commit; the rollback journal syncs journal and database.
        #expect(syncs("floor:sqlite") == 1 && syncs("sqlite") == 1)
        #expect(syncs("wal-normal:sqlite") == 0 && syncs("wal-off:sqlite") == 0 && syncs("delete-off:sqlite") == 0)
        #expect((syncs("delete-full:sqlite") ?? 0) >= 3 && (syncs("delete-normal:sqlite") ?? 0) >= 2)
        #expect((syncs("delete-full:sqlite") ?? 0) > (syncs("delete-normal:sqlite") ?? 0))
        // LMDB: data pages by fdatasync, the meta page through its O_DSYNC descriptor.
        #expect(syncs("floor:lmdb") == 2 && syncs("lmdb") == 2)
        #expect(syncs("nometasync:lmdb") == 1 && syncs("nosync:lmdb") == 0)
        #expect(syncs("memory:sqlite") == 0)
        for c in results.cells where c.category == .durability {
            let written = try #require(c.figure(F.writtenPerByte), "\(c.target) \(c.workload)")
            #expect(c.target.description == "memory:sqlite" ? written == 0 : written > 1, "\(c.target) \(c.workload): \(written)")
        }
    }

    @Test func theReportShowsEveryModeWithWhatItSurvives() throws {
        let results = try Self.run.get()
        let page = try #require(MarkdownReport(results, folder: "latest").pages().first { $0.name == "durability.md" }?.text)
        #expect(page.contains("## Commit modes: what a commit costs and what it survives"))
        for mode in CommitMode.all {
            #expect(page.contains("| `\(mode.target)` | \(mode.settings) | \(mode.guarantee.rawValue) |"), "\(mode.target)")
        }
        #expect(page.contains("| `floor:sqlite` | journal_mode=WAL, synchronous=FULL | power loss |"))
        #expect(page.contains("| `floor:lmdb` | no sync flag | power loss |"))
        for g in CommitMode.Guarantee.allCases { #expect(page.contains("- **\(g.rawValue)**: ")) }
        #expect(page.contains("### One user per commit (`durability.commit-one`)") && page.contains(" users per commit (`durability.commit-chunk`)"))
    }
}

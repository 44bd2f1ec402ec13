import Foundation
import LMDBStore
import ObjectGraph
import SQLiteStore
@testable import StoreBench
import StoreConformance
import StoreCore
import Testing

/// The lifecycle workloads on real stores of the tiny dataset: opening reports open and
/// first-result times and whether the cache drop worked; churn grows the files and compaction
/// shrinks them on both engines, keeping every post; the report's "Storage over time" section.
@Suite("Lifecycle workloads", .serialized)
struct LifecycleWorkloadTests {
    /// A closed, loaded tiny store of `descriptor` in a new temporary directory.
    private func store(_ descriptor: BackendDescriptor) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sb-lifecycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let repo = try descriptor.open(BenchSchema.schema, dir, StoreOptions(durability: .relaxed))
        try SocialGenerator(try Bench.spec()).load(into: repo)
        try repo.close()
        return dir
    }

    /// Runs one measured repetition of `name` on the store in `dir`, as the cell runs it.
    private func run(_ name: String, _ d: BackendDescriptor, at dir: URL) throws -> OperationTimer {
        let w = try #require(WorkloadRegistry.named(name))
        let ctx = WorkloadContext(generator: SocialGenerator(try Bench.spec()), workload: name, repetition: 1,
                                  storeDirectory: dir, residentAtStart: 0)
        let options = StoreOptions(durability: .relaxed)
        ctx.reopen = { schema, plan in try d.open(schema, dir, StoreOptions(durability: .relaxed, migrations: plan)) }
        ctx.compact = d.compact.map { compact in { try compact(BenchSchema.schema, dir, options) } }
        let prepared = try w.prepare(ctx)
        let timer = OperationTimer(minimumSpan: 1_000)
        let repo = try d.open(BenchSchema.schema, dir, options)
        defer { try? repo.close() }
        _ = try prepared.backend(repo, timer)
        prepared.teardown()
        return timer
    }

    static let backends = [SQLiteStore.descriptor, LMDBStore.descriptor, ObjectGraph.descriptor(over: LMDBStore.descriptor)]

    @Test("open cold and warm: one operation, open and first-result times, the share cached after the drop", arguments: [0, 1, 2])
    func openTimes(_ which: Int) throws {
        let d = Self.backends[which]
        let dir = try store(d)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["lifecycle.open.cold", "lifecycle.open.warm"] {
            let t = try run(name, d, at: dir)
            #expect(t.operations == 1, "\(d.name) \(name)")
            let open = try #require(t.intervalNanos?.first, "one interval: the open")
            #expect(t.intervalNanos?.count == 1 && open >= Double(t.elapsed) && open < Double(t.elapsed) * 1.5 + 10_000)
            #expect((t.metrics["open ns"] ?? 0) > 0 && (t.metrics["first result ns"] ?? 0) > 0, "\(d.name) \(name)")
            if name.hasSuffix("cold") {
                let cached = try #require(t.metrics["cached after drop %"])
                #expect((0...100).contains(cached))
            } else {
                #expect(t.metrics["cached after drop %"] == nil)
            }
        }
    }

    @Test("churn grows the files; compaction shrinks them and keeps every post", arguments: [0, 1, 2])
    func churnAndCompaction(_ which: Int) throws {
        let d = Self.backends[which]
        let dir = try store(d)
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = try run("lifecycle.churn", d, at: dir)
        let posts = SocialGenerator(try Bench.spec()).posts
        #expect(t.operations == posts / 2 * 2 + (posts + 1) / 2, "a delete, an update or an insert per operation")
        IntervalSampleTests.expectIntervals(t, "\(d.name) churn")
        let load = try #require(t.metrics["size load bytes"]), churn = try #require(t.metrics["size churn bytes"])
        let compacted = try #require(t.metrics["size compact bytes"]), peak = try #require(t.metrics["compact peak bytes"])
        #expect(compacted < churn, "\(d.name): \(load) → \(churn) → \(compacted) bytes")
        #expect(peak >= churn, "\(d.name): the peak starts from the churned store")
        #expect((t.metrics["compact ns"] ?? 0) > 0 && (t.metrics["delete ns/op"] ?? 0) > 0)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".compacting").path))
        // The compacted store opens clean (the workload itself checked the post count).
        let repo = try d.open(BenchSchema.schema, dir, StoreOptions())
        defer { try? repo.close() }
        #expect(try repo.verify().isClean)
        #expect(try repo.read { try $0.count(Query("Post")) } == posts)
    }

    @Test("the peak sampler catches a file that exists for longer than its period, and stops once")
    func peakSamplerCatchesATransientFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sb-peak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(count: 1_000).write(to: dir.appendingPathComponent("base"))
        let sampler = PeakSizeSampler(dir)
        let transient = dir.appendingPathComponent("copy")
        try Data(count: 3 << 20).write(to: transient)
        usleep(30_000)
        try FileManager.default.removeItem(at: transient)
        usleep(10_000)
        #expect(sampler.stop() == 1_000 + (3 << 20))
        #expect(sampler.stop() == 1_000 + (3 << 20), "a second stop returns the same peak at once")
        #expect(StoreFiles(dir).apparent == 1_000)
    }

    @Test("the page cache: a read file is cached; a drop evicts it where the file system allows (not tmpfs)")
    func pageCacheDropEvicts() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sb-pagecache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(repeating: 7, count: 4 << 20).write(to: dir.appendingPathComponent("f"))
        PageCache.warm(dir)
        #expect(PageCache.residentShare(dir) > 0.9)
        // The file system of the directory: the longest mount point of /proc/mounts above it.
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        var fsType: String?, longest = -1
        for line in mounts.split(separator: "\n") {
            let f: [Substring] = line.split(separator: " ")
            guard f.count > 2, dir.path.hasPrefix(String(f[1])), f[1].count > longest else { continue }
            longest = f[1].count
            fsType = String(f[2])
        }
        guard let fsType, fsType != "tmpfs", fsType != "ramfs" else { return }
        #expect(PageCache.drop(dir) < 0.5, "\(fsType)")
    }

    @Test func theStorageSectionShowsOpenTimesAndSizesThroughThePhases() {
        func lifecycle(_ target: String, _ workload: String, _ metrics: [String: Double]) -> CellResult {
            var c = CompareAndReportTests.cell(target, workload, ns: 2_000_000, cv: 0.01)
            c.metrics = metrics
            return c
        }
        let cells = [
            lifecycle("sqlite", "lifecycle.open.cold", ["open ns": 1_500_000, "first result ns": 400_000, "cached after drop %": 0]),
            lifecycle("sqlite", "lifecycle.open.warm", ["open ns": 500_000, "first result ns": 100_000]),
            lifecycle("lmdb", "lifecycle.churn", ["size load bytes": 10_485_760, "size churn bytes": 20_971_520, "size compact bytes": 9_437_184,
                                                  "compact ns": 30_000_000, "compact peak bytes": 30_408_704,
                                                  "delete ns/op": 20_000, "update ns/op": 10_000, "insert ns/op": 5_000]),
        ]
        let report = MarkdownReport(CompareAndReportTests.results(cells))
        let md = report.renderAll()
        #expect(md.contains("## Storage over time"))
        #expect(md.contains("| sqlite | 1.50 ms | 400.00 µs | 2.00 ms | 0.0% | 500.00 µs | 100.00 µs | 2.00 ms |"), "\(md)")
        #expect(md.contains("| lmdb | 10.0 MiB | 20.0 MiB | 2.00× | 9.0 MiB | 0.90× | 30.00 ms | 29.0 MiB | 20.00 µs | 10.00 µs | 5.00 µs |"), "\(md)")
        #expect(md.contains("![Store size after the load, after churn and after compaction](lifecycle-size-through-churn.svg)"))
        let chart = SVGInspection(report.chartFiles.svg(named: "lifecycle-size-through-churn.svg") ?? "")
        #expect(chart.wellFormed && chart.legend == ["lmdb"])
        #expect(chart.texts.filter { $0.className == "x-label" }.map(\.content) == ["after load", "after churn", "after compaction"])
        #expect(!MarkdownReport(CompareAndReportTests.results([CompareAndReportTests.cell("sqlite", "query.count", ns: 5_000, cv: 0.02)])).renderAll().contains("## Storage over time"))
    }
}

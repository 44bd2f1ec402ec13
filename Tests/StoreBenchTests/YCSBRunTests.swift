import Foundation
import LMDBStore
import SQLiteStore
@testable import StoreBench
import StoreConformance
import StoreCore
import Testing

/// YCSB's load and run phases on real stores: every operation of the mix performed and
/// counted, inserts readable afterwards, several threads sharing the operations, YCSB's key
/// names; and `storebench run --ycsb` refusing a bad property file with a message naming it.
@Suite("YCSB runs", .serialized)
struct YCSBRunTests {
    private func spec(_ letter: String, records: Int, operations: Int, threads: Int = 1) throws -> YCSBWorkloadSpec {
        var s = try YCSBWorkloadSpec(file: Bench.fixtures.appendingPathComponent("ycsb/workload\(letter)").path)
        s.recordCount = records
        s.operationCount = operations
        s.threadCount = threads
        return s
    }

    private func withStore<T>(_ lmdb: Bool, _ schema: Schema, _ body: (any Repository) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sb-ycsb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let options = StoreOptions(durability: .relaxed)
        let repo: any Repository = lmdb ? try LMDBStore(directory: dir, schema: schema, options: options)
            : try SQLiteStore(directory: dir, schema: schema, options: options)
        defer { try? repo.close() }
        return try body(repo)
    }

    @Test func everyKindOfTheMixRunsAndInsertsStay() throws {
        for (letter, kinds) in [("d", ["READ", "INSERT"]), ("e", ["SCAN", "INSERT"]), ("f", ["READ", "READ-MODIFY-WRITE"])] {
            let run = try YCSBRun(try spec(letter, records: 300, operations: 600), seed: 11)
            let (result, stored) = try withStore(letter == "e", run.table.schema) { repo in
                try run.load(into: repo)
                let result = try run.run(on: repo)
                return (result, try repo.read { try $0.count(Query(run.spec.table)) })
            }
            #expect(result.operations == 600 && result.all.totalCount == 600, "workload \(letter)")
            #expect(Set(result.latencies.keys.map(\.rawValue)) == Set(kinds), "workload \(letter)")
            let inserted = Int(result.latencies[.insert]?.totalCount ?? 0)
            #expect(stored == 300 + inserted, "workload \(letter): every insert stored")
            if letter != "f" { #expect(inserted > 5 && inserted < 100, "about 5% inserts") }
        }
    }

    @Test func threadsShareTheOperations() throws {
        let run = try YCSBRun(try spec("a", records: 200, operations: 1_001, threads: 4), seed: 3)
        let result = try withStore(true, run.table.schema) { repo in
            try run.load(into: repo)
            return try run.run(on: repo)
        }
        #expect(result.all.totalCount == 1_001 && result.throughput > 0)
        // The four threads' marks merge into 1 ÷ throughput over 20 spans of the run.
        #expect(result.intervalNanos.count >= 10 && result.intervalNanos.allSatisfy { $0 > 0 })
        #expect((result.latencies[.read]?.totalCount ?? 0) > 400 && (result.latencies[.update]?.totalCount ?? 0) > 400)
    }

    @Test func keyNamesAreYCSBs() throws {
        var s = try spec("a", records: 10, operations: 0)
        let hashed = try YCSBTable(s)
        let names = Set((0..<10_000).map(hashed.keyName))
        #expect(names.count == 10_000 && names.allSatisfy { $0.hasPrefix("user") })
        s.insertOrder = .ordered
        #expect(try YCSBTable(s).keyName(42) == "user42")
        var rng = SplitMix64(seed: 1)
        let r = hashed.record(keyNumber: 1, rng: &rng)
        #expect(r.values.count == 11 && r[1].stringValue?.utf8.count == 100)
    }

    /// YCSB's workload_template (shortened by two lines appended: a later line overrides, as in
    /// Java) and workloada as shipped, through a real run; the report's YCSB section names each
    /// workload and gives its description once, and lists the settings that had no effect.
    @Test func yCSBsOwnFilesRunAsShipped() throws {
        let dir = try TemporaryDirectory("ycsb-official")
        let official = YCSBWorkloadSpecTests.official
        let template = dir.url.appendingPathComponent("workload_template").path
        try (String(contentsOf: official.appendingPathComponent("workload_template"), encoding: .utf8)
            + "\n# Shorter for the test.\nrecordcount=300\noperationcount=300\n").write(toFile: template, atomically: true, encoding: .utf8)
        let out = dir.url.appendingPathComponent("out")
        let r = try Bench.run(["run", "--ycsb", template, "--ycsb", official.appendingPathComponent("workloada").path, "--backends", "sqlite",
                               "--scale", "tiny", "--rounds", "1", "--repetitions", "1", "--warmup", "0", "--no-conformance", "--no-allocations",
                               "--out", out.path])
        #expect(r.status == 0, "\(r.err)")
        let results = try RunResults.read(out.appendingPathComponent("latest.json").path)
        let t = try #require(results.cell("sqlite", "ycsb.workload_template", "tiny"))
        #expect(t.status == .ok && t.parameters?["record count"] == "300")
        #expect(t.parameters?["settings without effect"]?.contains("histogram.buckets=1000; hotspotdatafraction=0.2") == true)
        let a = try #require(results.cell("sqlite", "ycsb.workloada", "tiny"))
        #expect(a.status == .ok && a.operations == 1_000 && a.parameters?["settings without effect"] == nil)

        let md = try String(contentsOf: out.appendingPathComponent("latest/ycsb.md"), encoding: .utf8)
        let section = try #require(md.components(separatedBy: "## YCSB\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        func count(_ s: String) -> Int { section.components(separatedBy: s).count - 1 }
        #expect(count("workloada") == 1, "the workload named once: \(section)")
        #expect(count("50% read, 50% update, zipfian keys") == 1 && count("1,000 records, 1,000 operations, 1 thread.") == 1)
        #expect(count("95% read, 5% update, zipfian keys") == 1 && count("300 records, 300 operations, 1 thread.") == 1)
        #expect(!section.contains("1000 records"), "sizes once, as the run had them")
        #expect(count("Settings of the file with no effect here: ") == 1)
        #expect(section.contains("`measurementtype=histogram` (latencies are always an HdrHistogram)"))
        #expect(section.contains("`timeseries.granularity=1000`") && section.contains("`hotspotopnfraction=0.8` (only for requestdistribution=hotspot)"))
    }

    @Test func theCLIRefusesABadPropertyFileNamingTheProblem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sb-ycsb-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (text, expected) in [("recordcount=10\nreadproportion=1\nfieldcnt=3\n", "fieldcnt"),
                                 ("requestdistribution=hotspot\n", "does not implement"),
                                 ("recordcount=ten\n", "recordcount=ten")] {
            let file = dir.appendingPathComponent("bad").path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let r = try Bench.run(["run", "--ycsb", file, "--backends", "sqlite", "--out", dir.path])
            #expect(r.status != 0)
            #expect(r.err.contains(expected), "\(r.err)")
        }
    }
}

import Foundation
@testable import StoreBench
import StoreConformance
import Testing

/// `run --soak`: each backend repeats the mixed workload in a process of its own and the
/// report shows its figures over time.
@Suite struct SoakTests {
    @Test func aShortSoakSamplesEveryBackendOverTime() throws {
        let dir = try TemporaryDirectory("soak")
        let r = try Bench.run(["run", "--soak", "3s", "--backends", "sqlite,lmdb", "--durability", "relaxed", "--out", dir.url.path])
        #expect(r.status == 0, "\(r.err)")
        let data = try #require(FileManager.default.contents(atPath: dir.url.appendingPathComponent("soak.json").path))
        let series = try JSONDecoder().decode([SoakSeries].self, from: data)
        #expect(series.map(\.backend) == ["sqlite", "lmdb"])
        for s in series {
            #expect(s.failure == nil && s.samples.count >= 3, "\(s.backend): \(s.failure ?? "") \(s.samples.count) samples")
            #expect(s.samples.allSatisfy { $0.operations > 0 && $0.fileBytes > 0 && $0.residentBytes > 0 && $0.latency.p99 >= $0.latency.p50 })
            #expect(zip(s.samples, s.samples.dropFirst()).allSatisfy { $0.seconds < $1.seconds }, "samples in time order")
            #expect(s.samples.allSatisfy { (2_000...2_001).contains($0.records) }, "the record count stays level: \(s.samples.map(\.records))")
        }
        let md = try String(contentsOf: dir.url.appendingPathComponent("soak.md"), encoding: .utf8)
        #expect(md.contains("| sqlite | ") && md.contains("| lmdb | "))
        for chart in ["throughput", "p99", "file", "memory"] {
            #expect(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("soak/\(chart).svg").path) && md.contains("(soak/\(chart).svg)"))
        }
    }

    @Test func badDurationsAreUsageErrors() throws {
        for bad in ["0s", "ten", "0", "5x", "infs"] {
            let r = try Bench.run(["run", "--soak", bad])
            #expect(r.status == 64 && r.err.contains("is not a duration"), "\(bad): \(r.err)")
        }
    }

    @Test func aFailedBackendIsNamedInTheReport() {
        var failed = SoakSeries(backend: "broken")
        failed.failure = "the soak process ended with status 6"
        let md = SoakReport(series: [failed], seconds: 10, command: "storebench run --soak 10s").markdown()
        #expect(md.contains("| broken | 0 | | | | | the soak process ended with status 6 |"))
    }
}

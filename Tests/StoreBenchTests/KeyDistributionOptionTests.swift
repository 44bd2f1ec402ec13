import Foundation
@testable import StoreBench
import StoreConformance
import Testing

/// `--distribution` reaches the workloads' keys: uniform stays what it was, zipfian and latest
/// skew the same keys for every backend.
@Suite("Key distribution option")
struct KeyDistributionOptionTests {
    private func keys(_ distribution: KeyDistribution?) throws -> [Int64] {
        let g = SocialGenerator(try Bench.spec())
        let ctx = WorkloadContext(generator: g, workload: "crud.read", repetition: 0, storeDirectory: URL(fileURLWithPath: "/tmp"), residentAtStart: 0)
        if let distribution { ctx.keyDistribution = distribution }
        return ctx.randomKeys(20_000, upTo: 1_000)
    }

    private func hottestShare(_ keys: [Int64]) -> Double {
        let counts: [Int64: Int] = Dictionary(keys.map { ($0, 1) }, uniquingKeysWith: +)
        return Double(counts.values.max() ?? 0) / Double(keys.count)
    }

    @Test func uniformIsTheDefaultAndUnchanged() throws {
        let ctx = WorkloadContext(generator: SocialGenerator(try Bench.spec()), workload: "crud.read", repetition: 0,
                                  storeDirectory: URL(fileURLWithPath: "/tmp"), residentAtStart: 0)
        var r = ctx.random()
        #expect(try keys(nil) == (0..<20_000).map { _ in Int64(r.below(1_000) + 1) })
        #expect(try keys(.uniform) == keys(nil))
        #expect(try hottestShare(keys(nil)) < 0.003)
    }

    @Test func zipfianAndLatestSkewTheKeys() throws {
        let p0 = ZipfianGenerator.probabilities(count: 1_000)[0]
        for d in [KeyDistribution.zipfian, .latest] {
            let drawn = try keys(d)
            #expect(drawn.allSatisfy { (1...1_000).contains($0) })
            #expect(abs(hottestShare(drawn) - p0) < 0.02, "\(d): the hottest key's share")
            #expect(try keys(d) == drawn, "the same keys on every call, so every backend gets them")
        }
        let latest = try keys(.latest)
        let counts: [Int64: Int] = Dictionary(latest.map { ($0, 1) }, uniquingKeysWith: +)
        let hottest: Int64? = counts.max { $0.value < $1.value }?.key
        #expect(hottest == 1_000)
    }
}

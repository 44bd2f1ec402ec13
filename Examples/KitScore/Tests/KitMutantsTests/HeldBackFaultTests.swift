import Foundation
import KitMutants
import StoreConformance
import StoreCore
import Testing

/// What makes the score mean something: the wrapper without a mutation passes the whole kit,
/// and every mutation changes what the store observably does in its data shape (a mutation
/// nothing can see measures nothing). The score itself is `kit-score` (`make kit-score`).
@Suite("KitMutants", .serialized)
struct HeldBackFaultTests {
    @Test("the wrapper without a mutation passes every kit case")
    func wrapperWithoutMutationPassesTheKit() {
        let report = ConformanceKit.run(HeldBackHarness(nil))
        #expect(report.failures.isEmpty, "\(report.failures.map(\.description).joined(separator: "\n"))")
        #expect(report.passed + report.skipped == ConformanceKit.cases.count)
    }

    @Test("README states the score over every mutation")
    func readmeCountsEveryMutation() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("../../README.md").standardized, encoding: .utf8)
        let m = try #require(readme.firstMatch(of: /make kit-score`: (\d+) of (\d+) mutations caught/))
        #expect(Int(m.2) == HeldBackFault.allCases.count, "README: \(m.0)")
        #expect(Double(Int(m.1) ?? 0) >= 0.95 * Double(HeldBackFault.allCases.count))
    }

    @Test("at least 80 mutations, each changing observable behaviour in its data shape")
    func mutationsAreObservable() throws {
        #expect(HeldBackFault.allCases.count >= 80)
        for m in HeldBackFault.allCases {
            let correct = try HeldBackScenario.observe(m, under: nil)
            let faulty = try HeldBackScenario.observe(m, under: m)
            #expect(correct != faulty, "\(m.rawValue) changes nothing: \(correct)")
        }
    }
}

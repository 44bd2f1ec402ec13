import Foundation
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// The kit is tested too: a correct backend wrapped without a fault passes every case, and
/// every injected fault is caught by at least one case.
@Suite("Conformance kit self-test")
struct KitSelfTests {
    static let sqlite = DescriptorHarness(SQLiteStore.descriptor)

    @Test("the wrapper without a fault passes every case")
    func faithfulWrapperPasses() {
        let report = ConformanceKit.run(FaultyHarness(base: Self.sqlite, fault: nil))
        #expect(report.failed == 0, "\(report.failures.map { "\($0.id): \($0.reason ?? "")" })")
        #expect(report.passed == ConformanceKit.cases.count)
    }

    @Test("each injected fault is caught", arguments: Fault.allCases)
    func faultIsCaught(_ fault: Fault) {
        let report = ConformanceKit.run(FaultyHarness(base: Self.sqlite, fault: fault))
        #expect(report.failed > 0, "fault \(fault.rawValue) went unnoticed by all \(report.cases.count) cases")
        let catchers = report.failures.map(\.id)
        print("fault \(fault.rawValue): caught by \(catchers.count) case(s), e.g. \(catchers.prefix(3).joined(separator: ", "))")
    }

    @Test("a missing capability skips with its reason, and a skip is not a pass")
    func missingCapabilitySkips() {
        let harness = FaultyHarness(base: Self.sqlite, fault: nil, hidden: [.persistence, .snapshotReads])
        let report = ConformanceKit.run(harness)
        let skipped = report.cases.filter { $0.status == .skipped }
        let expected = ConformanceKit.cases.filter { !$0.requires.isDisjoint(with: [.persistence, .snapshotReads]) }
        #expect(skipped.map(\.id) == expected.map(\.id))
        #expect(!skipped.isEmpty)
        #expect(skipped.allSatisfy { $0.reason?.contains("requires capability") == true })
        #expect(report.passed + report.skipped == report.cases.count)
        #expect(report.passed == ConformanceKit.cases.count - expected.count)
    }

    @Test("the kit has at least 140 uniquely named cases in every group")
    func caseInventory() {
        let cases = ConformanceKit.cases
        #expect(cases.count >= 140)
        #expect(Set(cases.map(\.id)).count == cases.count, "case ids must be unique")
        #expect(ConformanceKit.groups == ["schema", "crud", "transactions", "isolation", "batch", "queries", "relationships", "errors", "persistence", "reentrancy"])
    }

    @Test("Markdown and JSON reports carry every case")
    func reportFormats() throws {
        let report = ConformanceKit.run(Self.sqlite, cases: Array(ConformanceKit.cases.prefix(3)))
        let md = ConformanceKit.markdown([report])
        #expect(md.contains("| sqlite | 3 | 0 | 0 |"))
        let json = try ConformanceKit.json([report])
        let decoded = try JSONDecoder().decode([ConformanceReport].self, from: Data(json.utf8))
        #expect(decoded == [report])
    }
}

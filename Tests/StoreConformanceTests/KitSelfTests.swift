import Foundation
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// The kit is tested too: a correct backend wrapped without a fault passes every case, and
/// every injected fault is caught, by the case written for it.
@Suite("Conformance kit self-test")
struct KitSelfTests {
    static let sqlite = DescriptorHarness(SQLiteStore.descriptor)

    @Test("the wrapper without a fault passes every case")
    func faithfulWrapperPasses() {
        let report = ConformanceKit.run(FaultyHarness(base: Self.sqlite, fault: nil))
        #expect(report.failed == 0, "\(report.failures.map { "\($0.id): \($0.reason ?? "")" })")
        #expect(report.passed == ConformanceKit.cases.count)
    }

    /// Runs the case written for the fault (`Fault.catcher`), which must fail; should it pass,
    /// runs the others in kit order until one fails. `STOREBENCH_KIT_ALL_CATCHERS=1` runs every
    /// case and lists every catcher.
    @Test("each injected fault is caught by the case written for it", arguments: Fault.allCases)
    func faultIsCaught(_ fault: Fault) throws {
        let harness = FaultyHarness(base: Self.sqlite, fault: fault)
        let designated = try #require(ConformanceKit.cases.first { $0.id == fault.catcher }, "no kit case \(fault.catcher)")
        let all = ProcessInfo.processInfo.environment["STOREBENCH_KIT_ALL_CATCHERS"] == "1"
        var catchers: [String] = []
        var why = ""
        var ran = 0
        for c in [designated] + ConformanceKit.cases.filter({ $0.id != designated.id }) {
            ran += 1
            let r = ConformanceKit.run(c, harness: harness)
            if r.status == .failed {
                if catchers.isEmpty { why = String((r.reason ?? "").prefix(160)) }
                catchers.append(c.id)
                if !all { break }
            }
        }
        #expect(!catchers.isEmpty, "fault \(fault.rawValue) went unnoticed by all \(ran) cases")
        #expect(catchers.first == designated.id, "fault \(fault.rawValue) was not caught by \(designated.id), the case written for it")
        print("fault \(fault.rawValue): caught by \(catchers.joined(separator: ", ")) (\(ran) of \(ConformanceKit.cases.count) cases run): \(why)")
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

    @Test("the kit has at least 140 uniquely named cases in every group, named as identifiers")
    func caseInventory() {
        let cases = ConformanceKit.cases
        #expect(cases.count >= 140)
        #expect(Set(cases.map(\.id)).count == cases.count, "case ids must be unique")
        #expect(ConformanceKit.groups == ["schema", "crud", "transactions", "isolation", "batch", "queries", "relationships", "errors", "persistence", "readOnly", "reentrancy", "migrations", "collections", "orderedRelationships", "embeddedObjects"])
        #expect(cases.filter { $0.group == "migrations" }.count >= 20)
        let identifier = /[a-z][A-Za-z0-9]*/
        for c in cases {
            #expect(c.group.wholeMatch(of: identifier) != nil && c.name.wholeMatch(of: identifier) != nil,
                    "\(c.id): group and name must be lowerCamelCase identifiers")
        }
    }

    @Test("the self-test injects at least 52 faults")
    func faultInventory() {
        #expect(Fault.allCases.count >= 52)
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

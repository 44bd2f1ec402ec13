import Foundation
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// The kit is tested too: a correct backend wrapped without a fault passes every case, and
/// every injected fault is caught, by the case written for it.
@Suite("Conformance kit self-test")
struct KitSelfTests {
    static let sqlite = DescriptorHarness(SQLiteStore.descriptor)
    /// Where the observation faults go: SQLiteStore observes nothing itself.
    static let graph = DescriptorHarness(ObjectGraph.descriptor(over: SQLiteStore.descriptor))

    @Test("the wrapper without a fault passes every case")
    func faithfulWrapperPasses() {
        let report = ConformanceKit.run(FaultyHarness(base: Self.sqlite, fault: nil))
        #expect(report.failed == 0, "\(report.failures.map { "\($0.id): \($0.reason ?? "")" })")
        let observing = ConformanceKit.cases.filter { $0.requires.contains(.observation) }
        #expect(report.cases.filter { $0.status == .skipped }.map(\.id) == observing.map(\.id))
        #expect(report.passed == ConformanceKit.cases.count - observing.count)
    }

    @Test("the wrapper without a fault over the object graph passes the observation group")
    func faithfulObservingWrapperPasses() {
        let observing = ConformanceKit.cases.filter { $0.requires.contains(.observation) }
        let report = ConformanceKit.run(FaultyHarness(base: Self.graph, fault: nil), cases: observing)
        #expect(report.failed == 0, "\(report.failures.map { "\($0.id): \($0.reason ?? "")" })")
        #expect(report.passed == observing.count && !observing.isEmpty)
    }

    /// Runs the case written for the fault (`Fault.catcher`), which must fail; should it pass,
    /// runs the others in kit order until one fails. `STOREBENCH_KIT_ALL_CATCHERS=1` runs every
    /// case and lists every catcher.
    @Test("each injected fault is caught by the case written for it", arguments: Fault.allCases)
    func faultIsCaught(_ fault: Fault) throws {
        let harness = FaultyHarness(base: fault.needsObservation ? Self.graph : Self.sqlite, fault: fault)
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
        let expected = ConformanceKit.cases.filter { !$0.requires.isDisjoint(with: [.persistence, .snapshotReads, .observation]) }
        #expect(skipped.map(\.id) == expected.map(\.id))
        #expect(!skipped.isEmpty)
        #expect(skipped.allSatisfy { $0.reason?.contains("requires capability") == true })
        #expect(report.passed + report.skipped == report.cases.count, "\(report.failures.map { "\($0.id): \($0.reason ?? "")" })")
        #expect(report.passed == ConformanceKit.cases.count - expected.count)
    }

    @Test("the kit has at least 140 uniquely named cases in every group, named as identifiers")
    func caseInventory() {
        let cases = ConformanceKit.cases
        #expect(cases.count >= 140)
        #expect(Set(cases.map(\.id)).count == cases.count, "case ids must be unique")
        #expect(ConformanceKit.groups == ["capabilities", "schema", "crud", "transactions", "isolation", "batch", "queries", "relationships", "errors", "persistence", "readOnly", "reentrancy", "migrations", "collections", "orderedRelationships", "embeddedObjects",
                                          "uniqueness", "verify", "compaction", "observation", "sizes", "model"])
        #expect(cases.filter { $0.group == "migrations" }.count >= 20)
        let identifier = /[a-z][A-Za-z0-9]*/
        for c in cases {
            #expect(c.group.wholeMatch(of: identifier) != nil && c.name.wholeMatch(of: identifier) != nil,
                    "\(c.id): group and name must be lowerCamelCase identifiers")
        }
    }

    @Test("README's kit figures are the kit's: cases, groups, injected faults, the object graph's score")
    func readmeFigures() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let kit = try #require(readme.firstMatch(of: /the kit: (\d+) cases in (\d+) groups/))
        #expect(Int(kit.1) == ConformanceKit.cases.count && Int(kit.2) == ConformanceKit.groups.count, "README: \(kit.0)")
        let faults = try #require(readme.firstMatch(of: /tested against (\d+) injected faults/))
        #expect(Int(faults.1) == Fault.allCases.count, "README: \(faults.0)")
        let graph = try #require(readme.firstMatch(of: /(\d+)\/(\d+) on the kit over SQLite and LMDB/))
        #expect(Int(graph.1) == ConformanceKit.cases.count && Int(graph.2) == ConformanceKit.cases.count, "README: \(graph.0)")
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

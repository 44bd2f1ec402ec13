import SQLiteStore
import StoreConformance
import Testing

/// The per-case tests the plugins generate: one per kit case, named so `--filter group.name`
/// selects it, and a case the kit no longer has fails instead of passing unseen.
@Suite("Generated kit tests")
struct KitTestSourceTests {
    @Test("every case gets a test named after it, in both flavours")
    func oneTestPerCase() {
        #expect(KitTestSource.unnamable(ConformanceKit.cases).isEmpty)
        let xctest = KitTestSource.make(.xctest, cases: ConformanceKit.cases)
        let swiftTesting = KitTestSource.make(.swiftTesting, cases: ConformanceKit.cases)
        for c in ConformanceKit.cases {
            #expect(xctest.contains("func test_\(c.group)_\(c.name)() { expectKitCase(\"\(c.id)\") }"), "\(c.id)")
            #expect(swiftTesting.contains("@Test(\"\(c.id)\") func \(c.name)() { expectKitCase(\"\(c.id)\") }"), "\(c.id)")
        }
        for g in ConformanceKit.groups { #expect(swiftTesting.contains("struct \(g) {")) }
    }

    @Test("names that are not identifiers are reported, not generated")
    func unnamableCases() {
        let bad = [ConformanceCase("queries", "in list") { _ in }, ConformanceCase("2x", "ok") { _ in }]
        #expect(KitTestSource.unnamable(bad) == ["queries.in list", "2x.ok"])
    }

    @Test("an id the kit does not have fails for every harness")
    func unknownCaseFails() {
        let results = ConformanceKit.run("queries.noSuchCase", harnesses: conformanceHarnesses)
        #expect(results.count == conformanceHarnesses.count)
        #expect(results.allSatisfy { $0.result.status == .failed && $0.result.reason?.contains("no case queries.noSuchCase") == true })
        let known = ConformanceKit.run("crud.insertThenFetch", harnesses: conformanceHarnesses)
        #expect(known.map(\.result.status) == [.passed])
    }
}

import SQLiteStore
import StoreConformance
import Testing

extension ConformanceCase: CustomTestStringConvertible {
    public var testDescription: String { id }
}

/// The whole conformance kit against SQLiteStore: one test case per kit case, each named
/// `group.name` in the output; a failure names the case and what differed.
@Suite("SQLiteStore conformance")
struct SQLiteConformanceTests {
    @Test("conformance", arguments: ConformanceKit.cases)
    func conformance(_ c: ConformanceCase) {
        let r = ConformanceKit.run(c, harness: DescriptorHarness(SQLiteStore.descriptor))
        #expect(r.status == .passed, "\(r)")
    }
}

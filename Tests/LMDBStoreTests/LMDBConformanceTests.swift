import LMDBStore
import StoreConformance
import Testing

/// The whole conformance kit against LMDBStore: one test case per kit case.
@Suite("LMDBStore conformance")
struct LMDBConformanceTests {
    @Test("conformance", arguments: ConformanceKit.cases)
    func conformance(_ c: ConformanceCase) {
        let r = ConformanceKit.run(c, harness: DescriptorHarness(LMDBStore.descriptor))
        #expect(r.status == .passed, "\(r)")
    }
}

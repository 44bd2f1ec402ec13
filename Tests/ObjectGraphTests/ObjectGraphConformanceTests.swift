import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreConformance
import Testing

/// The whole conformance kit against the object graph over each store.
@Suite("ObjectGraph conformance")
struct ObjectGraphConformanceTests {
    @Test("over SQLiteStore", arguments: ConformanceKit.cases)
    func overSQLite(_ c: ConformanceCase) {
        let r = ConformanceKit.run(c, harness: DescriptorHarness(ObjectGraph.descriptor(over: SQLiteStore.descriptor)))
        #expect(r.status == .passed, "\(r.id) \(r.status.rawValue): \(r.reason ?? "")")
    }

    @Test("over LMDBStore", arguments: ConformanceKit.cases)
    func overLMDB(_ c: ConformanceCase) {
        let r = ConformanceKit.run(c, harness: DescriptorHarness(ObjectGraph.descriptor(over: LMDBStore.descriptor)))
        #expect(r.status == .passed, "\(r.id) \(r.status.rawValue): \(r.reason ?? "")")
    }
}

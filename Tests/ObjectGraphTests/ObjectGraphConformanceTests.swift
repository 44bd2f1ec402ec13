import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// The whole conformance kit against the object graph over each store: one test case per
/// (store, kit case).
@Suite("ObjectGraph conformance")
struct ObjectGraphConformanceTests {
    static let stores: [String: BackendDescriptor] = ["sqlite": SQLiteStore.descriptor, "lmdb": LMDBStore.descriptor]

    @Test("conformance over each store", arguments: ["sqlite", "lmdb"], ConformanceKit.cases)
    func conformance(_ store: String, _ c: ConformanceCase) {
        let r = ConformanceKit.run(c, harness: DescriptorHarness(ObjectGraph.descriptor(over: Self.stores[store]!)))
        #expect(r.status == .passed, "objectgraph+\(store) \(r)")
    }
}

import Foundation
import GRDBStore
import StoreConformance
import StoreCore
import Testing

// Outside this package the conformance needs `@retroactive`, as the README shows.
extension ConformanceCase: CustomTestStringConvertible {
    public var testDescription: String { id }
}

/// The harness of the README's walkthrough, step 2: how to open a GRDBStore in a directory.
struct GRDBHarness: ConformanceHarness {
    let name = "grdb"
    func open(schema: Schema, directory: URL) throws -> any Repository {
        try GRDBStore(directory: directory, schema: schema, options: StoreOptions(durability: .relaxed))
    }
}

/// The whole conformance kit against GRDBStore, one test case per kit case (walkthrough step 3).
@Suite("GRDBStore conformance")
struct GRDBConformanceTests {
    @Test("conformance", arguments: ConformanceKit.cases)
    func conformance(_ c: ConformanceCase) {
        let r = ConformanceKit.run(c, harness: GRDBHarness())
        #expect(r.status == .passed, "\(r.id): \(r.reason ?? "")")
    }
}

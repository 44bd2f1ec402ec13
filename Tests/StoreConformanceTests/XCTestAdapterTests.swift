import SQLiteStore
import StoreConformance
import XCTest

/// The kit from XCTest: the plain runner returns a report to assert on.
final class XCTestAdapterTests: XCTestCase {
    func testSQLiteStorePassesTheKit() {
        let report = ConformanceKit.run(DescriptorHarness(SQLiteStore.descriptor))
        for f in report.failures { XCTFail("\(f.id): \(f.reason ?? "")") }
        XCTAssertEqual(report.passed, ConformanceKit.cases.count)
    }
}

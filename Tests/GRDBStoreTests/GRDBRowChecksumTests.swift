import GRDB
@testable import GRDBStore
import StoreConformance
import StoreCore
import StoreSQL
import Testing

/// GRDBStore binds each insert's checksum computed in Swift (`SQLRowChecksum`); `verify()`
/// recomputes it with `sb_row_sum` over what GRDB bound. The two must agree for every value.
@Suite("GRDBStore row checksum")
struct GRDBRowChecksumTests {
    @Test("the Swift checksum equals sb_row_sum over the values as GRDBStore binds them, for 2,000 random rows")
    func swiftMatchesSQL() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try GRDBFunctions.register(on: db)
            let executor = GRDBExecutor(db)
            for (row, values) in RandomValues.rows(2_000, seed: 36, width: 14).enumerated() {
                let sql = "SELECT \(SQLSchemaMapping.checksum(values.indices.map { "?\($0 + 1)" }))"
                let expected = try executor.scalarInt(SQLStatement(sql), values)
                #expect(expected == SQLRowChecksum.sum(values), "row \(row): \(values)")
            }
        }
    }
}

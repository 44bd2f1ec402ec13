import Foundation
@testable import SQLiteStore
import StoreConformance
import StoreCore
import StoreSQL
import Testing

/// The fixed inserts bind a checksum computed in Swift (`SQLRowChecksum`); `verify()` recomputes
/// it in SQL with `sb_row_sum`. The two must agree for every value a store can bind.
@Suite("SQL row checksum")
struct SQLRowChecksumTests {
    @Test("the Swift checksum equals sb_row_sum over the same bound values, for 2,000 random rows")
    func swiftMatchesSQL() throws {
        let connection = try SQLiteConnection(path: ":memory:", create: true)
        for (row, values) in RandomValues.rows(2_000, seed: 35, width: 12).enumerated() {
            let sql = "SELECT \(SQLSchemaMapping.checksum(values.indices.map { "?\($0 + 1)" }))"
            let expected = try connection.scalarInt(SQLStatement(sql), values)
            #expect(expected == SQLRowChecksum.sum(values), "row \(row): \(values)")
        }
    }

    @Test("a row of 150 values (sb_row_sum chained in runs of 100) has the same checksum")
    func longRowsMatch() throws {
        let connection = try SQLiteConnection(path: ":memory:", create: true)
        var g = SplitMix64(seed: 150)
        let values = (0..<150).map { _ in RandomValues.any(&g) }
        let sql = "SELECT \(SQLSchemaMapping.checksum(values.indices.map { "?\($0 + 1)" }))"
        #expect(try connection.scalarInt(SQLStatement(sql), values) == SQLRowChecksum.sum(values))
    }
}

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
    private static func value(_ g: inout SplitMix64) -> Value {
        func text(_ g: inout SplitMix64) -> String {
            String((0..<g.below(40)).map { _ in g.pick(Array("aZ0 'é日🎉\u{0}\t")) })
        }
        switch g.below(10) {
        case 0: return .null
        case 1: return .int64(Int64(bitPattern: g.next()) >> UInt64(g.below(64)))
        case 2: return .double(g.pick([0.0, -0.0, .infinity, -.infinity, .nan, 1e-300, -2.5, Double(bitPattern: g.next())]))
        case 3: return .bool(g.chance(0.5))
        case 4: return .string(text(&g))
        case 5: return .date(Date(timeIntervalSince1970: Double(Int64(bitPattern: g.next()) >> 30) / 7))
        case 6: return .uuid(UUID())
        case 7: return .bytes((0..<g.below(40)).map { _ in UInt8(truncatingIfNeeded: g.next()) })
        case 8: return .list([.string(text(&g)), .int64(Int64(g.below(99)))])
        default: return .map(["k": .double(-0.0), text(&g): .bool(true)])
        }
    }

    @Test("the Swift checksum equals sb_row_sum over the same bound values, for 2,000 random rows")
    func swiftMatchesSQL() throws {
        let connection = try SQLiteConnection(path: ":memory:", create: true)
        var g = SplitMix64(seed: 35)
        for row in 0..<2_000 {
            let values = (0..<(1 + g.below(12))).map { _ in Self.value(&g) }
            let sql = "SELECT \(SQLSchemaMapping.checksum(values.indices.map { "?\($0 + 1)" }))"
            let expected = try connection.scalarInt(SQLStatement(sql), values)
            #expect(expected == SQLRowChecksum.sum(values), "row \(row): \(values)")
        }
    }

    @Test("a row of 150 values (sb_row_sum chained in runs of 100) has the same checksum")
    func longRowsMatch() throws {
        let connection = try SQLiteConnection(path: ":memory:", create: true)
        var g = SplitMix64(seed: 150)
        let values = (0..<150).map { _ in Self.value(&g) }
        let sql = "SELECT \(SQLSchemaMapping.checksum(values.indices.map { "?\($0 + 1)" }))"
        #expect(try connection.scalarInt(SQLStatement(sql), values) == SQLRowChecksum.sum(values))
    }
}

import Foundation
import GRDB
@testable import GRDBStore
import StoreCore
import Testing

@Suite("GRDBStore arguments")
struct GRDBArgumentsTests {
    /// Every length has its own array literal up to 12, then the generic array: each must bind
    /// every value, in order, in the stored form.
    @Test("statement arguments of every length bind every value in order", arguments: 0...15)
    func everyLength(_ n: Int) throws {
        let kinds: [(Value, AttributeType)] = [
            (.int64(-7), .int64), (.string("Zürich ✓"), .string), (.double(2.5), .double), (.null, .string),
            (.bool(true), .bool), (.date(Date(timeIntervalSince1970: 1_700_000_000.25)), .date),
            (.uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))), .uuid),
            (.bytes([0, 255, 3]), .bytes), (.bool(false), .bool),
        ]
        let values = (0..<n).map { kinds[$0 % kinds.count] }
        let queue = try DatabaseQueue()
        try queue.read { db in
            let sql = n == 0 ? "SELECT 0" : "SELECT " + Array(repeating: "?", count: n).joined(separator: ", ")
            let statement = try db.makeStatement(sql: sql)
            statement.setUncheckedArguments(GRDBExecutor.arguments(values.map(\.0)))
            let row = try #require(try Row.fetchOne(statement))
            for (i, (value, type)) in values.enumerated() {
                #expect(Value(row[i] as DatabaseValue, as: type) == value, "argument \(i + 1) of \(n)")
            }
        }
    }
}

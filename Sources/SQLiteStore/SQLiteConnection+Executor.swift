import StoreCore
import StoreSQL

/// The sqlite3 C API as a StoreSQL driver: `SQLTransaction` runs StoreCore's semantics
/// through these calls.
extension SQLiteConnection: SQLExecutor {
    @discardableResult
    func execute(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int {
        try statement(sql).execute(arguments)
    }

    func run(_ sql: SQLStatement, _ values: [Value], checksum: Int64) throws {
        try statement(sql).execute(values, then: .int64(checksum))
    }

    func scalarInt(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int64? {
        try statement(sql).scalarInt(arguments)
    }

    func column(_ sql: SQLStatement, _ type: AttributeType, _ arguments: [Value]) throws -> [Value] {
        try statement(sql).column(type, arguments)
    }

    /// One reused `SQLiteRow` over the statement's current row.
    func rows(_ sql: SQLStatement, _ arguments: [Value], of entity: Entity, _ body: (any RowView) throws -> Void) throws {
        let s = try statement(sql)
        try s.run(arguments) {
            let row: any RowView = SQLiteRow(entity: entity, statement: s.handle)
            while try s.step() { try body(row) }
        }
    }

    /// Packs each row through the concrete `SQLiteRow` (one C call per column, no dispatch).
    func packedRows(_ sql: SQLStatement, _ arguments: [Value], of entity: Entity, _ body: (PackedRow) throws -> Void) throws {
        let s = try statement(sql)
        let builder = PackedRowBuilder(entity)
        try s.run(arguments) {
            let row = SQLiteRow(entity: entity, statement: s.handle)
            while try s.step() { try body(builder.pack(row)) }
        }
    }
}

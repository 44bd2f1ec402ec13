import GRDB
import GRDBSQLite
import StoreCore
import StoreSQL

/// GRDB's `Database` as a StoreSQL driver: statements from GRDB's statement cache,
/// arguments as array literals, rows through a `RowCursor` read by attribute type.
/// Lives for one transaction.
final class GRDBExecutor: SQLExecutor {
    let db: Database
    /// The last fixed statement this transaction used, by slot: a statement run again in the
    /// same transaction (every record of a batch, every read of a batched read) skips GRDB's
    /// cache look-up, which hashes the SQL text, as a GRDB application keeps a statement
    /// across a loop. One entry, so a transaction allocates nothing for it.
    private var last: (slot: Int, statement: Statement)?

    init(_ db: Database) { self.db = db }

    /// GRDB's cached statement for `sql`. SQL that SQLite refuses to compile came from a query
    /// it cannot run (too many terms or variables): `invalidQuery`, the data untouched.
    @inline(__always)
    private func statement(_ sql: SQLStatement) throws -> Statement {
        if let slot = sql.slot, let last, last.slot == slot, !Self.isStepping(last.statement) { return last.statement }
        do {
            let s = try db.cachedStatement(sql: sql.text)
            // Still stepping through rows: the query runs again inside its own iteration, and
            // resetting the shared statement would restart the outer one. Use a fresh one.
            if Self.isStepping(s) { return try db.makeStatement(sql: sql.text) }
            if let slot = sql.slot { last = (slot, s) }
            return s
        } catch let e as DatabaseError {
            throw GRDBErrors.storeError(e, preparing: true)
        }
    }

    /// Whether `s` has been stepped and neither finished nor reset (`sqlite3_stmt_busy`).
    @inline(__always)
    private static func isStepping(_ s: Statement) -> Bool {
        sqlite3_stmt_busy(s.sqliteStatement) != 0
    }

    /// Runs `body` on the statement for `sql` with `values` (and `extra` after them) bound. The compiled SQL always has
    /// exactly one value per placeholder, so GRDB's argument check is skipped
    /// (`setUncheckedArguments`, as GRDB's own performance suite binds). A statement that failed
    /// cannot be reset (GRDB drops it from its cache), so a throw also drops it from `last`.
    @inline(__always)
    private func bound<T>(_ sql: SQLStatement, _ values: [Value], then extra: Value? = nil,
                          _ body: (Statement) throws -> T) throws -> T {
        let s = try statement(sql)
        s.setUncheckedArguments(Self.arguments(values, then: extra))
        GRDBText.rebindStringsWithNUL(values, on: s.sqliteStatement)
        do {
            return try GRDBErrors.mapped { try body(s) }
        } catch {
            last = nil
            throw error
        }
    }

    /// `values` as GRDB statement arguments, built as plain GRDB code builds them: array
    /// literals of Swift values, which GRDB turns into arguments in its own specialized code
    /// (about 500 instructions a value). Not `StatementArguments(values.map(…))` nor any other
    /// initializer taking a sequence: those are generic code that runs unspecialized when called
    /// from outside GRDB (about 1.2k instructions a value), and the one for
    /// `some DatabaseValueConvertible` elements also builds a key path at run time on every call
    /// (about 11k more). A literal has a fixed length, so there is one per length up to 12
    /// (every fixed statement of the benchmark's schema); longer lists (wide records, queries
    /// with many terms) use the documented array of `(any DatabaseValueConvertible)?`.
    /// `extra`, when given, is one more argument after `values` (a row's checksum).
    static func arguments(_ values: [Value], then extra: Value? = nil) -> StatementArguments {
        func v(_ i: Int) -> (any DatabaseValueConvertible)? { i < values.count ? values[i].databaseConvertible : extra?.databaseConvertible }
        let count = values.count + (extra == nil ? 0 : 1)
        switch count {
        case 0: return StatementArguments()
        case 1: return [v(0)]
        case 2: return [v(0), v(1)]
        case 3: return [v(0), v(1), v(2)]
        case 4: return [v(0), v(1), v(2), v(3)]
        case 5: return [v(0), v(1), v(2), v(3), v(4)]
        case 6: return [v(0), v(1), v(2), v(3), v(4), v(5)]
        case 7: return [v(0), v(1), v(2), v(3), v(4), v(5), v(6)]
        case 8: return [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7)]
        case 9: return [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8)]
        case 10: return [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8), v(9)]
        case 11: return [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8), v(9), v(10)]
        case 12: return [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8), v(9), v(10), v(11)]
        default:
            var boxed: [(any DatabaseValueConvertible)?] = []
            boxed.reserveCapacity(count)
            for i in 0..<count { boxed.append(v(i)) }
            return StatementArguments(boxed)
        }
    }

    @discardableResult
    func execute(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int {
        try run(sql, arguments)
        return db.changesCount
    }

    /// As `execute`, without asking GRDB for the change count (a queue check and a C call).
    func run(_ sql: SQLStatement, _ arguments: [Value]) throws {
        try bound(sql, arguments) { try $0.execute() }
    }

    func run(_ sql: SQLStatement, _ values: [Value], checksum: Int64) throws {
        try bound(sql, values, then: .int64(checksum)) { try $0.execute() }
    }

    func scalarInt(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int64? {
        try bound(sql, arguments) { try Int64.fetchOne($0) }
    }

    func column(_ sql: SQLStatement, _ type: AttributeType, _ arguments: [Value]) throws -> [Value] {
        try bound(sql, arguments) { s in
            var out: [Value] = []
            let cursor = try DatabaseValue.fetchCursor(s)
            while let v = try cursor.next() {
                if case .string(let t) = v.storage, type == .string {
                    out.append(.string(GRDBText.whole(t, s.sqliteStatement, column: 0)))
                } else {
                    out.append(Value(v, as: type))
                }
            }
            return out
        }
    }

    func rows(_ sql: SQLStatement, _ arguments: [Value], of entity: Entity, _ body: (any RowView) throws -> Void) throws {
        try bound(sql, arguments) { s in
            let cursor = try Row.fetchCursor(s)
            guard let first = try cursor.next() else { return }
            var view: any RowView = GRDBRow(entity: entity, row: first, statement: s.sqliteStatement)
            try body(view)
            while let row = try cursor.next() {
                // The cursor reuses its Row; should it ever hand out another, view that one.
                if row !== first { view = GRDBRow(entity: entity, row: row, statement: s.sqliteStatement) }
                try body(view)
            }
        }
    }

    /// Packs each row through the concrete `GRDBRow` (GRDB's typed column access, no dispatch
    /// per field), as SQLiteStore packs through its own row.
    func packedRows(_ sql: SQLStatement, _ arguments: [Value], of entity: Entity, _ body: (PackedRow) throws -> Void) throws {
        let builder = PackedRowBuilder(entity)
        try bound(sql, arguments) { s in
            let cursor = try Row.fetchCursor(s)
            while let row = try cursor.next() {
                try body(builder.pack(GRDBRow(entity: entity, row: row, statement: s.sqliteStatement)))
            }
        }
    }

    func atomically<T>(_ body: () throws -> T) throws -> T {
        var result: T?
        try db.inSavepoint {
            result = try body()
            return .commit
        }
        return result!
    }
}

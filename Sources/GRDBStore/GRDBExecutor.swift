import GRDB
import StoreCore
import StoreSQL

/// GRDB's `Database` as a StoreSQL driver: statements from GRDB's statement cache,
/// arguments as `DatabaseValue`s, rows through a `RowCursor` read by attribute type.
/// Lives for one transaction.
final class GRDBExecutor: SQLExecutor {
    let db: Database

    init(_ db: Database) { self.db = db }

    /// GRDB's cached statement for `sql`. SQL that SQLite refuses to compile came from a query
    /// it cannot run (too many terms or variables): `invalidQuery`, the data untouched.
    @inline(__always)
    private func statement(_ sql: SQLStatement) throws -> Statement {
        do {
            return try db.cachedStatement(sql: sql.text)
        } catch let e as DatabaseError {
            throw GRDBErrors.storeError(e, preparing: true)
        }
    }

    /// The statement for `sql` with `values` bound. The compiled SQL always has exactly one
    /// value per placeholder, so GRDB's argument check is skipped (`setUncheckedArguments`, as
    /// GRDB's own performance suite binds).
    @inline(__always)
    private func statement(_ sql: SQLStatement, _ values: [Value]) throws -> Statement {
        let s = try statement(sql)
        s.setUncheckedArguments(Self.arguments(values))
        return s
    }

    /// `values` as GRDB statement arguments. Not through `StatementArguments(values.map(…))`:
    /// GRDB's initializer for a sequence of `some DatabaseValueConvertible` is generic code
    /// that, called from outside GRDB, maps through a key path built at run time on every call
    /// (about 12k instructions). One value (reads, existence checks and deletes by key) is an
    /// array literal, which GRDB turns into arguments in its own specialized code; several are
    /// the documented array of `(any DatabaseValueConvertible)?`.
    @inline(__always)
    static func arguments(_ values: [Value]) -> StatementArguments {
        switch values.count {
        case 0: return StatementArguments()
        case 1: return [values[0].databaseValue]
        default:
            var boxed: [(any DatabaseValueConvertible)?] = []
            boxed.reserveCapacity(values.count)
            for v in values { boxed.append(v.databaseValue) }
            return StatementArguments(boxed)
        }
    }

    @discardableResult
    func execute(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int {
        let s = try statement(sql, arguments)
        try GRDBErrors.mapped { try s.execute() }
        return db.changesCount
    }

    func scalarInt(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int64? {
        let s = try statement(sql, arguments)
        return try GRDBErrors.mapped { try Int64.fetchOne(s) }
    }

    func column(_ sql: SQLStatement, _ type: AttributeType, _ arguments: [Value]) throws -> [Value] {
        let s = try statement(sql, arguments)
        return try GRDBErrors.mapped {
            var out: [Value] = []
            let cursor = try DatabaseValue.fetchCursor(s)
            while let v = try cursor.next() { out.append(Value(v, as: type)) }
            return out
        }
    }

    func rows(_ sql: SQLStatement, _ arguments: [Value], of entity: Entity, _ body: (any RowView) throws -> Void) throws {
        let s = try statement(sql, arguments)
        try GRDBErrors.mapped {
            let cursor = try Row.fetchCursor(s)
            let view = GRDBRow(entity: entity)
            while let row = try cursor.next() {
                view.row = row
                try body(view)
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

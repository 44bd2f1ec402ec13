import GRDB
import StoreCore
import StoreSQL

/// GRDB's `Database` as a StoreSQL driver: statements from GRDB's statement cache,
/// arguments as array literals, rows through a `RowCursor` read by attribute type.
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

    /// `values` as GRDB statement arguments, built as plain GRDB code builds them: array
    /// literals of Swift values, which GRDB turns into arguments in its own specialized code
    /// (about 500 instructions a value). Not `StatementArguments(values.map(…))` nor any other
    /// initializer taking a sequence: those are generic code that runs unspecialized when called
    /// from outside GRDB (about 1.2k instructions a value), and the one for
    /// `some DatabaseValueConvertible` elements also builds a key path at run time on every call
    /// (about 11k more). A literal has a fixed length, so there is one per length up to 12
    /// (every fixed statement of the benchmark's schema); longer lists (wide records, queries
    /// with many terms) use the documented array of `(any DatabaseValueConvertible)?`.
    static func arguments(_ values: [Value]) -> StatementArguments {
        func v(_ i: Int) -> (any DatabaseValueConvertible)? { values[i].databaseConvertible }
        switch values.count {
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
            boxed.reserveCapacity(values.count)
            for value in values { boxed.append(value.databaseConvertible) }
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

import CRowChecksum
import GRDB
import GRDBSQLite
import StoreCore
import StoreSQL

/// GRDB's `DatabaseError` as `StoreError`: the category from SQLite's extended result code,
/// with the native code, message and SQL kept. Internal helpers.
enum GRDBErrors {
    static func storeError(_ e: DatabaseError, preparing: Bool = false) -> StoreError {
        let code = e.extendedResultCode.rawValue
        return SQLResultCode.error(code, native: e.message ?? "SQLite error \(code)", sql: e.sql, preparing: preparing)
    }

    /// Runs `body`, turning a `DatabaseError` into a `StoreError`; other errors pass through.
    @inline(__always)
    static func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as DatabaseError {
            throw storeError(e)
        }
    }
}

/// Registers StoreSQL's functions (`SQLFunctions`) on a GRDB connection. Internal.
enum GRDBFunctions {
    static let fold = DatabaseFunction(SQLFunctions.fold, argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        return SQLFunctions.fold(text, options: Int64.fromDatabaseValue(values[1]) ?? 0)
    }

    static let like = DatabaseFunction(SQLFunctions.like, argumentCount: 3, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]) else { return nil }
        return SQLFunctions.like(text, foldedPattern: pattern, options: Int64.fromDatabaseValue(values[2]) ?? 0)
    }

    static func register(on db: Database) throws {
        db.add(function: fold)
        db.add(function: like)
        // Runs once per row written: registered as C, without GRDB's per-argument wrapping.
        let rc = sb_register_row_checksum(db.sqliteConnection)
        guard rc == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "cannot register \(SQLFunctions.rowChecksum)") }
    }
}

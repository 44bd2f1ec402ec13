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
///
/// As C functions (CRowChecksum's, shared with SQLiteStore) on GRDB's connection rather than
/// GRDB `DatabaseFunction`s: GRDB reads text arguments as C strings, so a string holding a NUL
/// reached `[c]`, `[d]` and `LIKE` cut there; and the checksum (run by `verify()` and by
/// migrations that copy rows in SQL) needs no GRDB per-argument wrapping.
enum GRDBFunctions {
    static func register(on db: Database) throws {
        var rc = sb_register_text_functions(db.sqliteConnection, SQLFunctions.fold, SQLFunctions.like,
                                            SQLFunctions.foldBytes, SQLFunctions.likeBytes)
        guard rc == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "cannot register \(SQLFunctions.fold)") }
        rc = sb_register_row_checksum(db.sqliteConnection)
        guard rc == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "cannot register \(SQLFunctions.rowChecksum)") }
    }
}

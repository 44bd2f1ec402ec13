import CRowChecksum
import CSQLite
import StoreCore
import StoreSQL

/// Registers StoreSQL's functions (`SQLFunctions`) on a connection as C functions (CRowChecksum's,
/// shared with every driver).
enum SQLiteFunctions {
    static func register(on db: OpaquePointer) throws {
        var rc = sb_register_text_functions(db, SQLFunctions.fold, SQLFunctions.like, SQLFunctions.foldBytes, SQLFunctions.likeBytes)
        guard rc == SQLITE_OK else { throw SQLiteError.make(rc, db: db, sql: SQLFunctions.fold) }
        rc = sb_register_row_checksum(db)
        guard rc == SQLITE_OK else { throw SQLiteError.make(rc, db: db, sql: SQLFunctions.rowChecksum) }
        rc = sb_refuse_double_quoted_strings(db)
        guard rc == SQLITE_OK else { throw SQLiteError.make(rc, db: db, sql: "sqlite3_db_config(SQLITE_DBCONFIG_DQS_DML/DDL, 0)") }
    }
}

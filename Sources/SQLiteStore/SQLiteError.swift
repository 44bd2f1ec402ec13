import CSQLite
import StoreCore
import StoreSQL

/// Maps SQLite result codes (extended codes included) to StoreError categories. Internal.
enum SQLiteError {
    static func make(_ code: Int32, db: OpaquePointer?, sql: String?, message: String? = nil, preparing: Bool = false) -> StoreError {
        let native = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        return SQLResultCode.error(code, native: native, sql: sql, message: message, preparing: preparing)
    }
}

/// `SQLITE_TRANSIENT`, which the C macro defines and Swift cannot import.
let SQLITE_TRANSIENT_DESTRUCTOR = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

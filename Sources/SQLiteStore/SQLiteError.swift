import CSQLite
import StoreCore

/// Maps SQLite result codes (extended codes included) to StoreError categories. Internal.
enum SQLiteError {
    static func make(_ code: Int32, db: OpaquePointer?, sql: String?, message: String? = nil) -> StoreError {
        let native = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        let category = self.category(for: code)
        let text = message ?? describe(category, native: native)
        return StoreError(category, text, nativeCode: code, nativeMessage: native, context: sql)
    }

    static func category(for code: Int32) -> StoreError.Category {
        switch code {
        case 1555 /* CONSTRAINT_PRIMARYKEY */, 2067 /* CONSTRAINT_UNIQUE */: return .conflict
        default: break
        }
        switch code & 0xFF {
        case SQLITE_CONSTRAINT: return .constraintViolation
        case SQLITE_FULL: return .storageFull
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupted
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_TOOBIG, SQLITE_MISMATCH: return .invalidValue
        case SQLITE_INTERRUPT: return .closed
        default: return .io
        }
    }

    private static func describe(_ c: StoreError.Category, native: String) -> String {
        switch c {
        case .conflict: "a record with that key or unique value exists (\(native))"
        case .corrupted: "the file is not a valid SQLite store (\(native))"
        case .storageFull: "the disk is full (\(native))"
        case .busy: "the store is locked (\(native))"
        default: "SQLite: \(native)"
        }
    }
}

/// `SQLITE_TRANSIENT`, which the C macro defines and Swift cannot import.
let SQLITE_TRANSIENT_DESTRUCTOR = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

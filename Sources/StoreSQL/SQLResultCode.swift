import StoreCore

/// SQLite result codes as `StoreError`s, for drivers: the category, a message naming SQLite's
/// own, the native code and the SQL. Extended codes are accepted; the primary code is their
/// low byte.
///
/// ```swift
/// catch let e as DriverError { throw SQLResultCode.error(e.code, native: e.message, sql: e.sql) }
/// ```
public enum SQLResultCode {
    /// The `StoreError` for a result code. With `preparing`, a plain `SQLITE_ERROR` is
    /// `invalidQuery`: SQL that SQLite refuses to compile came from a query it cannot run (too
    /// many terms or variables), and the data is untouched.
    public static func error(_ code: Int32, native: String, sql: String?, message: String? = nil,
                             preparing: Bool = false) -> StoreError {
        var category = category(for: code)
        if preparing && code & 0xFF == 1 /* SQLITE_ERROR */ { category = .invalidQuery }
        return StoreError(category, message ?? describe(category, native: native),
                          nativeCode: code, nativeMessage: native, context: sql)
    }

    public static func category(for code: Int32) -> StoreError.Category {
        switch code {
        case 1555 /* CONSTRAINT_PRIMARYKEY */, 2067 /* CONSTRAINT_UNIQUE */: return .conflict
        default: break
        }
        switch code & 0xFF {
        case 19 /* CONSTRAINT */: return .constraintViolation
        case 13 /* FULL */: return .storageFull
        case 11 /* CORRUPT */, 26 /* NOTADB */: return .corrupted
        case 5 /* BUSY */, 6 /* LOCKED */: return .busy
        case 18 /* TOOBIG */, 20 /* MISMATCH */: return .invalidValue
        case 9 /* INTERRUPT */: return .closed
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

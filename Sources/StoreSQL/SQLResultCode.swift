import StoreCore

/// SQLite result codes as `StoreError`s, for drivers: the category, a message naming SQLite's
/// own and the code (`SQLiteResultCode`), the native code and the SQL. Extended codes are
/// accepted; the primary code is their low byte.
///
/// ```swift
/// catch let e as DriverError { throw SQLResultCode.error(e.code, native: e.message, sql: e.sql) }
/// ```
public enum SQLResultCode {
    /// The `StoreError` for a result code. With `preparing`, a plain `SQLITE_ERROR` is
    /// `invalidQuery`: SQL that SQLite refuses to compile came from a query it cannot run (too
    /// many terms or variables), and the data is untouched. An `SQLITE_ERROR` saying "unsupported
    /// file format" (a damaged header or schema format number) is `corrupted`. The message ends
    /// with the code's name and number, e.g. `(SQLITE_CONSTRAINT_UNIQUE, 2067)`.
    public static func error(_ code: Int32, native: String, sql: String?, message: String? = nil,
                             preparing: Bool = false) -> StoreError {
        var category = category(for: code)
        if SQLiteResultCode.primary(of: code) == .error {
            if native.hasPrefix("unsupported file format") { category = .corrupted } else if preparing { category = .invalidQuery }
        }
        let text = message ?? describe(category, native: native)
        return StoreError(category, "\(text) (\(SQLiteResultCode.name(of: code)), \(code))",
                          nativeCode: code, nativeMessage: native, context: sql)
    }

    public static func category(for code: Int32) -> StoreError.Category {
        switch SQLiteResultCode(rawValue: code) {
        case .constraintPrimaryKey?, .constraintUnique?: return .conflict
        default: break
        }
        switch SQLiteResultCode.primary(of: code) {
        case .constraint?: return .constraintViolation
        case .full?: return .storageFull
        case .corrupt?, .notADatabase?: return .corrupted
        case .busy?, .locked?: return .busy
        case .tooBig?, .mismatch?: return .invalidValue
        case .interrupt?: return .closed
        case .readOnly?: return .readOnly
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

import StoreCore

/// The SQL functions the compiled SQL calls, giving SQLite the semantics StoreCore defines
/// and SQLite lacks. A driver registers both on every connection, deterministic, calling
/// these implementations:
///
/// - `sb_fold(text, options)`: `TextFolding.fold`, for `[c]`/`[d]` comparisons and sorts;
/// - `sb_like(text, foldedPattern, options)`: NSPredicate `LIKE` (`*` and `?` wildcards).
///
/// Both return NULL for NULL text.
public enum SQLFunctions {
    /// The name of the folding function (2 arguments).
    public static let fold = "sb_fold"
    /// The name of the `LIKE` function (3 arguments).
    public static let like = "sb_like"

    /// `sb_fold`'s result for non-NULL text.
    @inline(__always)
    public static func fold(_ text: String, options: Int64) -> String {
        TextFolding.fold(text, StringOptions(rawValue: UInt8(truncatingIfNeeded: options)))
    }

    /// `sb_like`'s result for non-NULL text and pattern.
    @inline(__always)
    public static func like(_ text: String, foldedPattern: String, options: Int64) -> Bool {
        TextFolding.like(text, foldedPattern: foldedPattern, StringOptions(rawValue: UInt8(truncatingIfNeeded: options)))
    }
}

/// SQLite result codes mapped to `StoreError` categories, for drivers. Extended codes are
/// accepted; the primary code is their low byte.
public enum SQLResultCode {
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

    /// A message for a category, naming SQLite's own message.
    public static func describe(_ c: StoreError.Category, native: String) -> String {
        switch c {
        case .conflict: "a record with that key or unique value exists (\(native))"
        case .corrupted: "the file is not a valid SQLite store (\(native))"
        case .storageFull: "the disk is full (\(native))"
        case .busy: "the store is locked (\(native))"
        default: "SQLite: \(native)"
        }
    }
}

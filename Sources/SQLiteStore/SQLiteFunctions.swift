import CSQLite
import StoreCore

/// Custom SQL functions giving SQLite the semantics StoreCore defines and SQLite lacks:
///
/// - `sb_fold(text, options)`: `TextFolding.fold`, for `[c]`/`[d]` comparisons and sorts;
/// - `sb_like(text, foldedPattern, options)`: NSPredicate `LIKE` (`*` and `?` wildcards).
///
/// Both are deterministic and return NULL for NULL text.
enum SQLiteFunctions {
    static func register(on db: OpaquePointer) throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        var rc = sqlite3_create_function_v2(db, "sb_fold", 2, flags, nil, foldFunction, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError.make(rc, db: db, sql: "sb_fold") }
        rc = sqlite3_create_function_v2(db, "sb_like", 3, flags, nil, likeFunction, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError.make(rc, db: db, sql: "sb_like") }
    }
}

// MARK: - Internal helpers (C callbacks)

private func text(_ v: OpaquePointer?) -> String? {
    guard let v, sqlite3_value_type(v) != SQLITE_NULL, let p = sqlite3_value_text(v) else { return nil }
    return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_value_bytes(v))), as: UTF8.self)
}

private func options(_ v: OpaquePointer?) -> StringOptions {
    StringOptions(rawValue: UInt8(truncatingIfNeeded: sqlite3_value_int(v)))
}

private let foldFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, args in
    guard let args, let s = text(args[0]) else { sqlite3_result_null(ctx); return }
    let folded = TextFolding.fold(s, options(args[1]))
    sqlite3_result_text(ctx, folded, Int32(folded.utf8.count), SQLITE_TRANSIENT_DESTRUCTOR)
}

private let likeFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, args in
    guard let args, let s = text(args[0]), let p = text(args[1]) else { sqlite3_result_null(ctx); return }
    sqlite3_result_int(ctx, TextFolding.like(s, foldedPattern: p, options(args[2])) ? 1 : 0)
}

import CRowChecksum
import CSQLite
import StoreCore
import StoreSQL

/// Registers StoreSQL's functions (`SQLFunctions`) on a connection as C callbacks.
enum SQLiteFunctions {
    static func register(on db: OpaquePointer) throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        var rc = sqlite3_create_function_v2(db, SQLFunctions.fold, 2, flags, nil, foldFunction, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError.make(rc, db: db, sql: SQLFunctions.fold) }
        rc = sqlite3_create_function_v2(db, SQLFunctions.like, 3, flags, nil, likeFunction, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError.make(rc, db: db, sql: SQLFunctions.like) }
        rc = sb_register_row_checksum(db)
        guard rc == SQLITE_OK else { throw SQLiteError.make(rc, db: db, sql: SQLFunctions.rowChecksum) }
    }
}

// MARK: - Internal helpers (C callbacks)

private func text(_ v: OpaquePointer?) -> String? {
    guard let v, sqlite3_value_type(v) != SQLITE_NULL, let p = sqlite3_value_text(v) else { return nil }
    return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_value_bytes(v))), as: UTF8.self)
}


private let foldFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, args in
    guard let args, let s = text(args[0]) else { sqlite3_result_null(ctx); return }
    let folded = SQLFunctions.fold(s, options: sqlite3_value_int64(args[1]))
    sqlite3_result_text(ctx, folded, Int32(folded.utf8.count), SQLITE_TRANSIENT_DESTRUCTOR)
}

private let likeFunction: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, args in
    guard let args, let s = text(args[0]), let p = text(args[1]) else { sqlite3_result_null(ctx); return }
    sqlite3_result_int(ctx, SQLFunctions.like(s, foldedPattern: p, options: sqlite3_value_int64(args[2])) ? 1 : 0)
}

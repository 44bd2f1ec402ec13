import CSQLite
import StoreCore
import StoreSQL

/// One sqlite3 connection; owns the `sqlite3*` and closes it in one place (`close()`, also
/// called by `deinit`). Caches prepared statements: the schema's fixed statements by slot,
/// the others by SQL text. Used by one thread at a time: `SQLiteStore` hands a connection
/// to exactly one transaction.
final class SQLiteConnection {
    private(set) var handle: OpaquePointer?
    /// The data version at this connection's last migration check (`SQLiteStore` reads).
    var checkedDataVersion: UInt32?
    let path: String
    private var statements: [String: SQLiteStatement] = [:]
    // Read on every statement run, never while another access to it is open: the runtime's
    // check for overlapping accesses is off.
    @exclusivity(unchecked) private var slots: [SQLiteStatement?] = []

    /// How a connection opens its file.
    enum Access {
        /// Read and write, creating the file when missing.
        case create
        /// Read and write an existing file.
        case readWrite
        /// Read an existing file; SQLite still maps the WAL index (`-shm`), creating it if it can.
        case readOnly
        /// Read a file SQLite may take as unchanging (read-only media with no WAL): no lock,
        /// no `-shm`, no WAL is read.
        case immutable
    }

    /// Opens (or creates) the database file. A half-opened handle is closed before throwing.
    convenience init(path: String, create: Bool) throws {
        try self.init(path: path, access: create ? .create : .readWrite)
    }

    /// Opens the database file as `access` says. A half-opened handle is closed before throwing.
    init(path: String, access: Access) throws {
        self.path = path
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(Self.name(path, access), &db, Self.flags(access), nil)
        guard rc == SQLITE_OK, let db else {
            let err = SQLiteError.make(rc, db: db, sql: nil, message: "cannot open \(path): \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory")")
            sqlite3_close_v2(db)
            throw err
        }
        handle = db
        do {
            sqlite3_extended_result_codes(db, 1)
            sqlite3_busy_timeout(db, 5_000)
            try SQLiteFunctions.register(on: db)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private static func flags(_ access: Access) -> Int32 {
        let base = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch access {
        case .create: return base | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: return base | SQLITE_OPEN_READWRITE
        case .readOnly: return base | SQLITE_OPEN_READONLY
        case .immutable: return base | SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        }
    }

    /// The path, or for `immutable` its `file:` URI.
    private static func name(_ path: String, _ access: Access) -> String {
        guard case .immutable = access else { return path }
        return SQLStoreFile.immutableURI(path)
    }

    /// Finalizes cached statements, then closes the handle. Idempotent.
    func close() {
        statements.removeAll()
        slots.removeAll()
        if let h = handle {
            sqlite3_close_v2(h)
            handle = nil
        }
    }

    private func requireOpen() throws -> OpaquePointer {
        guard let h = handle else { throw StoreError(.closed, "the SQLite connection is closed") }
        return h
    }

    /// Runs one or more SQL statements without results.
    /// The main file's data version (`SQLITE_FCNTL_DATA_VERSION`): it changes when any connection,
    /// in any process, commits a change; read without a statement.
    var dataVersion: UInt32 {
        var version: UInt32 = 0
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        return version
    }

    func exec(_ sql: String) throws {
        let h = try requireOpen()
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(h, sql, nil, nil, &err)
        if let err { sqlite3_free(err) }
        guard rc == SQLITE_OK else { throw SQLiteError.make(sqlite3_extended_errcode(h), db: h, sql: sql) }
    }

    /// The cached prepared statement for `sql`, preparing it on first use.
    @inline(__always)
    func statement(_ sql: String) throws -> SQLiteStatement {
        if let s = statements[sql] { return try unlessBusy(s) }
        _ = try requireOpen()
        let s = try SQLiteStatement(connection: self, sql: sql)
        statements[sql] = s
        return s
    }

    /// The cached prepared statement for `sql`: by slot for a schema's fixed statements.
    @inline(__always)
    func statement(_ sql: SQLStatement) throws -> SQLiteStatement {
        guard let slot = sql.slot else { return try statement(sql.text) }
        if slot < slots.count, let s = slots[slot] { return try unlessBusy(s) }
        let s = try statement(sql.text)
        if slot >= slots.count { slots += Array(repeating: nil, count: slot + 1 - slots.count) }
        slots[slot] = s
        return s
    }

    /// `s`, or, while `s` is still stepping through rows (a query run again inside its own
    /// iteration), a fresh statement for the same SQL that is finalized after use: resetting
    /// `s` would restart the outer iteration.
    @inline(__always)
    private func unlessBusy(_ s: SQLiteStatement) throws -> SQLiteStatement {
        sqlite3_stmt_busy(s.handle) == 0 ? s : try SQLiteStatement(connection: self, sql: s.sql)
    }

    /// A pragma's value as text (e.g. `journal_mode`).
    func pragma(_ sql: String) throws -> String? {
        let s = try statement(sql)
        return try s.run([]) { try s.step() ? SQLiteColumn.string(s.handle, 0) : nil }
    }

    /// Runs `body` inside a savepoint: on a throw, everything it did is undone and the error
    /// rethrown (the first error wins over a failing rollback).
    func atomically<T>(_ body: () throws -> T) throws -> T {
        try statement("SAVEPOINT sb_op").execute()
        do {
            let r = try body()
            try statement("RELEASE sb_op").execute()
            return r
        } catch {
            _ = try? statement("ROLLBACK TO sb_op").execute()
            _ = try? statement("RELEASE sb_op").execute()
            throw error
        }
    }
}

import CSQLite
import Foundation
import StoreCore

/// One prepared statement; owns its `sqlite3_stmt` and finalizes it in `deinit`, the one
/// place it is freed. Used by one thread at a time (its connection's).
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    /// How many `?` placeholders the statement has.
    let parameterCount: Int
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            sqlite3_finalize(stmt)
            throw SQLiteError.make(rc, db: connection.handle, sql: sql, preparing: true)
        }
        self.handle = stmt
        self.sql = sql
        self.parameterCount = Int(sqlite3_bind_parameter_count(stmt))
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets for another run, clearing the bindings unless `binding` values will replace
    /// every one of them.
    @inline(__always)
    func reset(binding count: Int = 0) {
        sqlite3_reset(handle)
        if count < parameterCount { sqlite3_clear_bindings(handle) }
    }

    /// Binds values to parameters 1...n.
    @inline(__always)
    func bind(_ values: [Value]) throws {
        for i in values.indices {
            // An integer read in place and bound without `bind(_:at:)`: passing `values[i]` to
            // it copies the value for the call and destroys the copy after (about 9
            // instructions a value; a fast path inside `bind(_:at:)` does not avoid that).
            if let n = values[i].int64Value {
                let rc = sqlite3_bind_int64(handle, Int32(truncatingIfNeeded: i &+ 1), n)
                guard rc == SQLITE_OK else { throw SQLiteError.make(rc, db: connection.handle, sql: sql) }
            } else {
                try bind(values[i], at: Int32(truncatingIfNeeded: i &+ 1))
            }
        }
    }

    @inline(__always)
    func bind(_ v: Value, at i: Int32) throws {
        let rc: Int32
        switch v {
        case .null: rc = sqlite3_bind_null(handle, i)
        case .int64(let n): rc = sqlite3_bind_int64(handle, i, n)
        case .double(let d): rc = sqlite3_bind_double(handle, i, d)
        case .bool(let b): rc = sqlite3_bind_int64(handle, i, b ? 1 : 0)
        case .date(let d): rc = sqlite3_bind_double(handle, i, d.timeIntervalSince1970)
        case .string(let s):
            rc = sqlite3_bind_text(handle, i, s, Int32(s.utf8.count), SQLITE_TRANSIENT_DESTRUCTOR)
        case .uuid(let u):
            rc = withUnsafeBytes(of: u.uuid) { sqlite3_bind_blob(handle, i, $0.baseAddress, 16, SQLITE_TRANSIENT_DESTRUCTOR) }
        case .bytes(let b):
            rc = b.withUnsafeBytes { buf in
                // A zero-length blob needs a non-nil pointer to stay a blob, not NULL.
                buf.count == 0 ? sqlite3_bind_zeroblob(handle, i, 0)
                    : sqlite3_bind_blob(handle, i, buf.baseAddress, Int32(buf.count), SQLITE_TRANSIENT_DESTRUCTOR)
            }
        case .list, .map:   // a collection's stored form, its JSON text
            let s = CollectionCoding.encode(v) ?? "null"
            rc = sqlite3_bind_text(handle, i, s, Int32(s.utf8.count), SQLITE_TRANSIENT_DESTRUCTOR)
        }
        guard rc == SQLITE_OK else { throw SQLiteError.make(rc, db: connection.handle, sql: sql) }
    }

    /// Steps once: `true` when a row is available, `false` when done.
    @inline(__always)
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let err = SQLiteError.make(sqlite3_extended_errcode(connection.handle), db: connection.handle, sql: sql)
        sqlite3_reset(handle)
        throw err
    }

    /// Resets, binds `values` to parameters 1...n (and `extra`, when given, to n+1), runs
    /// `body` (which steps), and resets again so the statement holds no lock or snapshot once
    /// `body` is done.
    @inline(__always)
    func run<T>(_ values: [Value], then extra: Value? = nil, _ body: () throws -> T) throws -> T {
        reset(binding: values.count + (extra == nil ? 0 : 1))
        defer { sqlite3_reset(handle) }
        try bind(values)
        if let extra { try bind(extra, at: Int32(values.count + 1)) }
        return try body()
    }

    /// Runs to completion with `values` and then `extra` bound (?1…?n, ?n+1), ignoring rows.
    func execute(_ values: [Value], then extra: Value) throws {
        try run(values, then: extra) { while try step() {} }
    }

    /// Runs to completion, ignoring rows; returns the number of rows changed.
    @discardableResult
    func execute(_ values: [Value] = []) throws -> Int {
        try run(values) {
            while try step() {}
            return Int(sqlite3_changes(connection.handle))
        }
    }

    /// The first column of the first row as Int64, or nil when no row.
    func scalarInt(_ values: [Value] = []) throws -> Int64? {
        try run(values) {
            guard try step() else { return nil }
            return sqlite3_column_type(handle, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 0)
        }
    }

    /// The first column of every row, decoded as `type`.
    func column(_ type: AttributeType, _ values: [Value] = []) throws -> [Value] {
        try run(values) {
            var out: [Value] = []
            while try step() { out.append(SQLiteColumn.value(handle, 0, type)) }
            return out
        }
    }
}

import CRowChecksum
import CSQLite
import StoreBenchKit
import StoreCore
import StoreSQL

/// The query workloads as an SQLite user writes them (`FloorSQL.statement`): prepared once,
/// bound, stepped, every column of every row read. `sb_fold` is registered on the connection
/// as SQLiteStore registers it (the same C function over `TextFolding`).
extension SQLiteFloor {
    func runQueries(_ queries: [FloorQuery], timer: OperationTimer) throws -> Int {
        var rows = TouchRows()
        try timer.each(queries.count) { i in
            try transaction(write: false) { try run(queries[i], into: &rows) }
        }
        return rows.sum
    }

    func queryDigest(_ queries: [FloorQuery]) throws -> String {
        var rows = DigestRows()
        try transaction(write: false) {
            for q in queries {
                try run(q, into: &rows)
                rows.endQuery()
            }
        }
        return rows.digest.hex
    }

    /// Registers `sb_fold` and `sb_like` (once, at open).
    func registerTextFunctions() throws {
        let rc = sb_register_text_functions(db, SQLFunctions.fold, SQLFunctions.like, SQLFunctions.foldBytes, SQLFunctions.likeBytes)
        if rc != SQLITE_OK { throw failure(rc, "registering \(SQLFunctions.fold)") }
    }

    private func run<S: QueryRowSink>(_ q: FloorQuery, into sink: inout S) throws {
        let (sql, arguments, kind) = FloorSQL.statement(q)
        let s = try statement(sql)
        bind(s, arguments)
        defer { sqlite3_reset(s) }
        if case .postsAndComments = q { return try postsAndComments(s, into: &sink) }
        try step(s) {
            switch kind {
            case .posts: emitPost(s, &sink)
            case .users: emitUser(s, &sink)
            case .count: sink.count(Int(sqlite3_column_int64(s, 0)))
            }
        }
    }

    /// A user's posts, each followed by its comments.
    private func postsAndComments<S: QueryRowSink>(_ posts: OpaquePointer, into sink: inout S) throws {
        let comments = try statement(FloorSQL.commentsOfPost)
        try step(posts) {
            emitPost(posts, &sink)
            sqlite3_bind_int64(comments, 1, sqlite3_column_int64(posts, 0))
            defer { sqlite3_reset(comments) }
            try step(comments) { emitComment(comments, &sink) }
        }
    }

    /// Steps `s` to its end, calling `row` on each row.
    @inline(__always)
    private func step(_ s: OpaquePointer, _ row: () throws -> Void) throws {
        while true {
            let rc = sqlite3_step(s)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else { throw failure(rc, String(cString: sqlite3_sql(s))) }
            try row()
        }
    }

    @inline(__always)
    private func emitPost<S: QueryRowSink>(_ s: OpaquePointer, _ sink: inout S) {
        sink.beginRecord(BenchSchema.post)
        sink.int(sqlite3_column_int64(s, 0))
        sink.text(bytes(s, 1, text: true))
        sink.text(bytes(s, 2, text: true))
        sink.int(sqlite3_column_int64(s, 3))
        sink.date(sqlite3_column_double(s, 4))
        if isNull(s, 5) { sink.null() } else { sink.double(sqlite3_column_double(s, 5)) }
        sink.bool(sqlite3_column_int64(s, 6) != 0)
        sink.endRecord()
    }

    @inline(__always)
    private func emitUser<S: QueryRowSink>(_ s: OpaquePointer, _ sink: inout S) {
        sink.beginRecord(BenchSchema.user)
        sink.int(sqlite3_column_int64(s, 0))
        sink.text(bytes(s, 1, text: true))
        sink.text(bytes(s, 2, text: true))
        if isNull(s, 3) { sink.null() } else { sink.text(bytes(s, 3, text: true)) }
        if isNull(s, 4) { sink.null() } else { sink.int(sqlite3_column_int64(s, 4)) }
        sink.double(sqlite3_column_double(s, 5))
        sink.bool(sqlite3_column_int64(s, 6) != 0)
        sink.date(sqlite3_column_double(s, 7))
        if isNull(s, 8) { sink.null() } else { sink.bytes(bytes(s, 8, text: false)) }
        if isNull(s, 9) { sink.null() } else { sink.uuid(bytes(s, 9, text: false)) }
        sink.endRecord()
    }

    @inline(__always)
    private func emitComment<S: QueryRowSink>(_ s: OpaquePointer, _ sink: inout S) {
        sink.beginRecord(BenchSchema.comment)
        sink.int(sqlite3_column_int64(s, 0))
        sink.text(bytes(s, 1, text: true))
        sink.date(sqlite3_column_double(s, 2))
        sink.endRecord()
    }

    /// A column's text or blob bytes, valid until the statement steps again.
    @inline(__always)
    private func bytes(_ s: OpaquePointer, _ i: Int32, text: Bool) -> UnsafeRawBufferPointer {
        let p: UnsafeRawPointer? = text ? sqlite3_column_text(s, i).map(UnsafeRawPointer.init) : sqlite3_column_blob(s, i)
        return UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(s, i)))
    }
}

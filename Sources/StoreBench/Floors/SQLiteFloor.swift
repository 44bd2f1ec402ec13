import CSQLite
import Foundation
import StoreCore

/// The SQLite floor: prepared statements bound and stepped directly, in WAL mode with the same
/// `synchronous` setting SQLiteStore uses for the run's durability.
///
/// Internal: owns one connection and its statements, all freed in `close()`.
final class SQLiteFloor: Floor {
    let engine = "sqlite"
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static let ddl = [
        """
        CREATE TABLE IF NOT EXISTS "User" ("id" INTEGER PRIMARY KEY NOT NULL, "username" TEXT NOT NULL, \
        "displayName" TEXT NOT NULL, "email" TEXT, "age" INTEGER, "score" REAL NOT NULL, "active" INTEGER NOT NULL, \
        "joinedAt" REAL NOT NULL, "avatar" BLOB, "externalID" BLOB)
        """,
        #"CREATE UNIQUE INDEX IF NOT EXISTS "User_username" ON "User" ("username")"#,
        #"CREATE INDEX IF NOT EXISTS "User_age_score" ON "User" ("age", "score")"#,
        """
        CREATE TABLE IF NOT EXISTS "Post" ("id" INTEGER PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "body" TEXT NOT NULL, \
        "score" INTEGER NOT NULL, "createdAt" REAL NOT NULL, "rating" REAL, "published" INTEGER NOT NULL, "author" INTEGER)
        """,
        #"CREATE INDEX IF NOT EXISTS "Post_createdAt" ON "Post" ("createdAt")"#,
        #"CREATE INDEX IF NOT EXISTS "Post_published_score" ON "Post" ("published", "score")"#,
        #"CREATE INDEX IF NOT EXISTS "Post_author" ON "Post" ("author")"#,
        #"CREATE TABLE IF NOT EXISTS "Row" ("id" INTEGER PRIMARY KEY NOT NULL, "i0" INTEGER NOT NULL, "i1" INTEGER NOT NULL, "i2" INTEGER NOT NULL, "i3" INTEGER NOT NULL, "i4" INTEGER NOT NULL, "i5" INTEGER NOT NULL, "i6" INTEGER NOT NULL, "i7" INTEGER NOT NULL, "i8" INTEGER NOT NULL, "i9" INTEGER NOT NULL)"#,
    ]

    init(path: String, durability: Durability) throws {
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        db = handle
        do {
            if rc != SQLITE_OK { throw failure(rc, "open \(path)") }
            try exec("PRAGMA journal_mode = WAL")
            try exec("PRAGMA synchronous = \(durability == .durable ? "FULL" : "NORMAL")")
            for sql in Self.ddl { try exec(sql) }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        for (_, s) in statements { sqlite3_finalize(s) }
        statements = [:]
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    // MARK: Loading

    func loadSocial(_ g: SocialGenerator) throws {
        try loadUsers(g)
        try exec("BEGIN IMMEDIATE")
        let s = try statement(#"INSERT INTO "Post" VALUES (?, ?, ?, ?, ?, ?, ?, ?)"#)
        for pid in 1...Int64(g.posts) {
            let p = g.post(pid)
            let r = p.record
            sqlite3_bind_int64(s, 1, pid)
            bindText(s, 2, r[1].stringValue!)
            bindText(s, 3, r[2].stringValue!)
            sqlite3_bind_int64(s, 4, r[3].int64Value!)
            sqlite3_bind_double(s, 5, r[4].dateValue!.timeIntervalSince1970)
            if let rating = r[5].doubleValue { sqlite3_bind_double(s, 6, rating) } else { sqlite3_bind_null(s, 6) }
            sqlite3_bind_int64(s, 7, r[6].boolValue! ? 1 : 0)
            sqlite3_bind_int64(s, 8, p.author)
            try stepDone(s, "insert post \(pid)")
        }
        try exec("COMMIT")
    }

    // MARK: Workloads

    func insertUsers(_ users: [UserInput], timer: OperationTimer) throws {
        let s = try statement(#"INSERT INTO "User" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#)
        try timer.unit(operations: users.count) {
            try exec("BEGIN IMMEDIATE")
            do {
                for u in users {
                    sqlite3_bind_int64(s, 1, u.id)
                    bindText(s, 2, u.username)
                    bindText(s, 3, u.displayName)
                    if let e = u.email { bindText(s, 4, e) } else { sqlite3_bind_null(s, 4) }
                    if let a = u.age { sqlite3_bind_int64(s, 5, a) } else { sqlite3_bind_null(s, 5) }
                    sqlite3_bind_double(s, 6, u.score)
                    sqlite3_bind_int64(s, 7, u.active ? 1 : 0)
                    sqlite3_bind_double(s, 8, u.joinedAt)
                    if let b = u.avatar { bindBlob(s, 9, b) } else { sqlite3_bind_null(s, 9) }
                    if let x = u.externalID { withUnsafeBytes(of: x.uuid) { bindBlob(s, 10, Array($0)) } } else { sqlite3_bind_null(s, 10) }
                    try stepDone(s, "insert user \(u.id)")
                }
                try exec("COMMIT")
            } catch {
                try? exec("ROLLBACK")
                throw error
            }
        }
    }

    func readPosts(_ ids: [Int64], perTransaction: Int, timer: OperationTimer) throws -> Int {
        let s = try statement(#"SELECT "id", "title", "body", "score", "createdAt", "rating", "published" FROM "Post" WHERE "id" = ?"#)
        var sink = 0
        func read(_ id: Int64) throws {
            sqlite3_bind_int64(s, 1, id)
            defer { sqlite3_reset(s) }
            guard sqlite3_step(s) == SQLITE_ROW else { throw failure(sqlite3_errcode(db), "post \(id) not found") }
            sink &+= post(s).touch
        }
        if perTransaction <= 1 {
            try timer.each(ids.count) { try read(ids[$0]) }
        } else {
            for start in stride(from: 0, to: ids.count, by: perTransaction) {
                let end = min(ids.count, start + perTransaction)
                try timer.unit(operations: end - start) {
                    try exec("BEGIN")
                    defer { try? exec("COMMIT") }
                    for i in start..<end { try read(ids[i]) }
                }
            }
        }
        return sink
    }

    func scanPosts(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk(#"SELECT "id", "title", "body", "score", "createdAt", "rating", "published" FROM "Post""#, timer: timer) { s in
            sink &+= post(s).touch
        }
        return sink
    }

    func insertRows(first: Int64, count: Int, timer: OperationTimer) throws {
        let s = try statement(#"INSERT INTO "Row" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#)
        try timer.unit(operations: count) {
            try exec("BEGIN IMMEDIATE")
            do {
                for id in first..<(first + Int64(count)) {
                    sqlite3_bind_int64(s, 1, id)
                    for k in 0..<10 { sqlite3_bind_int64(s, Int32(k + 2), id &* 10 &+ Int64(k)) }
                    try stepDone(s, "insert row \(id)")
                }
                try exec("COMMIT")
            } catch {
                try? exec("ROLLBACK")
                throw error
            }
        }
    }

    func fetchRows(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk(#"SELECT "id", "i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9" FROM "Row""#, timer: timer) { s in
            var h = 0
            for c in 0..<Int32(11) { h = Touch.fold(h, Touch.int(sqlite3_column_int64(s, c))) }
            sink &+= h
        }
        return sink
    }

    // MARK: Helpers (internal)

    /// Steps through every row of `sql` in one read transaction, timed as one span of one
    /// operation per row.
    private func walk(_ sql: String, timer: OperationTimer, _ body: (OpaquePointer) -> Void) throws {
        let s = try statement(sql)
        var rows = 0
        let started = MonotonicClock.now()
        try exec("BEGIN")
        defer { try? exec("COMMIT") }
        defer { sqlite3_reset(s) }
        while sqlite3_step(s) == SQLITE_ROW {
            body(s)
            rows += 1
        }
        timer.record(MonotonicClock.now() &- started, operations: rows)
    }

    private func post(_ s: OpaquePointer) -> PostOutput {
        PostOutput(
            id: sqlite3_column_int64(s, 0), title: text(s, 1), body: text(s, 2), score: sqlite3_column_int64(s, 3),
            createdAt: Date(timeIntervalSince1970: sqlite3_column_double(s, 4)),
            rating: sqlite3_column_type(s, 5) == SQLITE_NULL ? nil : sqlite3_column_double(s, 5),
            published: sqlite3_column_int64(s, 6) != 0)
    }

    private func text(_ s: OpaquePointer, _ i: Int32) -> String {
        guard let p = sqlite3_column_text(s, i) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(s, i))), as: UTF8.self)
    }

    private func bindText(_ s: OpaquePointer, _ i: Int32, _ v: String) {
        var v = v
        _ = v.withUTF8 { sqlite3_bind_text(s, i, $0.baseAddress, Int32($0.count), Self.transient) }
    }

    private func bindBlob(_ s: OpaquePointer, _ i: Int32, _ v: [UInt8]) {
        _ = v.withUnsafeBytes { sqlite3_bind_blob(s, i, $0.baseAddress, Int32($0.count), Self.transient) }
    }

    private func stepDone(_ s: OpaquePointer, _ what: String) throws {
        let rc = sqlite3_step(s)
        sqlite3_reset(s)
        if rc != SQLITE_DONE { throw failure(rc, what) }
    }

    private func statement(_ sql: String) throws -> OpaquePointer {
        if let s = statements[sql] { return s }
        var s: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &s, nil)
        guard rc == SQLITE_OK, let s else { throw failure(rc, sql) }
        statements[sql] = s
        return s
    }

    private func exec(_ sql: String) throws {
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        if rc != SQLITE_OK { throw failure(rc, sql) }
    }

    private func failure(_ rc: Int32, _ context: String) -> BenchError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        return BenchError("sqlite floor: \(message) (code \(rc)) in \(context)")
    }
}

import CSQLite
import Foundation
import StoreCore
import StoreSQL
import StoreBenchKit

/// The SQLite floor: prepared statements bound and stepped directly, on SQLiteStore's tables
/// and indexes (the same DDL), in WAL mode with the `synchronous` setting SQLiteStore uses for
/// the run's durability, one transaction per operation where the workload opens one per
/// operation (`BEGIN` for reads, `BEGIN IMMEDIATE` for writes, as SQLiteStore does).
///
/// Statements, transaction statements included, are prepared once (`SQLITE_PREPARE_PERSISTENT`,
/// as SQLiteStore prepares its cached ones). Text and blobs are copied into one reused buffer and
/// bound `SQLITE_STATIC`, so binding allocates nothing.
///
/// Internal: owns one connection and its statements, all freed in `close()`.
final class SQLiteFloor: Floor {
    let engine = "sqlite"
    private(set) var transactionsBegun = 0
    private(set) var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private var beginRead: OpaquePointer?
    private var beginWrite: OpaquePointer?
    private var commitStatement: OpaquePointer?
    private var rollbackStatement: OpaquePointer?
    /// Text and blobs of the values being bound (bound `SQLITE_STATIC`, valid until the next bind).
    private let scratch = ScratchBuffer()

    /// `journalMode` is WAL as SQLiteStore runs; `DELETE` (the rollback journal) measures what WAL changes.
    /// `synchronous` (FULL, NORMAL, OFF) overrides the one of `durability` (a commit mode of the durability suite).
    init(path: String, durability: Durability, journalMode: String = "WAL", synchronous: String? = nil) throws {
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        db = handle
        do {
            if rc != SQLITE_OK { throw failure(rc, "open \(path)") }
            try registerTextFunctions()
            try exec("PRAGMA journal_mode = \(journalMode)")
            try exec("PRAGMA synchronous = \(synchronous ?? (durability == .durable ? "FULL" : "NORMAL"))")
            try exec("BEGIN IMMEDIATE")
            for sql in FloorSQL.ddl { try exec(sql) }
            try exec("COMMIT")
            beginRead = try statement("BEGIN")
            beginWrite = try statement("BEGIN IMMEDIATE")
            commitStatement = try statement("COMMIT")
            rollbackStatement = try statement("ROLLBACK")
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        for (_, s) in statements { sqlite3_finalize(s) }
        statements = [:]
        beginRead = nil
        beginWrite = nil
        commitStatement = nil
        rollbackStatement = nil
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    // MARK: Loading

    func storeSocial(_ records: [Record], links: [SocialLink]) throws {
        let (user, post, comment, tag) = (try statement(FloorSQL.insertUser), try statement(FloorSQL.insertPost),
                                          try statement(FloorSQL.insertComment), try statement(FloorSQL.insertTag))
        try transaction(write: true) {
            for r in records {
                switch r.entity.name {
                case "User": bindUser(user, UserInput(r)); try stepDone(user, "insert user")
                case "Post": bind(post, r.values); try stepDone(post, "insert post")
                case "Comment": bind(comment, r.values); try stepDone(comment, "insert comment")
                case "Tag": bind(tag, r.values); try stepDone(tag, "insert tag")
                default: throw BenchError("sqlite floor: no table for \(r.entity.name)")
                }
            }
            for l in links {
                let s = try statement(FloorSQL.linkSQL(l))
                bind(s, l.target, l.source)
                try stepDone(s, "link \(l.entity).\(l.relationship)")
            }
        }
    }

    // MARK: Workloads

    func insertUsers(_ users: [UserInput], timer: OperationTimer) throws {
        let s = try statement(FloorSQL.insertUser)
        try timer.unit(operations: users.count) {
            try transaction(write: true) {
                for i in 0..<users.count {  // by index: for-in over an array allocates per element at -Onone
                    bindUser(s, users[i])
                    try stepDone(s, "insert user \(users[i].id)")
                }
            }
        }
    }

    func readPosts(_ ids: [Int64], perTransaction: Int, timer: OperationTimer) throws -> Int {
        let s = try statement(FloorSQL.selectPost)
        var sink = 0
        if perTransaction <= 1 {
            try timer.each(ids.count) { i in
                try transaction(write: false) { sink &+= try readPost(s, ids[i]) }
            }
        } else {
            try timer.batches(ids.count, of: perTransaction) { r in
                try transaction(write: false) {
                    for i in r { sink &+= try readPost(s, ids[i]) }
                }
            }
        }
        return sink
    }

    func rereadPosts(_ hot: [Int64], rounds: Int, timer: OperationTimer) throws -> Int {
        let s = try statement(FloorSQL.selectPost)
        var sink = 0
        try transaction(write: false) {
            for _ in 0..<rounds {
                try timer.unit(operations: hot.count) {
                    for i in 0..<hot.count { sink &+= try readPost(s, hot[i]) }  // by index: for-in over an array allocates per element at -Onone
                }
            }
        }
        return sink
    }

    func scanPosts(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk(try statement(FloorSQL.scanPostsSQL), timer: timer) { s in sink &+= post(s).touch }
        return sink
    }

    func insertRows(first: Int64, count: Int, timer: OperationTimer) throws {
        let s = try statement(FloorSQL.insertRow)
        try timer.unit(operations: count) {
            try transaction(write: true) {
                for i in 0..<count {  // an Int range: a Range<Int64> allocates per element at -Onone
                    let id = first &+ Int64(i)
                    sqlite3_bind_int64(s, 1, id)
                    for k in 0..<10 { sqlite3_bind_int64(s, Int32(k + 2), id &* 10 &+ Int64(k)) }
                    try stepDone(s, "insert row \(id)")
                }
            }
        }
    }

    func fetchRows(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk(try statement(FloorSQL.fetchRowsSQL), timer: timer) { s in
            var h = 0
            for c in 0..<11 { h = Touch.fold(h, Touch.int(sqlite3_column_int64(s, Int32(c)))) }
            sink &+= h
        }
        return sink
    }

    // MARK: Inspection (tests)

    /// What is stored, by entity and by link (`Entity.relationship`), as the generator counts it.
    func storedCounts() throws -> [String: Int] {
        func scalar(_ sql: String) throws -> Int {
            let s = try statement(sql)
            defer { sqlite3_reset(s) }
            guard sqlite3_step(s) == SQLITE_ROW else { throw failure(sqlite3_errcode(db), sql) }
            return Int(sqlite3_column_int64(s, 0))
        }
        func count(_ table: String, notNull column: String? = nil) throws -> Int {
            try scalar("SELECT COUNT(*) FROM \"\(table)\"" + (column.map { " WHERE \"\($0)\" IS NOT NULL" } ?? ""))
        }
        return [
            "User": try count("User"), "Post": try count("Post"), "Comment": try count("Comment"), "Tag": try count("Tag"),
            "Post.author": try count("Post", notNull: "author"), "Post.tags": try count("sb_j_Post_tags"),
            "Comment.post": try count("Comment", notNull: "post"), "Comment.author": try count("Comment", notNull: "author"),
            "Comment.parent": try count("Comment", notNull: "parent"), "User.following": try count("sb_j_User_followers"),
        ]
    }

    /// The `sql` of every table and index, sorted.
    func schemaSQL() throws -> [String] {
        let s = try statement("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY sql")
        defer { sqlite3_reset(s) }
        var out: [String] = []
        while sqlite3_step(s) == SQLITE_ROW { out.append(text(s, 0)) }
        return out
    }

    /// The checksum of every user, every field, as `Touch.row` folds a backend's `User`.
    func usersChecksum() throws -> Int {
        let s = try statement(#"SELECT "id", "username", "displayName", "email", "age", "score", "active", "joinedAt", "avatar", "externalID" FROM "User" ORDER BY "id""#)
        var sink = 0
        try transaction(write: false) {
            defer { sqlite3_reset(s) }
            while sqlite3_step(s) == SQLITE_ROW {
                var h = Touch.fold(0, Touch.int(sqlite3_column_int64(s, 0)))
                h = Touch.fold(h, Touch.string(text(s, 1)))
                h = Touch.fold(h, Touch.string(text(s, 2)))
                h = Touch.fold(h, isNull(s, 3) ? Touch.null : Touch.string(text(s, 3)))
                h = Touch.fold(h, isNull(s, 4) ? Touch.null : Touch.int(sqlite3_column_int64(s, 4)))
                h = Touch.fold(h, Touch.double(sqlite3_column_double(s, 5)))
                h = Touch.fold(h, Touch.bool(sqlite3_column_int64(s, 6) != 0))
                h = Touch.fold(h, Touch.date(Date(timeIntervalSince1970: sqlite3_column_double(s, 7))))
                h = Touch.fold(h, isNull(s, 8) ? Touch.null : Int(sqlite3_column_bytes(s, 8)))
                if isNull(s, 9) {
                    h = Touch.fold(h, Touch.null)
                } else {
                    let p = sqlite3_column_blob(s, 9)!
                    h = Touch.fold(h, Int(truncatingIfNeeded: p.loadUnaligned(as: Int64.self)))
                }
                sink &+= h
            }
        }
        return sink
    }

    // MARK: Helpers (internal)

    /// The one place a transaction begins: `BEGIN IMMEDIATE` for writes, `BEGIN` for reads
    /// (SQLiteStore's statements), then `COMMIT`, or `ROLLBACK` when `body` or the commit throws.
    @inline(__always)
    func transaction<T>(write: Bool, _ body: () throws -> T) throws -> T {
        transactionsBegun += 1
        try stepDone(write ? beginWrite! : beginRead!, write ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try stepDone(commitStatement!, "COMMIT")
            return result
        } catch {
            sqlite3_step(rollbackStatement)
            sqlite3_reset(rollbackStatement)
            throw error
        }
    }

    /// One post by key, folded.
    @inline(__always)
    private func readPost(_ s: OpaquePointer, _ id: Int64) throws -> Int {
        sqlite3_bind_int64(s, 1, id)
        defer { sqlite3_reset(s) }
        guard sqlite3_step(s) == SQLITE_ROW else { throw failure(sqlite3_errcode(db), "post \(id) not found") }
        return post(s).touch
    }

    /// Steps through every row of `s` in one read transaction, timed as one span (from before
    /// `BEGIN` to after `COMMIT`, as the backends' scans are) of one operation per row.
    private func walk(_ s: OpaquePointer, timer: OperationTimer, _ body: (OpaquePointer) -> Void) throws {
        var rows = 0
        let started = MonotonicClock.now()
        try transaction(write: false) {
            defer { sqlite3_reset(s) }
            while true {
                let rc = sqlite3_step(s)
                if rc == SQLITE_DONE { break }
                guard rc == SQLITE_ROW else { throw failure(rc, "scan") }
                body(s)
                rows += 1
            }
        }
        timer.record(MonotonicClock.now() &- started, operations: rows)
    }

    @inline(__always)
    private func post(_ s: OpaquePointer) -> PostOutput {
        PostOutput(
            id: sqlite3_column_int64(s, 0), title: text(s, 1), body: text(s, 2), score: sqlite3_column_int64(s, 3),
            createdAt: Date(timeIntervalSince1970: sqlite3_column_double(s, 4)),
            rating: isNull(s, 5) ? nil : sqlite3_column_double(s, 5),
            published: sqlite3_column_int64(s, 6) != 0)
    }

    @inline(__always)
    func isNull(_ s: OpaquePointer, _ i: Int32) -> Bool { sqlite3_column_type(s, i) == SQLITE_NULL }

    @inline(__always)
    private func text(_ s: OpaquePointer, _ i: Int32) -> String {
        guard let p = sqlite3_column_text(s, i) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(s, i))), as: UTF8.self)
    }

    /// Binds a user's fields; text and blobs go through the scratch buffer.
    @inline(__always)
    private func bindUser(_ s: OpaquePointer, _ u: UserInput) {
        scratch.reset()
        scratch.append(u.username)
        scratch.append(u.displayName)
        if let e = u.email { scratch.append(e) }
        if let a = u.avatar { scratch.append(a) }
        if let x = u.externalID { withUnsafeBytes(of: x.uuid) { scratch.append($0) } }
        var at = 0
        sqlite3_bind_int64(s, 1, u.id)
        bindScratchText(s, 2, &at, u.username.utf8.count)
        bindScratchText(s, 3, &at, u.displayName.utf8.count)
        if let e = u.email { bindScratchText(s, 4, &at, e.utf8.count) } else { sqlite3_bind_null(s, 4) }
        if let a = u.age { sqlite3_bind_int64(s, 5, a) } else { sqlite3_bind_null(s, 5) }
        sqlite3_bind_double(s, 6, u.score)
        sqlite3_bind_int64(s, 7, u.active ? 1 : 0)
        sqlite3_bind_double(s, 8, u.joinedAt)
        if let a = u.avatar { bindScratchBlob(s, 9, &at, a.count) } else { sqlite3_bind_null(s, 9) }
        if u.externalID != nil { bindScratchBlob(s, 10, &at, 16) } else { sqlite3_bind_null(s, 10) }
    }

    /// Binds values to parameters 1…n (text and blobs through the scratch buffer).
    func bind(_ s: OpaquePointer, _ values: [Value]) {
        scratch.reset()
        for v in values { stage(v) }
        var at = 0
        for (k, v) in values.enumerated() { bind(s, Int32(k + 1), v, &at) }
    }

    /// Binds two values to parameters 1 and 2.
    private func bind(_ s: OpaquePointer, _ a: Value, _ b: Value) {
        scratch.reset()
        stage(a)
        stage(b)
        var at = 0
        bind(s, 1, a, &at)
        bind(s, 2, b, &at)
    }

    /// Copies a value's text or blob bytes into the scratch buffer (before any is bound: the
    /// buffer may move while it grows).
    @inline(__always)
    private func stage(_ v: Value) {
        switch v {
        case .string(let x): scratch.append(x)
        case .bytes(let b): scratch.append(b)
        case .uuid(let u): withUnsafeBytes(of: u.uuid) { scratch.append($0) }
        default: break
        }
    }

    @inline(__always)
    private func bind(_ s: OpaquePointer, _ i: Int32, _ v: Value, _ at: inout Int) {
        switch v {
        case .null: sqlite3_bind_null(s, i)
        case .int64(let n): sqlite3_bind_int64(s, i, n)
        case .double(let d): sqlite3_bind_double(s, i, d)
        case .bool(let b): sqlite3_bind_int64(s, i, b ? 1 : 0)
        case .date(let d): sqlite3_bind_double(s, i, d.timeIntervalSince1970)
        case .string(let x): bindScratchText(s, i, &at, x.utf8.count)
        case .bytes(let b): bindScratchBlob(s, i, &at, b.count)
        case .uuid: bindScratchBlob(s, i, &at, 16)
        case .list, .map: sqlite3_bind_null(s, i)   // the floor's datasets hold no collections
        }
    }

    @inline(__always)
    private func bindScratchText(_ s: OpaquePointer, _ i: Int32, _ at: inout Int, _ n: Int) {
        sqlite3_bind_text(s, i, (scratch.base + at).assumingMemoryBound(to: CChar.self), Int32(n), nil)  // nil: SQLITE_STATIC
        at += n
    }

    @inline(__always)
    private func bindScratchBlob(_ s: OpaquePointer, _ i: Int32, _ at: inout Int, _ n: Int) {
        sqlite3_bind_blob(s, i, scratch.base + at, Int32(n), nil)  // nil: SQLITE_STATIC
        at += n
    }

    /// Steps a statement that returns no row, then resets it. `what` is built only on failure.
    @inline(__always)
    private func stepDone(_ s: OpaquePointer, _ what: @autoclosure () -> String) throws {
        let rc = sqlite3_step(s)
        sqlite3_reset(s)
        if rc != SQLITE_DONE { throw failure(rc, what()) }
    }

    func statement(_ sql: String) throws -> OpaquePointer {
        if let s = statements[sql] { return s }
        var s: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &s, nil)
        guard rc == SQLITE_OK, let s else { throw failure(rc, sql) }
        statements[sql] = s
        return s
    }

    func exec(_ sql: String) throws {
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        if rc != SQLITE_OK { throw failure(rc, sql) }
    }

    func failure(_ rc: Int32, _ context: String) -> BenchError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        return BenchError("sqlite floor: \(message) (\(SQLiteResultCode.name(of: rc)), \(rc)) in \(context)")
    }
}

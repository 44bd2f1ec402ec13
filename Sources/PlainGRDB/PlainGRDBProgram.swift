import Foundation
import GRDB
import StoreBench
import StoreCore

/// The floors' work written as a plain GRDB application writes it, following GRDB's own
/// documentation and its performance suite: one `DatabasePool`, `write { db in … }` and
/// `read { db in … }` accesses, statements from `db.cachedStatement(sql:)`, arguments as array
/// literals set with `setUncheckedArguments` (the SQL is fixed, so they always fit), rows read
/// through `Row.fetchCursor` and decoded in place by index.
/// No records, queries or StoreSQL: the reference GRDBStore is compared with, so that what GRDB
/// itself costs (its reader pool, its per-transaction `BEGIN`/`COMMIT`, its per-cursor column
/// index) is not counted against GRDBStore. Configuration is GRDB's default.
///
/// ```swift
/// let program = try PlainGRDBProgram(directory: dir, durability: .durable)
/// try program.loadSocial(generator)
/// let sink = try program.readPosts([1, 2, 3], perTransaction: 1, timer: OperationTimer(minimumSpan: 0))
/// ```
///
/// Same tables and indexes as the SQLite floor, same durability as GRDBStore (WAL; `synchronous`
/// FULL for `.durable`, NORMAL for `.relaxed`). Thread safety: one program per cell process,
/// used by one thread, like every floor.
public final class PlainGRDBProgram: Floor {
    public let engine = "sqlite"
    /// The file the program keeps in its directory.
    public static let fileName = "plain-grdb.sqlite"
    public let path: String
    private var dbPool: DatabasePool?

    private static let schema = """
        CREATE TABLE IF NOT EXISTS "User" ("id" INTEGER PRIMARY KEY NOT NULL, "username" TEXT NOT NULL, \
        "displayName" TEXT NOT NULL, "email" TEXT, "age" INTEGER, "score" REAL NOT NULL, "active" INTEGER NOT NULL, \
        "joinedAt" REAL NOT NULL, "avatar" BLOB, "externalID" BLOB);
        CREATE UNIQUE INDEX IF NOT EXISTS "User_username" ON "User" ("username");
        CREATE INDEX IF NOT EXISTS "User_age_score" ON "User" ("age", "score");
        CREATE TABLE IF NOT EXISTS "Post" ("id" INTEGER PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "body" TEXT NOT NULL, \
        "score" INTEGER NOT NULL, "createdAt" REAL NOT NULL, "rating" REAL, "published" INTEGER NOT NULL, "author" INTEGER);
        CREATE INDEX IF NOT EXISTS "Post_createdAt" ON "Post" ("createdAt");
        CREATE INDEX IF NOT EXISTS "Post_published_score" ON "Post" ("published", "score");
        CREATE INDEX IF NOT EXISTS "Post_author" ON "Post" ("author");
        CREATE TABLE IF NOT EXISTS "Row" ("id" INTEGER PRIMARY KEY NOT NULL, "i0" INTEGER NOT NULL, "i1" INTEGER NOT NULL, \
        "i2" INTEGER NOT NULL, "i3" INTEGER NOT NULL, "i4" INTEGER NOT NULL, "i5" INTEGER NOT NULL, "i6" INTEGER NOT NULL, \
        "i7" INTEGER NOT NULL, "i8" INTEGER NOT NULL, "i9" INTEGER NOT NULL);
        """

    private static let insertUser = #"INSERT INTO "User" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#
    private static let insertPost = #"INSERT INTO "Post" VALUES (?, ?, ?, ?, ?, ?, ?, ?)"#
    private static let selectPost = #"SELECT "id", "title", "body", "score", "createdAt", "rating", "published" FROM "Post" WHERE "id" = ?"#
    private static let selectPosts = #"SELECT "id", "title", "body", "score", "createdAt", "rating", "published" FROM "Post""#
    private static let insertRow = #"INSERT INTO "Row" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#
    private static let selectRows = #"SELECT "id", "i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9" FROM "Row""#

    /// Opens or creates `directory/plain-grdb.sqlite`.
    public init(directory: URL, durability: Durability) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(Self.fileName).path
        let dbPool = try DatabasePool(path: path)
        // DatabasePool turns WAL on and `synchronous` to NORMAL on its writer; a durable
        // program syncs at every commit, as GRDBStore and the SQLite floor do.
        try dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability == .durable ? "FULL" : "NORMAL")")
        }
        try dbPool.write { db in try db.execute(sql: Self.schema) }
        self.dbPool = dbPool
    }

    deinit { close() }

    public func close() {
        try? dbPool?.close()
        dbPool = nil
    }

    /// The writer connection's value of a pragma (`synchronous`, `journal_mode`), for tests.
    public func writerPragma(_ name: String) throws -> String? {
        try opened().writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }

    private func opened() throws -> DatabasePool {
        guard let dbPool else { throw BenchError("plain GRDB program: closed") }
        return dbPool
    }

    // MARK: Loading

    public func loadSocial(_ g: SocialGenerator) throws {
        let untimed = OperationTimer(minimumSpan: 0)
        for first in stride(from: 1, through: g.users, by: 5_000) {
            try insertUsers((first...min(g.users, first + 4_999)).map { UserInput(g.user(Int64($0))) }, timer: untimed)
        }
        guard g.posts > 0 else { return }
        try opened().write { db in
            let statement = try db.cachedStatement(sql: Self.insertPost)
            for id in 1...Int64(g.posts) {
                let (r, author, _) = g.post(id)
                statement.setUncheckedArguments([
                    id, r[1].stringValue, r[2].stringValue, r[3].int64Value, r[4].dateValue?.timeIntervalSince1970,
                    r[5].doubleValue, r[6].boolValue, author,
                ])
                try statement.execute()
            }
        }
    }

    // MARK: Workloads

    public func insertUsers(_ users: [UserInput], timer: OperationTimer) throws {
        let pool = try opened()
        try timer.unit(operations: users.count) {
            try pool.write { db in
                let statement = try db.cachedStatement(sql: Self.insertUser)
                for u in users {
                    statement.setUncheckedArguments([
                        u.id, u.username, u.displayName, u.email, u.age, u.score, u.active, u.joinedAt,
                        u.avatar.map { Data($0) }, u.externalID,
                    ])
                    try statement.execute()
                }
            }
        }
    }

    public func readPosts(_ ids: [Int64], perTransaction: Int, timer: OperationTimer) throws -> Int {
        let pool = try opened()
        var sink = 0
        func read(_ db: Database, _ id: Int64) throws {
            let statement = try db.cachedStatement(sql: Self.selectPost)
            statement.setUncheckedArguments([id])
            let rows = try Row.fetchCursor(statement)
            guard let row = try rows.next() else { throw BenchError("plain GRDB program: post \(id) not found") }
            sink &+= Self.post(row).touch
        }
        if perTransaction <= 1 {
            try timer.each(ids.count) { i in try pool.read { db in try read(db, ids[i]) } }
        } else {
            for start in stride(from: 0, to: ids.count, by: perTransaction) {
                let end = min(ids.count, start + perTransaction)
                try timer.unit(operations: end - start) {
                    try pool.read { db in for i in start..<end { try read(db, ids[i]) } }
                }
            }
        }
        return sink
    }

    public func scanPosts(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk(Self.selectPosts, timer: timer) { row in sink &+= Self.post(row).touch }
        return sink
    }

    public func insertRows(first: Int64, count: Int, timer: OperationTimer) throws {
        let pool = try opened()
        try timer.unit(operations: count) {
            try pool.write { db in
                let statement = try db.cachedStatement(sql: Self.insertRow)
                for id in first..<(first + Int64(count)) {
                    let v = id &* 10
                    statement.setUncheckedArguments([id, v, v &+ 1, v &+ 2, v &+ 3, v &+ 4, v &+ 5, v &+ 6, v &+ 7, v &+ 8, v &+ 9])
                    try statement.execute()
                }
            }
        }
    }

    public func fetchRows(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk(Self.selectRows, timer: timer) { row in
            for c in 0..<11 { sink &+= Int(truncatingIfNeeded: row[c] as Int64) }
        }
        return sink
    }

    // MARK: Helpers

    /// Steps through every row of `sql` in one read access, timed as one span of one
    /// operation per row.
    private func walk(_ sql: String, timer: OperationTimer, _ body: (Row) -> Void) throws {
        let pool = try opened()
        var rows = 0
        let started = MonotonicClock.now()
        try pool.read { db in
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql))
            while let row = try cursor.next() {
                body(row)
                rows += 1
            }
        }
        timer.record(MonotonicClock.now() &- started, operations: rows)
    }

    /// Every field of a post row, decoded by index (GRDB's fast path for standard types).
    private static func post(_ row: Row) -> PostOutput {
        PostOutput(id: row[0], title: row[1], body: row[2], score: row[3],
                   createdAt: Date(timeIntervalSince1970: row[4]), rating: row[5], published: row[6])
    }
}

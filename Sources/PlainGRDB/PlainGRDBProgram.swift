import Foundation
import GRDB
import StoreBenchKit
import StoreCore

/// The floors' work written as a plain GRDB application writes it, following GRDB's own
/// documentation and its performance suite: one `DatabasePool`, `write { db in … }` and
/// `read { db in … }` accesses, statements from `db.cachedStatement(sql:)`, arguments as array
/// literals set with `setUncheckedArguments` (the SQL is fixed, so they always fit), rows read
/// through `Row.fetchCursor` and decoded in place by index.
/// No records, queries or StoreSQL: the reference GRDBStore is compared with, so that what GRDB
/// itself costs (its reader pool, its per-transaction `BEGIN`/`COMMIT`, its per-cursor column
/// index) is not counted against GRDBStore. Configuration is GRDB's default, with the folding
/// function of the query workloads added as a `DatabaseFunction`.
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
public final class PlainGRDBProgram: ConcurrentReads {
    public let engine = "sqlite"
    /// The file the program keeps in its directory.
    public static let fileName = "plain-grdb.sqlite"
    public let path: String
    private var dbPool: DatabasePool?

    /// Read and write accesses begun (each is one transaction).
    public private(set) var transactionsBegun = 0

    /// Opens or creates `directory/plain-grdb.sqlite`.
    public init(directory: URL, durability: Durability) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(Self.fileName).path
        // `sb_fold`, the folding function the query workloads' SQL calls, as GRDB adds one.
        var config = Configuration()
        config.prepareDatabase { db in db.add(function: Self.fold) }
        let dbPool = try DatabasePool(path: path, configuration: config)
        // DatabasePool turns WAL on and `synchronous` to NORMAL on its writer; a durable
        // program syncs at every commit, as GRDBStore and the SQLite floor do.
        try dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability == .durable ? "FULL" : "NORMAL")")
        }
        try dbPool.write { db in try db.execute(sql: FloorSQL.ddl.joined(separator: ";\n")) }
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

    /// One read access (a deferred transaction on a reader connection).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        transactionsBegun += 1
        return try opened().read(body)
    }

    /// One write access (an immediate transaction on the writer).
    private func write<T>(_ body: (Database) throws -> T) throws -> T {
        transactionsBegun += 1
        return try opened().write(body)
    }

    // MARK: Loading

    public func storeSocial(_ records: [StoreCore.Record], links: [SocialLink]) throws {
        try write { db in
            for r in records {
                let sql = switch r.entity.name {
                case "User": FloorSQL.insertUser
                case "Post": FloorSQL.insertPost
                case "Comment": FloorSQL.insertComment
                case "Tag": FloorSQL.insertTag
                default: throw BenchError("plain GRDB program: no table for \(r.entity.name)")
                }
                let statement = try db.cachedStatement(sql: sql)
                statement.setUncheckedArguments(StatementArguments(r.values.map(Self.databaseValue)))
                try statement.execute()
            }
            for l in links {
                let statement = try db.cachedStatement(sql: try FloorSQL.linkSQL(l))
                statement.setUncheckedArguments(StatementArguments([Self.databaseValue(l.target), Self.databaseValue(l.source)]))
                try statement.execute()
            }
        }
    }

    /// A dataset value as SQLiteStore stores it (dates as seconds, UUIDs as 16 bytes).
    static func databaseValue(_ v: Value) -> DatabaseValue {
        switch v {
        case .null: .null
        case .int64(let x): x.databaseValue
        case .double(let x): x.databaseValue
        case .bool(let x): (x ? 1 : 0 as Int64).databaseValue
        case .string(let x): x.databaseValue
        case .date(let d): d.timeIntervalSince1970.databaseValue
        case .uuid(let u): withUnsafeBytes(of: u.uuid) { Data($0) }.databaseValue
        case .bytes(let b): Data(b).databaseValue
        case .list, .map: (CollectionCoding.encode(v) ?? "").databaseValue
        }
    }

    // MARK: Workloads

    public func insertUsers(_ users: [UserInput], timer: OperationTimer) throws {
        try timer.unit(operations: users.count) {
            try write { db in
                let statement = try db.cachedStatement(sql: FloorSQL.insertUser)
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
        var sink = 0
        func readPost(_ db: Database, _ id: Int64) throws { sink &+= try Self.readPost(db, id) }
        if perTransaction <= 1 {
            try timer.each(ids.count) { i in try read { db in try readPost(db, ids[i]) } }
        } else {
            try timer.batches(ids.count, of: perTransaction) { r in try read { db in for i in r { try readPost(db, ids[i]) } } }
        }
        return sink
    }

    public func readPostConcurrently(_ id: Int64) throws -> Int {
        try opened().read { db in try Self.readPost(db, id) }
    }

    public func rereadPosts(_ hot: [Int64], rounds: Int, timer: OperationTimer) throws -> Int {
        var sink = 0
        try read { db in
            for _ in 0..<rounds {
                try timer.unit(operations: hot.count) {
                    for id in hot { sink &+= try Self.readPost(db, id) }
                }
            }
        }
        return sink
    }

    public func scanPosts(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk(FloorSQL.scanPostsSQL, timer: timer) { row in sink &+= Self.post(row).touch }
        return sink
    }

    public func insertRows(first: Int64, count: Int, timer: OperationTimer) throws {
        try timer.unit(operations: count) {
            try write { db in
                let statement = try db.cachedStatement(sql: FloorSQL.insertRow)
                for i in 0..<count {
                    let id = first &+ Int64(i)
                    let v = id &* 10
                    statement.setUncheckedArguments([id, v, v &+ 1, v &+ 2, v &+ 3, v &+ 4, v &+ 5, v &+ 6, v &+ 7, v &+ 8, v &+ 9])
                    try statement.execute()
                }
            }
        }
    }

    public func fetchRows(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk(FloorSQL.fetchRowsSQL, timer: timer) { row in
            sink &+= Touch.intRow { row[$0] as Int64? }  // the floors' and backends' checksum
        }
        return sink
    }

    // MARK: Helpers

    /// Post `id`, every field, folded into the checksum. The cursor lives while its row is read.
    private static func readPost(_ db: Database, _ id: Int64) throws -> Int {
        let statement = try db.cachedStatement(sql: FloorSQL.selectPost)
        statement.setUncheckedArguments([id])
        let rows = try Row.fetchCursor(statement)
        guard let row = try rows.next() else { throw BenchError("plain GRDB program: post \(id) not found") }
        return post(row).touch
    }

    /// Steps through every row of `sql` in one read access, timed as one span of one
    /// operation per row.
    private func walk(_ sql: String, timer: OperationTimer, _ body: (Row) -> Void) throws {
        var rows = 0
        let started = MonotonicClock.now()
        try read { db in
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

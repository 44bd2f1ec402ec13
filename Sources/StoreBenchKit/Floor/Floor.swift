import Foundation
import StoreCore

/// A bare C-API loop for one storage engine: the same work as a workload, written straight
/// against sqlite3 or LMDB with no abstraction, so each backend can be given as a multiple of
/// its engine's floor from the same run.
///
/// "The same work" means: the same transactions (one per operation where the workload opens
/// one per operation), the same tables, indexes and links (SQLite: the backend's DDL; LMDB: a
/// primary database per entity, a dupsort database per index and per side of each
/// relationship), the same durability, every field of what it fetches decoded into Swift
/// values (text into `String`s) and folded into the runner's checksum (`Touch`) exactly as the
/// backends' bodies fold it, and nothing more: no allocation per operation beyond the `String`s
/// it decodes (keys and values are built in reused buffers, statements and transaction
/// statements are prepared once). `FloorEqualWorkTests` holds every floor to this.
/// Thread safety: one floor per cell process, used by one thread.
public protocol Floor: AnyObject {
    /// The engine this floor measures: `sqlite` or `lmdb`.
    var engine: String { get }
    /// Read and write transactions begun so far, counted where the floor begins one (an LMDB
    /// write that grows the map and starts again counts twice).
    var transactionsBegun: Int { get }
    /// One write transaction of `memory.load`: stores `records` (tags, users, posts, comments),
    /// then `links`, as `SocialGenerator.write(_:_:into:)` stores them in a backend.
    func storeSocial(_ records: [Record], links: [SocialLink]) throws
    /// Stores rows `1…count` of the 10-integer shape, `SocialGenerator.rowsChunk` per write
    /// transaction, each transaction timed as a unit.
    func loadRows(_ g: SocialGenerator, count: Int, timer: OperationTimer) throws
    /// Inserts `users` in one write transaction, timed as one unit of `users.count` operations.
    func insertUsers(_ users: [UserInput], timer: OperationTimer) throws
    /// Reads posts by primary key, `perTransaction` per read transaction; returns the sink.
    func readPosts(_ ids: [Int64], perTransaction: Int, timer: OperationTimer) throws -> Int
    /// Reads the `hot` posts `rounds` times in one read transaction, each round timed as a unit.
    func rereadPosts(_ hot: [Int64], rounds: Int, timer: OperationTimer) throws -> Int
    /// Reads every post, every field, in one read transaction; one operation per post.
    func scanPosts(timer: OperationTimer) throws -> Int
    /// Inserts rows `first…first+count-1` in one write transaction.
    func insertRows(first: Int64, count: Int, timer: OperationTimer) throws
    /// Reads every row, every column, in one read transaction; one operation per row.
    func fetchRows(timer: OperationTimer) throws -> Int
    /// Runs each query in a read transaction of its own, timed one operation each
    /// (`OperationTimer.each`); returns the sum of what they read (`TouchRows`).
    func runQueries(_ queries: [FloorQuery], timer: OperationTimer) throws -> Int
    /// The digest of what the queries return (`DigestRows`, `endQuery` after each), read in one
    /// read transaction: the runner compares it with SQLite's backend on the same data.
    func queryDigest(_ queries: [FloorQuery]) throws -> String
    func close()
}

/// A program whose reads may run on several threads at once (a connection pool): it can run
/// the read-scaling workloads that name it.
public protocol ConcurrentReads: Floor {
    /// Reads post `id` in its own read transaction, every field touched (`Touch`), as
    /// `readPosts` does one; safe to call from several threads at once. Not counted in
    /// `transactionsBegun`.
    func readPostConcurrently(_ id: Int64) throws -> Int
}

extension Floor {
    /// Stores rows `1…count` through the floor's own insert loop, `SocialGenerator.rowsChunk`
    /// per transaction (each timed by `insertRows`).
    public func loadRows(_ g: SocialGenerator, count: Int, timer: OperationTimer) throws {
        for first in stride(from: 1, through: count, by: SocialGenerator.rowsChunk) {
            try insertRows(first: Int64(first), count: min(SocialGenerator.rowsChunk, count - first + 1), timer: timer)
        }
    }

    /// Stores the social dataset in the transactions `SocialGenerator.load` uses, timing only
    /// the transactions (the generator's work is outside the span), as one unit of
    /// `g.recordCount` operations.
    public func loadSocial(_ g: SocialGenerator, timer: OperationTimer) throws {
        var elapsed: UInt64 = 0
        try g.loadChunks { records, links in
            let start = MonotonicClock.now()
            try storeSocial(records, links: links)
            elapsed &+= MonotonicClock.now() &- start
        }
        timer.record(elapsed, operations: g.recordCount)
    }
}

/// A user's fields as plain Swift values, for the floors to bind.
public struct UserInput: Sendable {
    public var id: Int64
    public var username: String
    public var displayName: String
    public var email: String?
    public var age: Int64?
    public var score: Double
    public var active: Bool
    public var joinedAt: Double
    public var avatar: [UInt8]?
    public var externalID: UUID?

    public init(_ r: Record) {
        id = r[0].int64Value!
        username = r[1].stringValue!
        displayName = r[2].stringValue!
        email = r[3].stringValue
        age = r[4].int64Value
        score = r[5].doubleValue!
        active = r[6].boolValue!
        joinedAt = r[7].dateValue!.timeIntervalSince1970
        avatar = r[8].bytesValue
        externalID = r[9].uuidValue
    }
}

/// A post read by a floor: every field as a Swift value.
public struct PostOutput: Sendable {
    public var id: Int64
    public var title: String
    public var body: String
    public var score: Int64
    public var createdAt: Date
    public var rating: Double?
    public var published: Bool

    public init(id: Int64, title: String, body: String, score: Int64, createdAt: Date, rating: Double?, published: Bool) {
        self.id = id
        self.title = title
        self.body = body
        self.score = score
        self.createdAt = createdAt
        self.rating = rating
        self.published = published
    }

    /// Every field folded in attribute order, exactly as `Touch.row` folds a backend's `Post`.
    @inlinable public var touch: Int {
        var h = Touch.fold(0, Touch.int(id))
        h = Touch.fold(h, Touch.string(title))
        h = Touch.fold(h, Touch.string(body))
        h = Touch.fold(h, Touch.int(score))
        h = Touch.fold(h, Touch.date(createdAt))
        h = Touch.fold(h, rating.map(Touch.double) ?? Touch.null)
        return Touch.fold(h, Touch.bool(published))
    }
}

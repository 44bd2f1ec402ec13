import Foundation
import StoreCore

/// A bare C-API loop for one storage engine: the same work as a workload, written straight
/// against sqlite3 or LMDB with no abstraction, so each backend can be given as a multiple of
/// its engine's floor from the same run.
///
/// A floor stores what its workloads need (User, Post and Row tables, with the schema's
/// indexes) and reads every field of what it fetches into Swift values, as an application would.
/// Thread safety: one floor per cell process, used by one thread.
public protocol Floor: AnyObject {
    /// The engine this floor measures: `sqlite` or `lmdb`.
    var engine: String { get }
    /// Stores users and posts of the social dataset.
    func loadSocial(_ g: SocialGenerator) throws
    /// Stores rows `1…count` of the 10-integer shape.
    func loadRows(_ g: SocialGenerator, count: Int) throws
    /// Inserts `users` in one write transaction, timed as one unit of `users.count` operations.
    func insertUsers(_ users: [UserInput], timer: OperationTimer) throws
    /// Reads posts by primary key, `perTransaction` per read transaction; returns a sink value.
    func readPosts(_ ids: [Int64], perTransaction: Int, timer: OperationTimer) throws -> Int
    /// Reads every post, every field; counted as one operation per post.
    func scanPosts(timer: OperationTimer) throws -> Int
    /// Inserts rows `first…first+count-1` in one write transaction.
    func insertRows(first: Int64, count: Int, timer: OperationTimer) throws
    /// Reads every row, every column; counted as one operation per row.
    func fetchRows(timer: OperationTimer) throws -> Int
    func close()
}

extension Floor {
    /// Stores rows `1…count` through the floor's own insert loop, 10,000 per transaction.
    public func loadRows(_ g: SocialGenerator, count: Int) throws {
        let untimed = OperationTimer(minimumSpan: 0)
        for first in stride(from: 1, through: count, by: 10_000) {
            try insertRows(first: Int64(first), count: min(10_000, count - first + 1), timer: untimed)
        }
    }

    /// Stores every user through the floor's own insert loop, 5,000 per transaction.
    func loadUsers(_ g: SocialGenerator) throws {
        let untimed = OperationTimer(minimumSpan: 0)
        for first in stride(from: 1, through: g.users, by: 5_000) {
            try insertUsers((first...min(g.users, first + 4_999)).map { UserInput(g.user(Int64($0))) }, timer: untimed)
        }
    }
}

/// The engines with a floor, and how to open one.
public enum Floors {
    public static let engines = ["sqlite", "lmdb"]

    /// The floor of `engine`, over a store in `directory` (created when missing).
    public static func open(engine: String, directory: URL, durability: Durability) throws -> any Floor {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch engine {
        case "sqlite": return try SQLiteFloor(path: directory.appendingPathComponent("floor.sqlite").path, durability: durability)
        case "lmdb": return try LMDBFloor(directory: directory.path, durability: durability)
        default: throw BenchError("no floor for engine '\(engine)'; floors exist for \(engines.joined(separator: ", "))")
        }
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
    public var touch: Int {
        var h = Touch.fold(0, Touch.int(id))
        h = Touch.fold(h, Touch.string(title))
        h = Touch.fold(h, Touch.string(body))
        h = Touch.fold(h, Touch.int(score))
        h = Touch.fold(h, Touch.date(createdAt))
        h = Touch.fold(h, rating.map(Touch.double) ?? Touch.null)
        return Touch.fold(h, Touch.bool(published))
    }
}

import CBenchSupport
import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// The children of a shared-store trial (`SharedStoreTrial`), several processes on one store.
///
/// Writer `w` owns the keys `(w + 1) × 1,000,000 …`: its transaction `i` sets its head record's
/// `age` to `i` and inserts user and post `base + i`, the post linked to the user. So in any
/// committed state the head says `k` and exactly `k` users and `k` posts of the writer exist,
/// the newest post linked to its user: a reader that sees anything else saw a torn commit.
public enum SharedStoreChild {
    static let span: Int64 = 1_000_000

    static func base(_ writer: Int) -> Int64 { Int64(writer + 1) * span }

    /// Commits the writer's transactions from the store's head on, appending `ack N` to
    /// `acknowledgements` after each commit returned (one `write(2)`, `O_APPEND`), until killed.
    public static func write(_ backend: BackendDescriptor, directory: URL, writer: Int, acknowledgements: URL,
                             durability: Durability, limit: Int = 1_000_000) throws {
        _ = sb_die_with_parent(getppid())
        let acks = try AppendLog(acknowledgements)
        let store = try backend.open(SocialSchema.make(), directory, StoreOptions(durability: durability))
        defer { try? store.close() }
        let start = try store.read { try head($0, writer) }
        for i in (start + 1)...max(start + 1, limit) {
            try store.write { tx in try transaction(tx, writer: writer, index: i) }
            try acks.append("ack \(i)")
        }
    }

    /// Deletes the writer's head record in one transaction (what a test observes from elsewhere).
    public static func deleteHead(_ backend: BackendDescriptor, directory: URL, writer: Int, durability: Durability) throws {
        let store = try backend.open(SocialSchema.make(), directory, StoreOptions(durability: durability))
        defer { try? store.close() }
        try store.write { tx in try tx.delete("User", id: .int64(base(writer))) }
    }

    /// Checks every writer's records against its head in one read transaction after another,
    /// appending a line to `progress` every 20 checks, until killed; throws at the first torn state.
    public static func read(_ backend: BackendDescriptor, directory: URL, writers: Int, progress: URL,
                            durability: Durability) throws {
        _ = sb_die_with_parent(getppid())
        let log = try AppendLog(progress)
        let store = try backend.open(SocialSchema.make(), directory, StoreOptions(durability: durability))
        defer { try? store.close() }
        for n in 1... {
            if let problem = try store.read({ try check($0, writers: writers).problem }) {
                throw StoreError(.corrupted, "a reader saw a torn state: \(problem)")
            }
            if n % 20 == 0 { try log.append("20") }
        }
    }

    /// Transaction `index` of `writer`.
    static func transaction(_ tx: any WriteTransaction, writer: Int, index i: Int) throws {
        let s = tx.schema, b = base(writer), key = Value.int64(b + Int64(i))
        try tx.upsert(try s.entity("User").record(["id": .int64(b), "username": .string("writer-\(writer)"), "displayName": "head",
                                                   "joinedAt": .date(Date(timeIntervalSince1970: 0)), "age": .int64(Int64(i))]))
        try tx.insert(try s.entity("User").record(["id": key, "username": .string("w\(writer)-\(i)"),
                                                   "displayName": .string(String(repeating: "x", count: 40 + i % 300)),
                                                   "joinedAt": .date(Date(timeIntervalSince1970: Double(i)))]))
        try tx.insert(try s.entity("Post").record(["id": key, "title": .string("post \(i) of writer \(writer)"),
                                                   "createdAt": .date(Date(timeIntervalSince1970: Double(i)))]))
        try tx.link("Post", id: key, "author", to: key)
    }

    /// The writer's last committed transaction (0 before its first).
    static func head(_ tx: any ReadTransaction, _ writer: Int) throws -> Int {
        guard let r = try tx.fetch("User", id: .int64(base(writer))), case .int64(let k) = r["age"] else { return 0 }
        return Int(k)
    }

    /// Every writer's head, and the first disagreement between a head and the writer's records.
    public static func check(_ tx: any ReadTransaction, writers: Int) throws -> (heads: [Int], problem: String?) {
        var heads: [Int] = []
        for w in 0..<writers {
            let k = try head(tx, w), b = base(w)
            heads.append(k)
            let own = KeyPathExpression("id") > .int64(b) && KeyPathExpression("id") < .int64(b + span)
            let users = try tx.count(Query("User", where: own)), posts = try tx.count(Query("Post", where: own))
            if users != k || posts != k {
                return (heads, "writer \(w)'s head says \(k) commits; its users number \(users) and its posts \(posts)")
            }
            let newest = Value.int64(b + Int64(k))
            if k > 0, try tx.related("Post", id: newest, via: "author").map(\.id) != [newest] {
                return (heads, "writer \(w)'s post \(newest) is not linked to its user")
            }
        }
        return (heads, nil)
    }
}

import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// The seeded transactions of a crash trial, over the kit's social schema. Transaction `i` of
/// seed `s` is always the same list of operations, whatever the store holds; an operation
/// that does not apply (a missing record, a taken key, a `deny` rule) fails on its own and the
/// transaction goes on, so replaying transactions 1…n on a fresh store of the same backend
/// gives exactly the state after the n-th commit.
///
/// Keys are drawn from small ranges so operations meet: inserts collide, links reach records
/// that exist, deletes cascade through what earlier transactions built. Some values are large
/// (LMDB overflow pages, SQLite overflow chains).
public enum TortureWorkload {
    /// The operations of transaction `index` (1-based) of `seed`, run inside `tx`.
    /// Rethrows only unexpected errors.
    public static func run(seed: UInt64, index: Int, in tx: any WriteTransaction) throws {
        var rng = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let s = tx.schema
        let count = rng.chance(0.1) ? 20 + rng.below(40) : 1 + rng.below(6)
        for _ in 0..<count { try tolerated { try operation(&rng, s, tx) } }
    }

    // MARK: Internal helpers

    private static let users = 150, posts = 500, comments = 700, tags = 20

    private static func operation(_ rng: inout SplitMix64, _ s: Schema, _ tx: any WriteTransaction) throws {
        switch rng.below(16) {
        case 0, 1: try tx.insert(user(&rng, s, id: 1 + rng.below(users)))
        case 2: try tx.upsert(user(&rng, s, id: 1 + rng.below(users)))
        case 3, 4:
            let id = 1 + rng.below(posts)
            try tx.upsert(post(&rng, s, id: id))
            try tx.link("Post", id: .int64(Int64(id)), "author", to: .int64(Int64(1 + rng.below(users))))
        case 5:
            let id = 1 + rng.below(comments)
            try tx.insert(try s.entity("Comment").record([
                "id": .int64(Int64(id)), "text": .string(text(&rng, 200)), "createdAt": .date(date(&rng)),
            ]))
            try tx.link("Comment", id: .int64(Int64(id)), "post", to: .int64(Int64(1 + rng.below(posts))))
            if rng.chance(0.5) { try tx.link("Comment", id: .int64(Int64(id)), "author", to: .int64(Int64(1 + rng.below(users)))) }
            if rng.chance(0.3) { try tx.link("Comment", id: .int64(Int64(id)), "parent", to: .int64(Int64(1 + rng.below(comments)))) }
        case 6: try tx.upsert(try s.entity("Tag").record(["name": .string("t\(rng.below(tags))"), "color": rng.chance(0.5) ? .string("red") : .null]))
        case 7: try tx.link("Post", id: .int64(Int64(1 + rng.below(posts))), "tags", to: .string("t\(rng.below(tags))"))
        case 8: try tx.unlink("Post", id: .int64(Int64(1 + rng.below(posts))), "tags", from: .string("t\(rng.below(tags))"))
        case 9: try tx.link("User", id: .int64(Int64(1 + rng.below(users))), "following", to: .int64(Int64(1 + rng.below(users))))
        case 10:
            try tx.update("User", id: .int64(Int64(1 + rng.below(users))),
                          set: ["score": .double(Double(rng.below(1000)) / 8), "age": rng.chance(0.2) ? .null : .int64(Int64(rng.below(90)))])
        case 11:
            let ids = (0..<(2 + rng.below(30))).map { _ in 1 + rng.below(posts) }
            try tx.insert(contentsOf: try Set(ids).sorted().map { try post(&rng, s, id: $0) })
        case 12: _ = try tx.update("Post", where: KeyPathExpression("score") > .int64(Int64(rng.below(100))), set: ["published": .bool(rng.chance(0.5))])
        case 13:
            let user = 1 + rng.below(users)
            let profile = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", user))!
            try tx.upsert(try s.entity("Profile").record(["id": .uuid(profile), "bio": .string(text(&rng, 80))]))
            try tx.link("User", id: .int64(Int64(user)), "profile", to: .uuid(profile))
        case 14:
            switch rng.below(4) {
            case 0: try tx.delete("User", id: .int64(Int64(1 + rng.below(users))))
            case 1: try tx.delete("Post", id: .int64(Int64(1 + rng.below(posts))))
            case 2: try tx.delete("Tag", id: .string("t\(rng.below(tags))"))
            default: try tx.delete("Comment", id: .int64(Int64(1 + rng.below(comments))))
            }
        default: _ = try tx.delete("Comment", where: KeyPathExpression("id") > .int64(Int64(comments - rng.below(20))))
        }
    }

    /// Runs `body`, absorbing the errors an operation that does not apply gives.
    private static func tolerated(_ body: () throws -> Void) throws {
        do { try body() } catch let e as StoreError where [.notFound, .conflict, .constraintViolation].contains(e.category) {}
    }

    private static func user(_ rng: inout SplitMix64, _ s: Schema, id: Int) throws -> Record {
        try s.entity("User").record([
            "id": .int64(Int64(id)), "username": .string("user\(id)"), "displayName": .string(text(&rng, 40)),
            "email": rng.chance(0.5) ? .string("u\(id)@example.org") : .null,
            "age": rng.chance(0.7) ? .int64(Int64(rng.below(90))) : .null,
            "score": .double(Double(rng.below(1000)) / 4), "active": .bool(rng.chance(0.8)), "joinedAt": .date(date(&rng)),
            // Now and then larger than a page: overflow pages and chains.
            "avatar": rng.chance(0.2) ? .bytes((0..<(rng.chance(0.3) ? 4_000 + rng.below(9_000) : rng.below(600))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }) : .null,
            "externalID": rng.chance(0.3) ? .uuid(UUID(uuid: uuid(&rng))) : .null,
        ])
    }

    private static func post(_ rng: inout SplitMix64, _ s: Schema, id: Int) throws -> Record {
        try s.entity("Post").record([
            "id": .int64(Int64(id)), "title": .string(text(&rng, 60)),
            "body": .string(text(&rng, rng.chance(0.1) ? 6_000 : 500)), "score": .int64(Int64(rng.below(200))),
            "createdAt": .date(date(&rng)), "rating": rng.chance(0.5) ? .double(Double(rng.below(50)) / 10) : .null,
            "published": .bool(rng.chance(0.5)),
        ])
    }

    private static func text(_ rng: inout SplitMix64, _ maxLength: Int) -> String {
        let words = ["café", "lmdb", "sqlite", "swift", "ü", "tree", "page", "日本", "commit", "x"]
        var out = ""
        let n = rng.below(maxLength + 1)
        while out.utf8.count < n { out += rng.pick(words) + " " }
        return out
    }

    private static func date(_ rng: inout SplitMix64) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + Double(rng.below(10_000_000))) }

    private static func uuid(_ rng: inout SplitMix64) -> uuid_t {
        let a = rng.next(), b = rng.next()
        return withUnsafeBytes(of: (a, b)) { p in p.load(as: uuid_t.self) }
    }
}

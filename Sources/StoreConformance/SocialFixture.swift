import Foundation
import StoreCore

/// The small, hand-checked data set most cases start from. Expected results in the cases
/// are written against it, so change it only together with them.
///
/// Users: 1 ann (age 30), 2 bob (25), 3 emile (nil), 4 zoe (30), 5 chloe (41).
/// Posts: 10 "Café au lait" (ann), 11 "ÉCOLE normale" (ann), 12 "Swift concurrency" (bob),
/// 13 "straße names" (emile), 14 "Learning swift" (zoe), 15 "naïve résumé" (no author).
/// Tags: Unicode, cafe, db, swift. Comments 100←101←102 on post 10, 103 on 12, 104 on 13.
/// Profiles: P1 (ann), P2 (bob). Follows: ann→bob, ann→zoe, bob→ann, emile→ann.
/// Badges: none (a badge would make its profile, and through the cascade its user, undeletable);
/// the cases that need one add it.
public enum SocialFixture {
    public static let epoch = Date(timeIntervalSince1970: 1_700_000_000)
    public static let profile1 = UUID(uuidString: "00000000-0000-0000-0000-0000000000A1")!
    public static let profile2 = UUID(uuidString: "00000000-0000-0000-0000-0000000000B2")!

    static func date(_ offset: Double) -> Value { .date(epoch.addingTimeInterval(offset)) }

    public static func users(_ s: Schema) throws -> [Record] {
        let u = try s.entity("User")
        return try [
            u.record(["id": 1, "username": "ann", "displayName": "Ann Lee", "email": "ann@example.com", "age": 30, "score": 4.5, "active": true, "joinedAt": date(1)]),
            u.record(["id": 2, "username": "bob", "displayName": "Bob Stone", "age": 25, "score": 2.0, "active": false, "joinedAt": date(2)]),
            u.record(["id": 3, "username": "emile", "displayName": "Émile Zola", "email": "emile@example.fr", "score": 3.0, "active": true, "joinedAt": date(3)]),
            u.record(["id": 4, "username": "zoe", "displayName": "Zoë Café", "age": 30, "score": 4.5, "active": true, "joinedAt": date(4)]),
            u.record(["id": 5, "username": "chloe", "displayName": "CHLOÉ Straße", "email": "c@example.de", "age": 41, "score": 1.0, "active": false, "joinedAt": date(5)]),
        ]
    }

    public static func posts(_ s: Schema) throws -> [Record] {
        let p = try s.entity("Post")
        return try [
            p.record(["id": 10, "title": "Café au lait", "body": "milk", "score": 5, "createdAt": date(10), "rating": 4.0, "published": true]),
            p.record(["id": 11, "title": "ÉCOLE normale", "body": "school", "score": 3, "createdAt": date(11), "published": true]),
            p.record(["id": 12, "title": "Swift concurrency", "body": "actors", "score": 8, "createdAt": date(12), "rating": 3.5, "published": false]),
            p.record(["id": 13, "title": "straße names", "body": "german", "score": 3, "createdAt": date(13), "rating": 2.0, "published": true]),
            p.record(["id": 14, "title": "Learning swift", "body": "basics", "score": 1, "createdAt": date(14), "published": false]),
            p.record(["id": 15, "title": "naïve résumé", "body": "accents", "score": 5, "createdAt": date(15), "rating": 5.0, "published": true]),
        ]
    }

    /// Loads the whole fixture in one write transaction.
    public static func load(into repo: any Repository) throws {
        let s = repo.schema
        try repo.write { tx in
            try tx.insert(contentsOf: try users(s))
            try tx.insert(contentsOf: try posts(s))
            let tag = try s.entity("Tag")
            for (name, color) in [("Unicode", Value.string("blue")), ("cafe", .null), ("db", "green"), ("swift", "orange")] {
                try tx.insert(try tag.record(["name": .string(name), "color": color]))
            }
            let c = try s.entity("Comment")
            for (id, text, off) in [(100, "Great", 100.0), (101, "Merci", 101), (102, "Ja", 102), (103, "Nice", 103), (104, "Hmm", 104)] {
                try tx.insert(try c.record(["id": .int64(Int64(id)), "text": .string(text), "createdAt": date(off)]))
            }
            let pr = try s.entity("Profile")
            try tx.insert(try pr.record(["id": .uuid(profile1), "bio": "I write"]))
            try tx.insert(try pr.record(["id": .uuid(profile2)]))

            for (post, user) in [(10, 1), (11, 1), (12, 2), (13, 3), (14, 4)] {
                try tx.link("Post", id: .int64(Int64(post)), "author", to: .int64(Int64(user)))
            }
            for (post, tags) in [(10, ["cafe", "Unicode"]), (11, ["Unicode"]), (12, ["swift", "db"]), (13, ["Unicode"]), (14, ["swift"])] {
                for t in tags { try tx.link("Post", id: .int64(Int64(post)), "tags", to: .string(t)) }
            }
            for (comment, post, author, parent) in [(100, 10, 2, 0), (101, 10, 3, 100), (102, 10, 5, 101), (103, 12, 1, 0), (104, 13, 1, 0)] {
                try tx.link("Comment", id: .int64(Int64(comment)), "post", to: .int64(Int64(post)))
                try tx.link("Comment", id: .int64(Int64(comment)), "author", to: .int64(Int64(author)))
                if parent != 0 { try tx.link("Comment", id: .int64(Int64(comment)), "parent", to: .int64(Int64(parent))) }
            }
            try tx.link("User", id: 1, "profile", to: .uuid(profile1))
            try tx.link("Profile", id: .uuid(profile2), "user", to: 2)
            for (a, b) in [(1, 2), (1, 4), (2, 1), (3, 1)] {
                try tx.link("User", id: .int64(Int64(a)), "following", to: .int64(Int64(b)))
            }
        }
    }
}

extension ConformanceContext {
    /// Loads `SocialFixture` into the store.
    public func seed() throws { try SocialFixture.load(into: try repository) }
}

/// Shorthand for int64 key lists in expectations.
func ids(_ xs: Int...) -> [Value] { xs.map { .int64(Int64($0)) } }

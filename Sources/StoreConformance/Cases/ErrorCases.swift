import Foundation
import StoreCore

/// Errors: each category where it applies (upserts and unique values, nil in required
/// attributes on every write path, unknown entities in writes, unlinks of missing records, every
/// call on a closed store), and bad input leaving stored data unchanged.
enum ErrorCases {
    static func seeded(_ name: String, _ body: @escaping @Sendable (ConformanceContext) throws -> Void) -> ConformanceCase {
        .seeded("errors", name) { ctx in
            let before = try ctx.dump()
            try body(ctx)
            try ctx.expectEqual(try ctx.dump(), before, "store after the refused operations")
        }
    }

    static func user(_ ctx: ConformanceContext, _ changes: [String: Value]) throws -> Record {
        var r = try CRUDCases.newUser(ctx, 6, "frank")
        for (k, v) in changes { r[k] = v }
        return r
    }

    static let all: [ConformanceCase] = [
        seeded("unknownEntity") { ctx in
            try ctx.expectError(.invalidValue, "fetching from entity 'Nope'") { _ = try ctx.read { try $0.fetch("Nope", id: 1) } }
            try ctx.expectError(.invalidQuery, "querying entity 'Nope'") { _ = try ctx.read { try $0.fetch(Query("Nope")) } }
            try ctx.expectError(.invalidValue, "deleting from entity 'Nope'") { try ctx.write { try $0.delete("Nope", id: 1) } }
        },
        seeded("unknownAttribute") { ctx in
            try ctx.expectError(.invalidQuery, "a query on attribute 'nope'") { _ = try ctx.ids("User", "nope == 1") }
            try ctx.expectError(.invalidQuery, "sorting by 'nope'") { _ = try ctx.ids(Query("User", sort: [.asc("nope")])) }
            try ctx.expectError(.invalidValue, "updating attribute 'nope'") {
                try ctx.write { try $0.update("User", id: 1, set: ["nope": 1]) }
            }
            try ctx.expectError(.invalidValue, "a record with attribute 'nope'") { _ = try ctx.record("User", ["nope": 1]) }
            try ctx.expectError(.invalidValue, "linking through relationship 'nope'") {
                try ctx.write { try $0.link("User", id: 1, "nope", to: 2) }
            }
        },
        seeded("wrongValueType") { ctx in
            try ctx.expectError(.invalidValue, "username given as an integer") {
                try ctx.write { try $0.insert(try user(ctx, ["username": 5])) }
            }
            try ctx.expectError(.invalidValue, "age given as a string") { try ctx.write { try $0.update("User", id: 1, set: ["age": "old"]) } }
            try ctx.expectError(.invalidValue, "a string key for an int64 primary key") { _ = try ctx.read { try $0.fetch("User", id: "1") } }
            try ctx.expectError(.invalidValue, "a record with too few values") {
                try ctx.write { try $0.insert(Record(try ctx.entity("User"), values: [6])) }
            }
            try ctx.expectError(.invalidValue, "a batch whose last record has a wrong type") {
                try ctx.write { try $0.insert(contentsOf: [try user(ctx, [:]), try user(ctx, ["id": 7, "username": "g", "active": "yes"])]) }
            }
        },
        seeded("nanIsRejected") { ctx in
            try ctx.expectError(.invalidValue, "inserting score NaN") { try ctx.write { try $0.insert(try user(ctx, ["score": .double(.nan)])) } }
            try ctx.expectError(.invalidValue, "updating score to NaN") {
                try ctx.write { try $0.update("User", id: 1, set: ["score": .double(.nan)]) }
            }
            try ctx.expectError(.invalidQuery, "comparing with NaN") { _ = try ctx.ids(Query("User", where: "score" == .double(.nan))) }
        },
        seeded("oversizedKeyAndValue") { ctx in
            let longKey = String(repeating: "k", count: Limits.maxKeyBytes + 1)
            try ctx.expectError(.invalidValue, "a \(longKey.utf8.count)-byte string key") {
                try ctx.write { try $0.insert(try ctx.record("Tag", ["name": .string(longKey)])) }
            }
            let big = String(repeating: "x", count: Limits.maxValueBytes + 1)
            try ctx.expectError(.invalidValue, "a \(big.utf8.count)-byte string value") {
                try ctx.write { try $0.update("Post", id: 10, set: ["body": .string(big)]) }
            }
            try ctx.expectError(.invalidValue, "a value over the limit in bytes") {
                try ctx.write { try $0.insert(try user(ctx, ["avatar": .bytes(Array(repeating: 1, count: Limits.maxValueBytes + 1))])) }
            }
        },
        seeded("requiredNilIsConstraintViolation") { ctx in
            try ctx.expectError(.constraintViolation, "inserting a user without a username") {
                try ctx.write { try $0.insert(try user(ctx, ["username": nil])) }
            }
            try ctx.expectError(.constraintViolation, "setting a post's title to nil") {
                try ctx.write { try $0.update("Post", id: 10, set: ["title": nil]) }
            }
            try ctx.expectError(.invalidValue, "a nil primary key") { _ = try ctx.read { try $0.fetch("User", id: nil) } }
        },
        seeded("primaryKeyCannotBeUpdated") { ctx in
            try ctx.expectError(.invalidValue, "updating User 1's id") { try ctx.write { try $0.update("User", id: 1, set: ["id": 9]) } }
            try ctx.expectError(.invalidValue, "update-where on the id") {
                try ctx.write { _ = try $0.update("User", where: .all, set: ["id": 9]) }
            }
        },
        seeded("malformedPredicateStrings") { ctx in
            for (text, position) in [("age >", 5), ("age > > 3", 6), ("(age > 3", 8), ("age >< 3", 5), ("age > 'x", 6), ("", 0),
                                     ("age == 3 AND", 12), ("ANY", 3), ("title CONTAINS[x] 'a'", 15), ("age BETWEEN {1}", 4)] {
                let e = try ctx.expectError(.invalidQuery, "parsing \"\(text)\"") { _ = try StorePredicate(format: text) }
                try ctx.expectEqual(e.position, position, "error position for \"\(text)\" (\(e.message))")
            }
            try ctx.expectError(.invalidQuery, "too few arguments") { _ = try StorePredicate(format: "age > %@") }
            try ctx.expectError(.invalidQuery, "too many arguments") { _ = try StorePredicate(format: "age > 1", 2) }
        },
        seeded("invalidQueriesAreRefused") { ctx in
            let bad: [(String, String)] = [
                ("User", "age == 'thirty'"), ("User", "username > 3"), ("User", "age CONTAINS '3'"), ("User", "age ==[c] 3"),
                ("Post", "tags.name == 'swift'"), ("Post", "ANY title == 'x'"), ("User", "posts.@count == 'many'"),
                ("User", "posts > 3"), ("Post", "author > 1"), ("User", "username < nil"), ("User", "following.posts.title == 'x'"),
            ]
            for (entity, text) in bad {
                try ctx.expectError(.invalidQuery, "\(entity) where \(text)") { _ = try ctx.ids(entity, text) }
            }
            try ctx.expectError(.invalidQuery, "limit -1") { _ = try ctx.ids(Query("User", limit: -1)) }
            try ctx.expectError(.invalidQuery, "offset -1") { _ = try ctx.ids(Query("User", offset: -1)) }
            try ctx.expectError(.invalidQuery, "sorting through a to-many") { _ = try ctx.ids(Query("User", sort: [.asc("posts.title")])) }
            try ctx.expectError(.invalidQuery, "update-where with a bad predicate") {
                try ctx.write { _ = try $0.update("User", where: "age" == "x", set: ["age": 1]) }
            }
        },
        seeded("badInputInsideAWriteKeepsEarlierWork") { ctx in
            // Each refused operation is undone alone; the caller decides about the rest.
            let extra = try user(ctx, [:])
            try ctx.write { tx in
                try tx.insert(extra)
                for attempt in [{ try tx.insert(try user(ctx, ["id": 8, "score": .double(.nan)])) },
                                { try tx.update("User", id: 1, set: ["age": "x"]) },
                                { try tx.delete("Tag", id: "swift") },
                                { _ = try tx.fetch(try Query("User", format: "age >")) }] as [() throws -> Void] {
                    do { try attempt(); throw ConformanceFailure("bad input was accepted") } catch is StoreError {}
                }
                try tx.delete("User", id: 6)
            }
        },
        ConformanceCase("errors", "closedStoreRefusesWork") { ctx in
            let repo = try ctx.repository
            try repo.close()
            try ctx.expectError(.closed, "reading a closed store") { _ = try repo.read { try $0.count(Query("User")) } }
            try ctx.expectError(.closed, "writing a closed store") { try repo.write { try $0.delete("User", id: 1) } }
            try repo.close()   // idempotent
        },
        seeded("upsertMayNotTakeAUniqueValue") { ctx in
            // An upsert is checked against unique indexes like an insert: it never replaces
            // another record that holds the value.
            try ctx.expectError(.conflict, "upserting a new user with username 'ann'") { try ctx.write { try $0.upsert(try user(ctx, ["username": "ann"])) } }
            var bob = try ctx.read { try $0.fetch("User", id: 2) }!
            bob["username"] = "ann"
            try ctx.expectError(.conflict, "upserting bob with username 'ann'") { try ctx.write { try $0.upsert(bob) } }
        },
        seeded("requiredNilOnEveryWritePath") { ctx in
            // nil in a required attribute is constraintViolation whichever write carries it.
            var ann = try ctx.read { try $0.fetch("User", id: 1) }!
            ann["username"] = nil
            try ctx.expectError(.constraintViolation, "upserting ann without a username") { try ctx.write { try $0.upsert(ann) } }
            try ctx.expectError(.constraintViolation, "upserting a new user without a displayName") {
                try ctx.write { try $0.upsert(try user(ctx, ["displayName": nil])) }
            }
            try ctx.expectError(.constraintViolation, "update-where setting the posts' title to nil") {
                try ctx.write { _ = try $0.update("Post", where: "published" == true, set: ["title": nil]) }
            }
            try ctx.expectError(.constraintViolation, "update-where setting joinedAt to nil with an age") {
                try ctx.write { _ = try $0.update("User", where: .all, set: ["joinedAt": nil, "age": 1]) }
            }
            try ctx.expectError(.constraintViolation, "a batch whose second user has no displayName") {
                try ctx.write { try $0.insert(contentsOf: [try user(ctx, [:]), try user(ctx, ["id": 7, "username": "g", "displayName": nil])]) }
            }
            try ctx.expectError(.constraintViolation, "a user built without its join date") {
                try ctx.write { try $0.insert(try ctx.record("User", ["id": 8, "username": "h", "displayName": "H"])) }
            }
        },
        seeded("writesNamingUnknownEntities") { ctx in
            // A write naming an entity the schema lacks is invalidValue, and a batch holding one
            // stores nothing.
            let ghost = try Schema(version: 1, entities: [EntityDescription("Ghost", primaryKey: "id", attributes: [Attribute("id", .int64)])])
                .entity("Ghost").record(["id": 1])
            try ctx.expectError(.invalidValue, "inserting a record of an unknown entity") { try ctx.write { try $0.insert(ghost) } }
            try ctx.expectError(.invalidValue, "upserting a record of an unknown entity") { try ctx.write { try $0.upsert(ghost) } }
            try ctx.expectError(.invalidValue, "a batch ending with a record of an unknown entity") {
                try ctx.write { try $0.insert(contentsOf: [try user(ctx, [:]), ghost]) }
            }
            try ctx.expectError(.invalidValue, "updating Ghost 1") { try ctx.write { try $0.update("Ghost", id: 1, set: [:]) } }
            try ctx.expectError(.invalidValue, "linking from Ghost 1") { try ctx.write { try $0.link("Ghost", id: 1, "posts", to: 10) } }
            try ctx.expectError(.invalidValue, "unlinking from Ghost 1") { try ctx.write { try $0.unlink("Ghost", id: 1, "posts", from: 10) } }
        },
        seeded("unlinkOfMissingRecords") { ctx in
            // Unlinking from a missing record is notFound; a missing target is a link that does
            // not exist, so unlinking it does nothing.
            try ctx.expectError(.notFound, "unlinking from missing Post 99") { try ctx.write { try $0.unlink("Post", id: 99, "tags", from: "db") } }
            try ctx.expectError(.notFound, "unlinking from missing Tag 'nope'") { try ctx.write { try $0.unlink("Tag", id: "nope", "posts", from: 10) } }
            try ctx.expectError(.notFound, "unlinking missing User 99's profile") {
                try ctx.write { try $0.unlink("User", id: 99, "profile", from: .uuid(SocialFixture.profile1)) }
            }
            try ctx.write { tx in
                try tx.unlink("Post", id: 10, "tags", from: "nope")
                try tx.unlink("Post", id: 10, "author", from: 99)
            }
        },
        ConformanceCase("errors", "closedStoreRefusesEveryCall") { ctx in
            // After close(), every call is `closed`, verify() included; close() again does nothing.
            try ctx.seed()
            let repo = try ctx.repository
            try repo.close()
            try ctx.expectError(.closed, "verify() on a closed store") { _ = try repo.verify() }
            try ctx.expectError(.closed, "reading a closed store") { _ = try repo.read { try $0.fetch("User", id: 1) } }
            try ctx.expectError(.closed, "writing a closed store") { try repo.write { try $0.update("User", id: 1, set: ["age": 1]) } }
            try repo.close()
            try ctx.expectEqual(repo.schema.entities.map(\.name), ctx.schema.entities.map(\.name), "entities of a closed store's schema")
            if repo.capabilities.contains(.persistence) {
                try ctx.reopen()
                try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 1)?["age"] }, 30, "ann's age after reopening")
            }
        },
        // Added after the held-back measurement (numericStringCoercedToInteger).
        ConformanceCase("errors", "numbersInStringsAreNotNumbers") { ctx in
            try ctx.seed()
            let before = try ctx.dump()
            try ctx.expectError(.invalidValue, "update of an int64 attribute with \"42\"") {
                try ctx.write { try $0.update("User", id: 2, set: ["age": "42"]) }
            }
            try ctx.expectError(.invalidValue, "update-where of an int64 attribute with \"42\"") {
                try ctx.write { _ = try $0.update("User", where: "id" == 2, set: ["age": "42"]) }
            }
            let user = try ctx.entity("User")
            var values = try CRUDCases.newUser(ctx, 2000, "x").values
            values[user.attributes.firstIndex { $0.name == "age" }!] = .string("42")
            try ctx.expectError(.invalidValue, "insert with \"42\" in an int64 attribute") {
                try ctx.write { try $0.insert(Record(user, values: values)) }
            }
            try ctx.expectError(.invalidValue, "upsert with \"2.5\" in a double attribute") {
                var v = try CRUDCases.newUser(ctx, 2001, "y").values
                v[user.attributes.firstIndex { $0.name == "score" }!] = .string("2.5")
                try ctx.write { try $0.upsert(Record(user, values: v)) }
            }
            try ctx.expectEqual(try ctx.dump(), before, "store after the refused writes")
        },
    ]
}

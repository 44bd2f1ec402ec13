import Foundation
import StoreCore

/// Migrations: every kind of step, chains of versions, failures that leave the old version,
/// data, indexes and relationships intact afterwards, the too-new store and delete-and-recreate.
/// Each case seeds version 1 of the kit schema, then opens it with a later one and a plan.
enum MigrationCases {
    typealias S = MigrationSupport

    static let all: [ConformanceCase] = lightweight + custom + versions + names

    static let lightweight: [ConformanceCase] = [
        ConformanceCase.seeded("migrations", "addOptionalAttribute", requires: S.needs) { ctx in
            let before = try S.others(ctx, but: ["User"])
            let v2 = try S.schema(2) { $0[0].attributes.append(Attribute("nickname", .string, optional: true)) }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            try ctx.expectEqual(try S.others(ctx, but: ["User"]), before, "everything but User after adding User.nickname")
            let users = try ctx.read { try $0.fetch(Query("User")) }
            try ctx.expectEqual(users.map { $0["nickname"] }, Array(repeating: .null, count: 5), "nickname of the existing users")
            try ctx.expectEqual(users.map { $0["username"] }, ["ann", "bob", "emile", "zoe", "chloe"], "usernames kept")
            try ctx.write { try $0.update("User", id: 1, set: ["nickname": "annie"]) }
            try ctx.reopen()
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 1)?["nickname"] }, "annie", "nickname written after the migration")
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "addAttributeWithDefault", requires: S.needs) { ctx in
            let v2 = try S.schema(2) {
                $0[0].attributes.append(Attribute("level", .int64, default: 1))
                $0[0].indexes.append(IndexDescription(["level"]))
            }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            try ctx.expectEqual(try ctx.read { try $0.fetch(Query("User")) }.map { $0["level"] }, Array(repeating: 1, count: 5), "level of the existing users")
            try ctx.write { try $0.update("User", id: 2, set: ["level": 3]) }
            try S.expectAgreesWithScan(ctx, "User", "level == %@", [.int(1)]) { $0["level"] == 1 }
            try S.expectFixtureLinks(ctx)
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "fillOverridesTheDefault", requires: S.needs) { ctx in
            let v2 = try S.schema(2) { $0[1].attributes.append(Attribute("views", .int64, default: 0)) }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2).filling("views", of: "Post", with: 7)))
            try ctx.expectEqual(try ctx.read { try $0.fetch(Query("Post")) }.map { $0["views"] }, Array(repeating: 7, count: 6), "views of the existing posts")
            try ctx.write { try $0.insert(try ctx.record("Post", ["id": 99, "title": "new", "createdAt": .date(SocialFixture.epoch)])) }
            try ctx.expectEqual(try ctx.read { try $0.fetch("Post", id: 99)?["views"] }, 0, "a new post takes the default, not the fill")
        },
        ConformanceCase.seeded("migrations", "newRequiredAttributeNeedsAValue", requires: S.needs) { ctx in
            let before = try ctx.dump()
            let v2 = try S.schema(2) { $0[0].attributes.append(Attribute("country", .string)) }
            try ctx.expectError(.invalidSchema, "adding a required attribute with no default, fill or transform") {
                try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            }
            try S.expectUnchanged(ctx, before)
        },
        ConformanceCase.seeded("migrations", "removeAttribute", requires: S.needs) { ctx in
            let before = try S.others(ctx, but: ["User"])
            let v2 = try S.schema(2) { S.removeAttribute(&$0, "User", "email") }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            try ctx.expectEqual(try S.others(ctx, but: ["User"]), before, "everything but User after removing User.email")
            let users = try ctx.read { try $0.fetch(Query("User")) }
            try ctx.expectEqual(users.map { $0.values.count }, Array(repeating: 9, count: 5), "attributes per user")
            try ctx.expectEqual(users.map { $0["displayName"] }, ["Ann Lee", "Bob Stone", "Émile Zola", "Zoë Café", "CHLOÉ Straße"], "display names kept")
            try ctx.expectEqual(users.map { $0["age"] }, [30, 25, nil, 30, 41], "ages kept")
            try S.expectFixtureLinks(ctx)
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "renameAttribute", requires: S.needs) { ctx in
            let v2 = try S.schema(2) {
                S.attribute(&$0, "User", "username") { $0.name = "handle" }
                $0[0].indexes[0] = IndexDescription(["handle"], unique: true)
            }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2).renamingAttribute("username", to: "handle", of: "User")))
            try ctx.expectEqual(try ctx.read { try $0.fetch(Query("User")) }.map { $0["handle"] }, ["ann", "bob", "emile", "zoe", "chloe"], "handles")
            try S.expectAgreesWithScan(ctx, "User", "handle BEGINSWITH %@", [.string("e")]) { $0["handle"].stringValue?.hasPrefix("e") == true }
            try ctx.expectError(.conflict, "the unique index follows the renamed attribute") {
                try ctx.write { try $0.insert(try ctx.record("User", ["id": 9, "handle": "ann", "displayName": "x", "joinedAt": .date(SocialFixture.epoch)])) }
            }
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "renameEntity", requires: S.needs) { ctx in
            let before = try S.lines(ctx, "Tag")
            let v2 = try S.schema(2) {
                let t = S.index($0, "Tag")
                $0[t].name = "Label"
                let p = S.index($0, "Post")
                $0[p].relationships = $0[p].relationships.map { r in
                    r.name == "tags" ? Relationship("tags", to: "Label", inverse: "posts", .toMany) : r
                }
            }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2).renamingEntity("Tag", to: "Label")))
            try ctx.expectEqual(try S.lines(ctx, "Label"), before.map { "Label" + $0.dropFirst(3) }, "the tags, now labels")
            try S.expectFixtureLinks(ctx, tag: "Label")
            try ctx.write { try $0.link("Post", id: 15, "tags", to: "db") }
            try ctx.expectEqual(try ctx.read { try $0.related("Label", id: "db", via: "posts").map(\.id) }, ids(12, 15), "a link made after the rename")
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "addIndex", requires: S.needs) { ctx in
            let before = try ctx.dump()
            let v2 = try S.schema(2) { $0[0].indexes.append(IndexDescription(["displayName"])) }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            try ctx.expectEqual(try ctx.dump(), before, "the data after adding an index")
            try S.expectAgreesWithScan(ctx, "User", "displayName >= %@", [.string("C")]) { ($0["displayName"].stringValue ?? "") >= "C" }
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "addUniqueIndexThatHolds", requires: S.needs) { ctx in
            let v2 = try S.schema(2) { $0[1].indexes.append(IndexDescription(["title"], unique: true)) }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            try ctx.expectError(.conflict, "a duplicate title after the unique index was added") {
                try ctx.write { try $0.insert(try ctx.record("Post", ["id": 50, "title": "Swift concurrency", "createdAt": .date(SocialFixture.epoch)])) }
            }
            try S.expectAgreesWithScan(ctx, "Post", "title == %@", [.string("Learning swift")]) { $0["title"] == "Learning swift" }
        },
        ConformanceCase.seeded("migrations", "addUniqueIndexThatDoesNotHold", requires: S.needs) { ctx in
            let before = try ctx.dump()
            let v2 = try S.schema(2) { $0[0].indexes.append(IndexDescription(["age"], unique: true)) }
            do {
                try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
                throw ConformanceFailure("a unique index on User.age, which two users share (30), was created")
            } catch let e as StoreError {
                try ctx.expectEqual(e.category, .constraintViolation, "the error's category (\(e))")
                try ctx.expect(e.message.contains("30"), "the error names the duplicate value 30: \(e.message)")
            }
            try S.expectUnchanged(ctx, before)
        },
        ConformanceCase.seeded("migrations", "removeIndexes", requires: S.needs) { ctx in
            let v2 = try S.schema(2) { $0[0].indexes = [] }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            try ctx.write { try $0.insert(try ctx.record("User", ["id": 8, "username": "ann", "displayName": "Ann Two", "age": 30, "joinedAt": .date(SocialFixture.epoch)])) }
            try S.expectAgreesWithScan(ctx, "User", "username == %@", [.string("ann")]) { $0["username"] == "ann" }
            try S.expectAgreesWithScan(ctx, "User", "age == 30 AND score > 1", []) { $0["age"] == 30 && ($0["score"].doubleValue ?? 0) > 1 }
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "addEntityAndRelationship", requires: S.needs) { ctx in
            let before = try S.others(ctx, but: ["User"])
            let v2 = try S.schema(2) {
                $0.append(EntityDescription("Device", primaryKey: "serial", attributes: [Attribute("serial", .string), Attribute("model", .string)],
                                            relationships: [Relationship("owner", to: "User", inverse: "devices", .toOne)]))
                $0[0].relationships.append(Relationship("devices", to: "Device", inverse: "owner", .toMany, deleteRule: .cascade))
            }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            try ctx.expectEqual(try S.others(ctx, but: ["User", "Device"]), before, "everything but User after adding Device")
            try ctx.write { tx in
                try tx.insert(try ctx.record("Device", ["serial": "A1", "model": "phone"]))
                try tx.link("User", id: 3, "devices", to: "A1")
            }
            try ctx.expectEqual(try ctx.read { try $0.related("Device", id: "A1", via: "owner").map(\.id) }, ids(3), "the new relationship's inverse")
            try ctx.write { try $0.delete("User", id: 3) }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Device")) }, 0, "the new cascade rule")
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "removeEntityAndRelationship", requires: S.needs) { ctx in
            try ctx.write { tx in
                try tx.insert(try ctx.record("Badge", ["code": "gold"]))
                try tx.link("Badge", id: "gold", "holder", to: .uuid(SocialFixture.profile1))
            }
            let before = try S.others(ctx, but: ["Profile", "Badge"])
            let v2 = try S.schema(2) {
                $0.remove(at: S.index($0, "Badge"))
                let p = S.index($0, "Profile")
                $0[p].relationships.removeAll { $0.name == "badges" }
            }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            try ctx.expectEqual(try S.others(ctx, but: ["Profile"]), before, "everything but Profile and Badge")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Profile")) }, 2, "profiles kept")
            try ctx.write { try $0.delete("User", id: 1) }   // the badge's deny rule went with it
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Profile")) }, 1, "profile 1 cascaded without the badge's deny")
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "addAndRemoveManyToMany", requires: S.needs) { ctx in
            let v2 = try S.schema(2) {
                $0[0].relationships.append(Relationship("likes", to: "Post", inverse: "likedBy", .toMany))
                $0[1].relationships.append(Relationship("likedBy", to: "User", inverse: "likes", .toMany))
                let c = S.index($0, "Comment")
                $0[c].relationships.removeAll { $0.name == "parent" || $0.name == "replies" }
            }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            try ctx.write { try $0.link("User", id: 2, "likes", to: 10) }
            try ctx.read { tx in
                try ctx.expectEqual(try tx.related("Post", id: 10, via: "likedBy").map(\.id), ids(2), "the new many-to-many's inverse")
                try ctx.expectEqual(try tx.related("Post", id: 10, via: "comments").map(\.id), ids(100, 101, 102), "Post 10's comments")
                try ctx.expectEqual(try tx.related("Comment", id: 102, via: "author").map(\.id), ids(5), "comment 102's author")
                try ctx.expectEqual(try tx.related("User", id: 1, via: "followers").map(\.id), ids(2, 3), "User 1's followers")
            }
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "optionalBecomesRequiredWithDefault", requires: S.needs) { ctx in
            let v2 = try S.schema(2) { S.attribute(&$0, "User", "age") { $0.isOptional = false; $0.defaultValue = 18 } }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            try ctx.expectEqual(try ctx.read { try $0.fetch(Query("User")) }.map { $0["age"] }, [30, 25, 18, 30, 41], "ages, nil become the default")
            try S.expectAgreesWithScan(ctx, "User", "age == 30 AND score > 1", []) { $0["age"] == 30 && ($0["score"].doubleValue ?? 0) > 1 }
            try ctx.expectError(.constraintViolation, "nil in the now required age") { try ctx.write { try $0.update("User", id: 1, set: ["age": nil]) } }
            try S.expectFixtureLinks(ctx)
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "widenBoolAndInteger", requires: S.needs) { ctx in
            let v2 = try S.schema(2) {
                S.attribute(&$0, "Post", "published") { $0.type = .int64; $0.defaultValue = 0 }
                S.attribute(&$0, "Post", "score") { $0.type = .double; $0.defaultValue = 0.0 }
            }
            try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            let posts = try ctx.read { try $0.fetch(Query("Post")) }
            try ctx.expectEqual(posts.map { $0["published"] }, [1, 1, 0, 1, 0, 1], "published as integers")
            try ctx.expectEqual(posts.map { $0["score"] }, [5.0, 3.0, 8.0, 3.0, 1.0, 5.0], "scores as doubles")
            try S.expectAgreesWithScan(ctx, "Post", "published == 1 AND score >= 3.5", []) { $0["published"] == 1 && ($0["score"].doubleValue ?? 0) >= 3.5 }
            try S.expectFixtureLinks(ctx)
            try S.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "wideningThatLosesAValueFails", requires: S.needs) { ctx in
            try ctx.write { try $0.update("Post", id: 14, set: ["score": .int64(9_007_199_254_740_993)]) }
            let before = try ctx.dump()
            let v2 = try S.schema(2) { S.attribute(&$0, "Post", "score") { $0.type = .double; $0.defaultValue = 0.0 } }
            try ctx.expectError(.invalidValue, "widening 2^53 + 1 to a double") {
                try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            }
            try S.expectUnchanged(ctx, before)
        },
        ConformanceCase.seeded("migrations", "typeChangeNeedsATransform", requires: S.needs) { ctx in
            let before = try ctx.dump()
            let v2 = try S.schema(2) { S.attribute(&$0, "Post", "title") { $0.type = .bytes } }
            try ctx.expectError(.invalidSchema, "changing string to bytes without a transform") {
                try ctx.migrate(to: v2, S.plan(Migration(from: SocialSchema.make(), to: v2)))
            }
            try S.expectUnchanged(ctx, before)
        },
    ]
}

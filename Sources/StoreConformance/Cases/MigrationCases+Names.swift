import StoreCore

/// Names passing from one attribute or entity to another in one step, and chains whose
/// steps do not meet: an index whose definition reads the same in both schemas must still
/// follow the values, and a new entity under a renamed one's old name starts empty.
extension MigrationCases {
    /// Version 2 of the kit schema with User's `username` and `displayName` swapping names;
    /// the unique index stays on `username`, which now holds the old display names.
    static func swappedNames() throws -> (schema: Schema, migration: Migration) {
        let v2 = try MigrationSupport.schema(2) {
            MigrationSupport.attribute(&$0, "User", "username") { $0.name = "sb_swap" }
            MigrationSupport.attribute(&$0, "User", "displayName") { $0.name = "username" }
            MigrationSupport.attribute(&$0, "User", "sb_swap") { $0.name = "displayName" }
        }
        let m = Migration(from: SocialSchema.make(), to: v2)
            .renamingAttribute("username", to: "displayName", of: "User")
            .renamingAttribute("displayName", to: "username", of: "User")
        return (v2, m)
    }

    /// Gives every user the display name `D<id>` (`same` for those in `same`).
    static func setDisplayNames(_ ctx: ConformanceContext, same: Set<Int64> = []) throws {
        try ctx.write { tx in
            for u in try tx.fetch(Query("User")) {
                let id = u.id.int64Value ?? 0
                try tx.update("User", id: u.id, set: ["displayName": .string(same.contains(id) ? "same" : "D\(id)")])
            }
        }
    }

    static let names: [ConformanceCase] = [
        ConformanceCase.seeded("migrations", "attributesSwapNames", requires: MigrationSupport.needs) { ctx in
            try setDisplayNames(ctx)
            let users = try ctx.read { try $0.fetch(Query("User")) }
            let (v2, m) = try swappedNames()
            try ctx.migrate(to: v2, MigrationSupport.plan(m))
            let after = try ctx.read { try $0.fetch(Query("User")) }
            try ctx.expectEqual(after.map { $0["displayName"] }, users.map { $0["username"] }, "displayName holds the old usernames")
            try ctx.expectEqual(after.map { $0["username"] }, users.map { $0["displayName"] }, "username holds the old display names")
            let second = users[1]["displayName"]
            try MigrationSupport.expectAgreesWithScan(ctx, "User", "username == %@", [.value(second)]) { $0["username"] == second }
            try ctx.expectError(.conflict, "the unique index holds the new usernames") {
                try ctx.write { try $0.insert(try ctx.record("User", ["id": 9, "username": second, "displayName": "x", "joinedAt": .date(SocialFixture.epoch)])) }
            }
            try ctx.write { try $0.insert(try ctx.record("User", ["id": 9, "username": "new", "displayName": users[0]["username"], "joinedAt": .date(SocialFixture.epoch)])) }
            try MigrationSupport.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "attributesSwapNamesUnderAUniqueIndex", requires: MigrationSupport.needs) { ctx in
            try setDisplayNames(ctx, same: [1, 3])
            let before = try ctx.dump()
            let (v2, m) = try swappedNames()
            try ctx.expectError(.constraintViolation, "the unique index on username over two equal old display names") {
                try ctx.migrate(to: v2, MigrationSupport.plan(m))
            }
            try MigrationSupport.expectUnchanged(ctx, before)
        },
        ConformanceCase.seeded("migrations", "renamedEntityNameReused", requires: MigrationSupport.needs) { ctx in
            let posts = try ctx.read { try $0.fetch(Query("Post")) }
            let authored = try ctx.read { try $0.related("User", id: 1, via: "posts").map(\.id) }
            let v2 = try MigrationSupport.schema(2) { d in
                d[MigrationSupport.index(d, "Post")].name = "Article"
                for e in d.indices {
                    d[e].relationships = d[e].relationships.map { r in
                        r.destination == "Post" ? Relationship(r.name, to: "Article", inverse: r.inverse, r.cardinality, deleteRule: r.deleteRule) : r
                    }
                }
                // A new Post, with an index defined as the old Post's was.
                d.append(EntityDescription("Post", primaryKey: "id",
                                           attributes: [Attribute("id", .int64), Attribute("createdAt", .date)],
                                           indexes: [IndexDescription(["createdAt"])]))
            }
            try ctx.migrate(to: v2, MigrationSupport.plan(Migration(from: SocialSchema.make(), to: v2).renamingEntity("Post", to: "Article")))
            try ctx.expectEqual(try ctx.read { try $0.fetch(Query("Article")) }.map(\.values), posts.map(\.values), "the posts, now articles")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Post")) }, 0, "the new Post starts empty")
            try ctx.expectEqual(try ctx.read { try $0.related("User", id: 1, via: "posts").map(\.id) }, authored, "User 1's articles")
            try ctx.write { tx in
                for id in 1...3 {
                    try tx.insert(try ctx.record("Post", ["id": .int64(Int64(id)), "createdAt": .date(SocialFixture.epoch.addingTimeInterval(Double(id)))]))
                }
            }
            let cut = SocialFixture.epoch.addingTimeInterval(2)
            try MigrationSupport.expectAgreesWithScan(ctx, "Post", "createdAt >= %@", [.date(cut)]) { ($0["createdAt"].dateValue ?? .distantPast) >= cut }
            let first = posts[0]["createdAt"]
            try MigrationSupport.expectAgreesWithScan(ctx, "Article", "createdAt == %@", [.value(first)]) { $0["createdAt"] == first }
            try MigrationSupport.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "attributeTakesARemovedRelationshipsName", requires: MigrationSupport.needs) { ctx in
            // Post.author (the link to User) goes; Post.title is renamed to author in the same step.
            let posts = try ctx.read { try $0.fetch(Query("Post")) }
            let v2 = try MigrationSupport.schema(2) { d in
                let p = MigrationSupport.index(d, "Post")
                d[p].relationships.removeAll { $0.name == "author" }
                d[0].relationships.removeAll { $0.name == "posts" }
                MigrationSupport.attribute(&d, "Post", "title") { $0.name = "author" }
            }
            try ctx.migrate(to: v2, MigrationSupport.plan(Migration(from: SocialSchema.make(), to: v2).renamingAttribute("title", to: "author", of: "Post")))
            let after = try ctx.read { try $0.fetch(Query("Post")) }
            try ctx.expectEqual(after.map { $0["author"] }, posts.map { $0["title"] }, "Post.author holds the old titles")
            let second = posts[1]["title"]
            try MigrationSupport.expectAgreesWithScan(ctx, "Post", "author == %@", [.value(second)]) { $0["author"] == second }
            try ctx.write { try $0.delete("User", id: 1) }   // posts no longer cascade with their author
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Post")) }, posts.count, "every post stays")
            try MigrationSupport.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "chainWhoseStepsDoNotMeetIsRefused", requires: MigrationSupport.needs) { ctx in
            let before = try ctx.dump()
            let v2a = try MigrationSupport.schema(2) { $0[0].attributes.append(Attribute("secret", .string, default: "")) }
            let v2b = try MigrationSupport.schema(2) { $0[0].attributes.append(Attribute("nick", .string, default: "")) }
            let v3 = try MigrationSupport.schema(3) {
                $0[0].attributes.append(Attribute("nick", .string, default: ""))
                $0[0].attributes.append(Attribute("badge", .string, optional: true))
            }
            let plan = MigrationSupport.plan(Migration(from: SocialSchema.make(), to: v2a).filling("secret", of: "User", with: "pw"),
                                             Migration(from: v2b, to: v3))
            try ctx.expectError(.invalidSchema, "v1 → v2 (adds secret) then v2 (with nick) → v3") { try ctx.migrate(to: v3, plan) }
            try MigrationSupport.expectUnchanged(ctx, before)
        },
    ]
}

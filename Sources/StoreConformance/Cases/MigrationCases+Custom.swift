import Foundation
import StoreCore

/// Custom steps (per-record transforms and whole-store steps) and their failures.
extension MigrationCases {
    /// Version 2 of the seeds' user: `fullName` from two old attributes, an integer level
    /// turned into a string role, and flags folded into one status.
    static func seedsV2() throws -> Schema {
        try MigrationSupport.schema(2) { d in
            MigrationSupport.removeAttribute(&d, "User", "displayName")
            MigrationSupport.removeAttribute(&d, "User", "active")
            d[0].attributes.append(Attribute("fullName", .string))
            d[0].attributes.append(Attribute("status", .string, default: "active"))
            MigrationSupport.attribute(&d, "User", "age") { $0.type = .string }
            d[0].indexes.append(IndexDescription(["status"]))
        }
    }

    static func seedsMigration(to v2: Schema) -> Migration {
        Migration(from: SocialSchema.make(), to: v2).transforming("User") { user in
            user["fullName"] = .string("\(user.old["displayName"].stringValue ?? "") (\(user.old["username"].stringValue ?? ""))")
            user["age"] = user.old["age"].int64Value.map { .string($0 >= 30 ? "senior" : "junior") } ?? .null
            user["status"] = .string(user.old["active"].boolValue == false ? "inactive" : user.old["email"].isNull ? "unverified" : "active")
        }
    }

    static let custom: [ConformanceCase] = [
        ConformanceCase.seeded("migrations", "transformEveryRecord", requires: MigrationSupport.needs) { ctx in
            let others = try MigrationSupport.others(ctx, but: ["User"])
            let v2 = try seedsV2()
            try ctx.migrate(to: v2, MigrationSupport.plan(seedsMigration(to: v2)))
            let users = try ctx.read { try $0.fetch(Query("User")) }
            try ctx.expectEqual(users.map { $0["fullName"] }, ["Ann Lee (ann)", "Bob Stone (bob)", "Émile Zola (emile)", "Zoë Café (zoe)", "CHLOÉ Straße (chloe)"], "fullName")
            try ctx.expectEqual(users.map { $0["age"] }, ["senior", "junior", nil, "senior", "senior"], "age turned into a string")
            try ctx.expectEqual(users.map { $0["status"] }, ["active", "inactive", "active", "unverified", "inactive"], "status from the flags")
            try ctx.expectEqual(users.map { $0["email"] }, ["ann@example.com", nil, "emile@example.fr", nil, "c@example.de"], "email kept")
            try ctx.expectEqual(try MigrationSupport.others(ctx, but: ["User"]), others, "everything but User")
            try MigrationSupport.expectAgreesWithScan(ctx, "User", "status == %@", [.string("inactive")]) { $0["status"] == "inactive" }
            try MigrationSupport.expectFixtureLinks(ctx)
            try MigrationSupport.expectVerifies(ctx)
        },
        ConformanceCase.seeded("migrations", "storeStepCreatesRecords", requires: MigrationSupport.needs) { ctx in
            let v2 = try MigrationSupport.schema(2) {
                $0.append(EntityDescription("Stat", primaryKey: "user", attributes: [Attribute("user", .int64), Attribute("posts", .int64)]))
            }
            let m = Migration(from: SocialSchema.make(), to: v2).then { tx in
                for u in try tx.fetch(Query("User")) {
                    let n = try tx.related("User", id: u.id, via: "posts").count
                    try tx.insert(try tx.schema.entity("Stat").record(["user": u.id, "posts": .int64(Int64(n))]))
                }
            }
            try ctx.migrate(to: v2, MigrationSupport.plan(m))
            try ctx.expectEqual(try ctx.read { try $0.fetch(Query("Stat")) }.map { $0["posts"] }, [2, 1, 1, 1, 0], "posts per user, made by the store step")
        },
        ConformanceCase.seeded("migrations", "transformErrorLeavesTheOldVersion", requires: MigrationSupport.needs) { ctx in
            let before = try ctx.dump()
            let v2 = try seedsV2()
            let m = seedsMigration(to: v2).transforming("User") { user in
                if user.old.id == 4 { throw StoreError(.invalidValue, "user 4 cannot be migrated") }
                user["fullName"] = "x"
            }
            try ctx.expectError(.invalidValue, "a transform throwing at the fourth user") { try ctx.migrate(to: v2, MigrationSupport.plan(m)) }
            try MigrationSupport.expectUnchanged(ctx, before)
        },
        ConformanceCase.seeded("migrations", "storeStepErrorLeavesTheOldVersion", requires: MigrationSupport.needs) { ctx in
            let before = try ctx.dump()
            let v2 = try seedsV2()
            let m = seedsMigration(to: v2).then { tx in
                try tx.delete("User", id: 5)
                throw StoreError(.constraintViolation, "the store step refuses")
            }
            try ctx.expectError(.constraintViolation, "a store step throwing after a delete") { try ctx.migrate(to: v2, MigrationSupport.plan(m)) }
            try MigrationSupport.expectUnchanged(ctx, before)
        },
        ConformanceCase.seeded("migrations", "transformCannotSetUnknownOrKey", requires: MigrationSupport.needs) { ctx in
            let before = try ctx.dump()
            let v2 = try seedsV2()
            let unknown: Migration.RecordTransform = { u in u["fullName"] = "x"; u["nope"] = 1 }
            let key: Migration.RecordTransform = { u in u["fullName"] = "x"; u["id"] = 77 }
            for (what, body) in [("an unknown attribute", unknown), ("the primary key", key)] {
                try ctx.expectError(.invalidValue, "a transform setting \(what)") {
                    try ctx.migrate(to: v2, MigrationSupport.plan(Migration(from: SocialSchema.make(), to: v2).transforming("User", body)))
                }
            }
            try MigrationSupport.expectUnchanged(ctx, before)
        },
        ConformanceCase.seeded("migrations", "transformMustSetRequired", requires: MigrationSupport.needs) { ctx in
            let before = try ctx.dump()
            let v2 = try seedsV2()
            try ctx.expectError(.constraintViolation, "a transform leaving the required fullName nil") {
                try ctx.migrate(to: v2, MigrationSupport.plan(Migration(from: SocialSchema.make(), to: v2).transforming("User") { _ in }))
            }
            try MigrationSupport.expectUnchanged(ctx, before)
        },
    ]
}

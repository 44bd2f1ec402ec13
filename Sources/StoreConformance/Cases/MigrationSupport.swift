import StoreCore

/// Schemas and checks shared by the `migrations` cases. Internal helper.
enum MigrationSupport {
    static let needs: Capabilities = [.persistence, .migrations]

    /// The kit schema at `version`, edited.
    static func schema(_ version: Int, _ edit: (inout [EntityDescription]) -> Void = { _ in }) throws -> Schema {
        var d = SocialSchema.kitDescriptions
        edit(&d)
        return try Schema(version: version, entities: d)
    }

    static func index(_ d: [EntityDescription], _ name: String) -> Int { d.firstIndex { $0.name == name }! }

    /// Edits the attribute `attribute` of `entity`.
    static func attribute(_ d: inout [EntityDescription], _ entity: String, _ attribute: String, _ edit: (inout Attribute) -> Void) {
        let e = index(d, entity)
        let a = d[e].attributes.firstIndex { $0.name == attribute }!
        edit(&d[e].attributes[a])
    }

    static func removeAttribute(_ d: inout [EntityDescription], _ entity: String, _ attribute: String) {
        let e = index(d, entity)
        d[e].attributes.removeAll { $0.name == attribute }
        d[e].indexes.removeAll { $0.attributes.contains(attribute) }
    }

    static func plan(_ migrations: Migration...) -> MigrationPlan { MigrationPlan(migrations) }

    /// The lines of `ctx.dump()` for one entity.
    static func lines(_ ctx: ConformanceContext, _ entity: String) throws -> [String] {
        try ctx.dump().filter { $0.hasPrefix("\(entity)(") }
    }

    /// The dump with `entity`'s lines left out (what a migration of that entity must not touch).
    static func others(_ ctx: ConformanceContext, but entities: Set<String>) throws -> [String] {
        try ctx.dump().filter { line in !entities.contains { line.hasPrefix("\($0)(") } }
    }

    /// A failed migration left the store exactly at version 1: it opens without a plan and
    /// dumps as before.
    static func expectUnchanged(_ ctx: ConformanceContext, _ before: [String]) throws {
        try ctx.reopen(with: SocialSchema.make())
        try ctx.expectEqual(try ctx.dump(), before, "the store after the failed migration, opened at version 1")
    }

    /// A query through `predicate` (which an index may serve) returns what filtering a full
    /// scan with `keep` returns.
    static func expectAgreesWithScan(_ ctx: ConformanceContext, _ entity: String, _ format: String, _ args: [PredicateArgument],
                                     _ keep: (Record) -> Bool) throws {
        let all = try ctx.read { try $0.fetch(Query(entity)) }
        let expected = all.filter(keep).map(\.id).sorted { "\($0)" < "\($1)" }
        let q = Query(entity, where: try StorePredicate(format: format, arguments: args))
        let got = try ctx.ids(q).sorted { "\($0)" < "\($1)" }
        try ctx.expectEqual(got, expected, "\(entity) where \(format) after the migration, against a scan")
    }

    /// Every relationship of the fixture, read from both sides after a migration.
    static func expectFixtureLinks(_ ctx: ConformanceContext, tag: String = "Tag") throws {
        try ctx.read { tx in
            try ctx.expectEqual(try tx.related("User", id: 1, via: "posts").map(\.id), ids(10, 11), "User 1's posts")
            try ctx.expectEqual(try tx.related("Post", id: 12, via: "author").map(\.id), ids(2), "Post 12's author")
            try ctx.expectEqual(try tx.related("Post", id: 10, via: "tags").map(\.id), [.string("Unicode"), .string("cafe")], "Post 10's tags")
            try ctx.expectEqual(try tx.related(tag, id: "Unicode", via: "posts").map(\.id), ids(10, 11, 13), "\(tag) Unicode's posts")
            try ctx.expectEqual(try tx.related("User", id: 1, via: "followers").map(\.id), ids(2, 3), "User 1's followers")
            try ctx.expectEqual(try tx.related("User", id: 1, via: "following").map(\.id), ids(2, 4), "User 1's following")
            try ctx.expectEqual(try tx.related("User", id: 1, via: "profile").map(\.id), [.uuid(SocialFixture.profile1)], "User 1's profile")
            try ctx.expectEqual(try tx.related("Profile", id: .uuid(SocialFixture.profile2), via: "user").map(\.id), ids(2), "profile 2's user")
            try ctx.expectEqual(try tx.related("Comment", id: 101, via: "parent").map(\.id), ids(100), "comment 101's parent")
            try ctx.expectEqual(try tx.related("Comment", id: 100, via: "replies").map(\.id), ids(101), "comment 100's replies")
        }
    }

    /// `verify()` finds nothing wrong.
    static func expectVerifies(_ ctx: ConformanceContext) throws {
        let report = try ctx.repository.verify()
        try ctx.expect(report.problems.isEmpty, "verify() after the migration: \(report.problems)")
    }
}

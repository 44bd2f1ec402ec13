import Foundation
import StoreCore

/// Embedded objects: records of an embedded entity live inside one owner. They round-trip,
/// an orphan fails the commit with nothing written, a second owner is refused, the owner's
/// delete cascades to them, they are queried through the owner's key paths, and a wrong
/// embedded declaration is refused while a right one is part of the stored schema.
enum EmbeddedCases {
    static func seeded(_ name: String, requires: Capabilities = [],
                       _ body: @escaping @Sendable (ConformanceContext) throws -> Void) -> ConformanceCase {
        ConformanceCase("embeddedObjects", name, requires: EmbeddedSchema.needs.union(requires)) { ctx in
            try EmbeddedSchema.seed(ctx)
            try body(ctx)
        }
    }

    static func ids(_ xs: Int64...) -> [Value] { xs.map(Value.int64) }

    static let all: [ConformanceCase] = [
        seeded("roundTripThroughReopen", requires: .persistence) { ctx in
            let before = try EmbeddedSchema.state(ctx)
            try ctx.reopen()
            try ctx.expectEqual(try EmbeddedSchema.state(ctx), before, "records and links after reopening")
            try ctx.expectEqual(try ctx.read { try $0.related("User", id: 1, via: "address") }.map(\.id), ids(10), "user 1's address")
            try ctx.expectEqual(try ctx.read { try $0.related("User", id: 1, via: "phones") }.map(\.id), ids(11, 12), "user 1's phones")
            try ctx.expectEqual(try ctx.read { try $0.fetch("Address", id: 20) }?["city"], "Bergen", "address 20's city")
            let report = try ctx.repository.verify()
            try ctx.expect(report.isClean, "verify() on a store of embedded records found: \(report.problems.prefix(3).map(\.description))")
        },
        seeded("orphanIsRefusedAtCommitAndNothingIsWritten") { ctx in
            let before = try EmbeddedSchema.state(ctx)
            let orphan = try ctx.record("Address", ["id": 30, "city": "Tromsø"])
            let e = try ctx.expectError(.constraintViolation, "committing a never-linked embedded Address") {
                try ctx.write { tx in
                    try tx.insert(try ctx.record("User", ["id": 4, "name": "dag"]))
                    try tx.insert(orphan)
                }
            }
            try ctx.expect(e.message.contains("Address") && e.message.contains("30"), "the error names Address 30: \(e.message)")
            try ctx.expectError(.constraintViolation, "committing an Address unlinked from its owner") {
                try ctx.write { tx in try tx.unlink("User", id: 1, "address", from: 10) }
            }
            try ctx.expectError(.constraintViolation, "committing a Phone unlinked from the embedded side") {
                try ctx.write { tx in try tx.unlink("Phone", id: 21, "user", from: 2) }
            }
            try ctx.expectEqual(try EmbeddedSchema.state(ctx), before, "the store after the refused commits")
            try ctx.write { tx in
                try tx.insert(orphan)
                try tx.link("User", id: 3, "address", to: 30)
                try tx.insert(try ctx.record("Phone", ["id": 31]))
                try tx.delete("Phone", id: 31)
            }
            try ctx.expectEqual(try ctx.read { try $0.related("Address", id: 30, via: "user") }.map(\.id), ids(3), "an address linked in its insert's transaction")
        },
        seeded("secondOwnerIsRefused") { ctx in
            let before = try EmbeddedSchema.state(ctx)
            let attempts: [(String, Int64, String, Int64)] = [
                ("User", 2, "address", 10), ("User", 3, "address", 10), ("Address", 10, "user", 3),
                ("User", 3, "phones", 11), ("Phone", 21, "user", 1),
            ]
            for (entity, id, rel, target) in attempts {
                let e = try ctx.expectError(.constraintViolation, "linking \(entity) \(id).\(rel) to \(target), which has another owner") {
                    try ctx.write { tx in try tx.link(entity, id: .int64(id), rel, to: .int64(target)) }
                }
                try ctx.expect(e.message.contains("second owner") || e.message.contains("owner"), "the error says why: \(e.message)")
            }
            try ctx.expectEqual(try EmbeddedSchema.state(ctx), before, "the store after the refused links")
            try ctx.write { tx in
                try tx.link("User", id: 1, "address", to: 10)
                try tx.link("Phone", id: 11, "user", to: 1)
            }
            try ctx.expectEqual(try EmbeddedSchema.state(ctx), before, "the store after linking to the same owner again")
        },
        seeded("ownerDeleteCascades") { ctx in
            try ctx.write { tx in try tx.delete("User", id: 1) }
            try ctx.expectEqual(try ctx.ids(Query("Address")), ids(20), "addresses after deleting user 1")
            try ctx.expectEqual(try ctx.ids(Query("Phone")), ids(21), "phones after deleting user 1")
            try ctx.expectEqual(try ctx.read { try $0.related("User", id: 2, via: "phones") }.map(\.id), ids(21), "user 2's phones")
            try ctx.write { tx in
                try tx.insert(try ctx.record("Address", ["id": 40, "city": "Bodø"]))
                try tx.link("User", id: 2, "address", to: 40)
                try tx.delete("Address", id: 20)
            }
            try ctx.expectEqual(try ctx.ids(Query("Address")), ids(40), "addresses after replacing user 2's")
            _ = try ctx.write { tx in try tx.delete("User", where: .constant(true)) }
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Address")) + $0.count(Query("Phone")) }, 0, "embedded records after deleting every user")
            let report = try ctx.repository.verify()
            try ctx.expect(report.isClean, "verify() after the cascades found: \(report.problems.prefix(3).map(\.description))")
        },
        seeded("queriesThroughTheOwnersKeyPath") { ctx in
            try ctx.expectIDs("User", "address.city == 'Oslo'", are: ids(1))
            try ctx.expectIDs("User", "address.city BEGINSWITH[c] 'b'", are: ids(2))
            try ctx.expectIDs("User", "ANY phones.kind == 'mobile'", are: ids(1, 2))
            try ctx.expectIDs("User", "NONE phones.kind == 'home'", are: ids(2, 3))
            try ctx.expectIDs("User", "phones.@count >= 2", are: ids(1))
            try ctx.expectIDs("Phone", "user.address.city == 'Bergen'", are: ids(21))
            try ctx.expectIDs(Query("User", where: try StorePredicate(format: "ANY phones.kind == 'mobile'"),
                                    sort: [SortKey("address.city", ascending: false)]), ids(1, 2), "users with a mobile by city descending")
            try ctx.expectEqual(try ctx.read { try $0.count(Query("User", where: try StorePredicate(format: "address.city == %@", "Oslo"))) },
                                1, "count of users in Oslo")
        },
        ConformanceCase("embeddedObjects", "wrongDeclarationsAreRefusedAndTheFlagIsRecorded", requires: EmbeddedSchema.needs) { ctx in
            try expectRefused(ctx, "an owning relationship without cascade", naming: ["Address", "User.address"]) { d in
                d[0].relationships[0].deleteRule = .nullify
            }
            try expectRefused(ctx, "an embedded entity nothing owns", naming: ["Phone"]) { d in
                d[0].relationships.removeLast()
                d[2].relationships = []
            }
            try expectRefused(ctx, "a second relationship to an embedded entity", naming: ["Address", "Note.place"]) { d in
                d.append(EntityDescription("Note", primaryKey: "id", attributes: [Attribute("id", .int64)],
                                           relationships: [Relationship("place", to: "Address", inverse: "notes", .toMany)]))
                d[1].relationships.append(Relationship("notes", to: "Note", inverse: "place", .toMany))
            }
            try expectRefused(ctx, "an owning relationship whose inverse is to-many", naming: ["Phone", "User.phones"]) { d in
                d[0].relationships[1].cardinality = .toMany
                d[2].relationships[0].cardinality = .toMany
            }
            try ctx.startOver(with: EmbeddedSchema.make())
            try ctx.close()
            let plain = try EmbeddedSchema.make { $0[1].isEmbedded = false }
            try ctx.expectError(.schemaMismatch, "opening a store of embedded addresses with a schema where they are not embedded") {
                try ctx.reopen(with: plain)
            }
        },
        inAnOrderedList,
        migrationStepCannotLeaveAnOrphan,
    ]

    /// Expects the fixture schema edited by `edit` to be refused with `invalidSchema` whose
    /// message names each of `names`.
    private static func expectRefused(_ ctx: ConformanceContext, _ what: String, naming names: [String],
                                      _ edit: (inout [EntityDescription]) -> Void) throws {
        let e = try ctx.expectError(.invalidSchema, "a schema with \(what)") { _ = try EmbeddedSchema.make(edit) }
        for n in names { try ctx.expect(e.message.contains(n), "the error for \(what) names \(n): \(e.message)") }
    }
}

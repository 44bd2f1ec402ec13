import Foundation
import StoreCore

extension EmbeddedCases {
    /// A migration's store step is a write like any other: one that leaves an embedded record
    /// without its owner fails the migration with `constraintViolation` and the store stays at
    /// its old version, unchanged; one that unlinks and deletes it migrates.
    static let migrationStepCannotLeaveAnOrphan = ConformanceCase(
        "embeddedObjects", "migrationStepCannotLeaveAnOrphan", requires: EmbeddedSchema.needs.union([.persistence, .migrations])
    ) { ctx in
        try EmbeddedSchema.seed(ctx)
        let before = try EmbeddedSchema.state(ctx)
        let v1 = try EmbeddedSchema.make(), v2 = try Schema(version: 2, entities: EmbeddedSchema.descriptions)
        let orphaning = Migration(from: v1, to: v2).then { tx in try tx.unlink("User", id: 1, "address", from: 10) }
        try ctx.expectError(.constraintViolation, "a store step unlinking user 1's address and keeping it") {
            try ctx.migrate(to: v2, MigrationPlan([orphaning]))
        }
        try ctx.reopen(with: v1)
        try ctx.expectEqual(try EmbeddedSchema.state(ctx), before, "the store after the refused migration, opened at version 1")
        let deleting = Migration(from: v1, to: v2).then { tx in
            try tx.unlink("User", id: 1, "address", from: 10)
            try tx.delete("Address", id: 10)
        }
        try ctx.migrate(to: v2, MigrationPlan([deleting]))
        try ctx.expectEqual(try ctx.ids(Query("Address")), ids(20), "addresses after a step that unlinked and deleted one")
    }
}

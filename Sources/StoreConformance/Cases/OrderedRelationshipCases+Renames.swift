import Foundation
import StoreCore

extension OrderedRelationshipCases {
    /// A renamed entity whose old name a new entity takes, both with an ordered `tracks`: the
    /// renamed one keeps its lists in order, the new one starts with empty lists of its own.
    static let orderSurvivesAReusedEntityName = ConformanceCase(
        "orderedRelationships", "orderSurvivesAReusedEntityName", requires: OrderedSchema.needs.union([.persistence, .migrations])
    ) { ctx in
        try OrderedSchema.seed(ctx)
        try OrderedSchema.append(ctx, "Playlist", 1, "tracks", [4, 6, 2])
        try OrderedSchema.append(ctx, "Playlist", 2, "tracks", [5, 4])
        let v2 = try OrderedSchema.make(version: 2) { d in
            d[2].relationships[1] = Relationship("playlists", to: "Mix", inverse: "tracks", .toMany)
            d[2].relationships.append(Relationship("lists", to: "Playlist", inverse: "tracks", .toMany))
            d[3].name = "Mix"
            d[3].relationships[0] = Relationship("tracks", to: "Track", inverse: "playlists", .toMany, ordered: true)
            d.append(EntityDescription("Playlist", primaryKey: "id", attributes: [Attribute("id", .int64)],
                                       relationships: [Relationship("tracks", to: "Track", inverse: "lists", .toMany, ordered: true)]))
        }
        try ctx.migrate(to: v2, MigrationPlan([Migration(from: ctx.schema, to: v2).renamingEntity("Playlist", to: "Mix")]))
        try OrderedSchema.expectOrder(ctx, "Mix", 1, "tracks", [4, 6, 2], "after Playlist was renamed Mix")
        try OrderedSchema.expectOrder(ctx, "Mix", 2, "tracks", [5, 4], "after Playlist was renamed Mix")
        try ctx.expectEqual(try ctx.ids(Query("Playlist")), [], "the new Playlist entity's records")
        try ctx.write { tx in
            try tx.insert(try ctx.record("Playlist", ["id": 1]))
            for t in [3, 1] as [Int64] { try tx.link("Playlist", id: 1, "tracks", to: .int64(t)) }
        }
        try OrderedSchema.expectOrder(ctx, "Playlist", 1, "tracks", [3, 1], "of the new Playlist entity")
        try OrderedSchema.expectOrder(ctx, "Mix", 1, "tracks", [4, 6, 2], "once the new Playlist has lists")
        try ctx.reopen()
        try OrderedSchema.expectOrder(ctx, "Mix", 1, "tracks", [4, 6, 2], "after reopening")
        try OrderedSchema.expectClean(ctx, "after the migration")
    }
}

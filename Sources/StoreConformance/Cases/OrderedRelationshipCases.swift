import Foundation
import StoreCore

/// Ordered to-many relationships: links keep the order given (append, insert at, move),
/// unlinks and deletes close their gap, a bad position is refused with nothing changed, the
/// order survives reopening and migration, and queries see an ordered relationship as any other.
enum OrderedRelationshipCases {
    static func seeded(_ name: String, requires extra: Capabilities = [],
                       _ body: @escaping @Sendable (ConformanceContext) throws -> Void) -> ConformanceCase {
        ConformanceCase("orderedRelationships", name, requires: OrderedSchema.needs.union(extra)) { ctx in
            try OrderedSchema.seed(ctx)
            try body(ctx)
        }
    }

    static let all: [ConformanceCase] = [
        seeded("appendKeepsOrderAcrossReopen", requires: .persistence) { ctx in
            try OrderedSchema.append(ctx, "Album", 1, "tracks", [5, 3, 8, 1])
            try OrderedSchema.append(ctx, "Album", 1, "tracks", [3])
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [5, 3, 8, 1], "as linked (linking 3 again changes nothing)")
            try ctx.write { tx in try tx.link("Track", id: 2, "album", to: 1) }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [5, 3, 8, 1, 2], "after linking track 2 from its to-one side")
            try ctx.reopen()
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [5, 3, 8, 1, 2], "after reopening")
            try ctx.expectEqual(try OrderedSchema.order(ctx, "Track", 8, "album"), [.int64(1)], "track 8's album")
            try OrderedSchema.expectClean(ctx, "on a store of ordered lists")
        },
        seeded("insertAtAndMove") { ctx in
            try OrderedSchema.append(ctx, "Album", 1, "tracks", [1, 2, 3])
            try ctx.write { tx in
                try tx.link("Album", id: 1, "tracks", to: 4, at: 0)
                try tx.link("Album", id: 1, "tracks", to: 5, at: 4)
                try tx.link("Album", id: 1, "tracks", to: 6, at: 2)
            }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [4, 1, 6, 2, 3, 5], "after inserting 4 at 0, 5 at 4, 6 at 2")
            try ctx.write { tx in try tx.move("Album", id: 1, "tracks", from: 0, to: 5) }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [1, 6, 2, 3, 5, 4], "after moving 0 to 5")
            try ctx.write { tx in try tx.move("Album", id: 1, "tracks", from: 4, to: 1) }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [1, 5, 6, 2, 3, 4], "after moving 4 to 1")
            try ctx.expectEqual(try OrderedSchema.order(ctx, "Track", 5, "album"), [.int64(1)], "track 5's album after moves")
            try OrderedSchema.expectClean(ctx, "after inserts and moves")
        },
        seeded("unlinkClosesTheGap") { ctx in
            try OrderedSchema.append(ctx, "Album", 1, "tracks", [1, 2, 3, 4, 5])
            try ctx.write { tx in try tx.unlink("Album", id: 1, "tracks", from: 2) }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [1, 3, 4, 5], "after unlinking 2")
            try ctx.write { tx in try tx.unlink("Track", id: 4, "album", from: 1) }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [1, 3, 5], "after unlinking track 4 from its to-one side")
            try ctx.write { tx in
                try tx.link("Album", id: 1, "tracks", to: 7, at: 3)
                try tx.move("Album", id: 1, "tracks", from: 3, to: 0)
            }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [7, 1, 3, 5], "after inserting 7 at the end and moving it first")
            try ctx.write { tx in try tx.link("Track", id: 3, "album", to: 2) }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [7, 1, 5], "after track 3 moved to album 2")
            try OrderedSchema.expectOrder(ctx, "Album", 2, "tracks", [3], "album 2")
            try OrderedSchema.expectClean(ctx, "after unlinks")
        },
        seeded("deleteRulesKeepOrder") { ctx in
            try OrderedSchema.append(ctx, "Album", 1, "tracks", [4, 1, 3, 2])
            try OrderedSchema.append(ctx, "Playlist", 1, "tracks", [3, 4, 1, 2])
            try OrderedSchema.append(ctx, "Artist", 1, "albums", [2, 1])
            try ctx.write { tx in try tx.delete("Track", id: 1) }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [4, 3, 2], "after deleting track 1")
            try OrderedSchema.expectOrder(ctx, "Playlist", 1, "tracks", [3, 4, 2], "after deleting track 1")
            let before = try ctx.dump()
            try ctx.expectError(.constraintViolation, "deleting artist 1 (deny, albums linked)") {
                try ctx.write { tx in try tx.delete("Artist", id: 1) }
            }
            try ctx.expectEqual(try ctx.dump(), before, "the store after a refused delete")
            try ctx.write { tx in try tx.delete("Album", id: 1) }
            try OrderedSchema.expectOrder(ctx, "Playlist", 1, "tracks", [], "after album 1 and its tracks (cascade) went")
            try OrderedSchema.expectOrder(ctx, "Artist", 1, "albums", [2], "after album 1 went")
            try OrderedSchema.append(ctx, "Playlist", 2, "tracks", [8, 6, 7])
            try ctx.write { tx in try tx.delete("Playlist", id: 2) }
            try ctx.expectEqual(try ctx.ids("Track", "id >= 6"), [6, 7, 8], "tracks after their playlist went (nullify)")
            try OrderedSchema.expectClean(ctx, "after deletes")
        },
        seeded("badPositionRefusedNothingChanged") { ctx in
            try OrderedSchema.append(ctx, "Album", 1, "tracks", [1, 2, 3])
            let before = try ctx.dump()
            let refused: [(String, @Sendable (any WriteTransaction) throws -> Void, String)] = [
                ("link at 4", { try $0.link("Album", id: 1, "tracks", to: 5, at: 4) }, "4"),
                ("link at -1", { try $0.link("Album", id: 1, "tracks", to: 5, at: -1) }, "-1"),
                ("move from 3", { try $0.move("Album", id: 1, "tracks", from: 3, to: 0) }, "3"),
                ("move to -1", { try $0.move("Album", id: 1, "tracks", from: 0, to: -1) }, "-1"),
                ("move in an empty list", { try $0.move("Album", id: 2, "tracks", from: 0, to: 0) }, "0"),
                ("link at on an unordered to-many", { try $0.link("Track", id: 5, "playlists", to: 1, at: 0) }, "0"),
                ("move on an unordered to-many", { try $0.move("Track", id: 1, "playlists", from: 0, to: 0) }, "0"),
            ]
            for (what, body, index) in refused {
                let e = try ctx.expectError(.invalidValue, what) { try ctx.write { tx in try body(tx) } }
                let text = e.message + " " + (e.context ?? "")
                try ctx.expect(text.contains("tracks") || text.contains("playlists"), "\(what): the error names no relationship: \(e.message)")
                try ctx.expect(text.contains(index), "\(what): the error names no index \(index): \(e.message)")
            }
            try ctx.write { tx in
                try ctx.expectError(.invalidValue, "link at 9 inside a write that goes on") { try tx.link("Album", id: 1, "tracks", to: 6, at: 9) }
                try tx.link("Album", id: 1, "tracks", to: 4)
            }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [1, 2, 3, 4], "after refused positions and one append")
            try ctx.expectEqual(try OrderedSchema.order(ctx, "Track", 6, "album"), [], "track 6's album after a refused link")
            try ctx.write { tx in try tx.unlink("Album", id: 1, "tracks", from: 4) }
            try ctx.expectEqual(try ctx.dump(), before, "the store after refused positions")
        },
        seeded("manyToManyOrderedSide") { ctx in
            try OrderedSchema.append(ctx, "Playlist", 1, "tracks", [3, 1, 2])
            try OrderedSchema.append(ctx, "Playlist", 2, "tracks", [2, 3])
            try ctx.write { tx in
                try tx.link("Track", id: 4, "playlists", to: 1)
                try tx.link("Playlist", id: 2, "tracks", to: 1, at: 1)
                try tx.move("Playlist", id: 1, "tracks", from: 3, to: 1)
            }
            try OrderedSchema.expectOrder(ctx, "Playlist", 1, "tracks", [3, 4, 1, 2], "after track 4 joined from its side and moved to 1")
            try OrderedSchema.expectOrder(ctx, "Playlist", 2, "tracks", [2, 1, 3], "after inserting 1 at 1")
            try OrderedSchema.expectOrder(ctx, "Track", 3, "playlists", [1, 2], "track 3's playlists (unordered: by key)")
            try ctx.write { tx in try tx.unlink("Track", id: 1, "playlists", from: 1) }
            try OrderedSchema.expectOrder(ctx, "Playlist", 1, "tracks", [3, 4, 2], "after track 1 left from its side")
            try OrderedSchema.expectOrder(ctx, "Playlist", 2, "tracks", [2, 1, 3], "playlist 2 untouched")
            try OrderedSchema.expectClean(ctx, "after many-to-many edits")
        },
        seeded("queriesOverOrderedLists") { ctx in
            try OrderedSchema.append(ctx, "Album", 1, "tracks", [5, 3, 1])
            try OrderedSchema.append(ctx, "Album", 2, "tracks", [2])
            try OrderedSchema.append(ctx, "Playlist", 1, "tracks", [1, 2, 3, 4])
            try OrderedSchema.append(ctx, "Playlist", 2, "tracks", [4])
            try ctx.write { tx in try tx.move("Album", id: 1, "tracks", from: 2, to: 0) }
            try ctx.expectIDs("Album", "ANY tracks.title == 't5'", are: [1])
            try ctx.expectIDs("Album", "tracks.@count >= 2", are: [1])
            try ctx.expectIDs("Album", "NONE tracks.title == 't1'", are: [2])
            try ctx.expectIDs("Playlist", "ANY tracks.title == 't4'", are: [1, 2])
            try ctx.expectIDs("Playlist", "tracks.@count == 4", are: [1])
            try ctx.expectIDs("Track", "album.title == 'al1'", are: [1, 3, 5])
            try ctx.expectIDs("Track", "playlists.@count == 2", are: [4])
            try ctx.expectEqual(try ctx.read { try $0.count(Query("Album", where: try StorePredicate(format: "tracks.@count > 0"))) },
                                2, "count of albums with tracks")
        },
        seeded("orderSurvivesMigration", requires: .migrations) { ctx in
            try OrderedSchema.append(ctx, "Album", 1, "tracks", [6, 2, 4])
            try OrderedSchema.append(ctx, "Playlist", 1, "tracks", [4, 6, 2])
            let v2 = try OrderedSchema.make(version: 2) {
                $0[2].attributes.append(Attribute("seconds", .int64, default: 0))
                $0[1].attributes.append(Attribute("year", .int64, default: 2000))
            }
            try ctx.migrate(to: v2, MigrationPlan([Migration(from: ctx.schema, to: v2)]))
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [6, 2, 4], "after the migration")
            try OrderedSchema.expectOrder(ctx, "Playlist", 1, "tracks", [4, 6, 2], "after the migration")
            try ctx.write { tx in try tx.link("Album", id: 1, "tracks", to: 1, at: 1) }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [6, 1, 2, 4], "after inserting 1 at 1 once migrated")
            try OrderedSchema.expectClean(ctx, "after the migration")
        },
        ConformanceCase("orderedRelationships", "orderedOrNotByMigration", requires: OrderedSchema.needs.union(.migrations)) { ctx in
            let unordered = try OrderedSchema.make {
                $0[1].relationships[1].isOrdered = false
                $0[3].relationships[0].isOrdered = false
            }
            try ctx.startOver(with: unordered)
            try ctx.write { tx in
                try tx.insert(try ctx.record("Album", ["id": 1]))
                try tx.insert(try ctx.record("Playlist", ["id": 1]))
                for i in 1...4 { try tx.insert(try ctx.record("Track", ["id": .int64(Int64(i))])) }
                for i in [3, 1, 4] as [Int64] {
                    try tx.link("Album", id: 1, "tracks", to: .int64(i))
                    try tx.link("Playlist", id: 1, "tracks", to: .int64(i))
                }
            }
            let ordered = try OrderedSchema.make(version: 2) { $0[2].attributes[1].isOptional = true }   // Track's table is rebuilt
            try ctx.migrate(to: ordered, MigrationPlan([Migration(from: unordered, to: ordered)]))
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [1, 3, 4], "made ordered by a migration (key order)")
            try OrderedSchema.expectOrder(ctx, "Playlist", 1, "tracks", [1, 3, 4], "made ordered by a migration (key order)")
            try ctx.write { tx in
                try tx.link("Album", id: 1, "tracks", to: 2, at: 0)
                try tx.move("Playlist", id: 1, "tracks", from: 2, to: 0)
            }
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [2, 1, 3, 4], "after inserting 2 at 0")
            try OrderedSchema.expectOrder(ctx, "Playlist", 1, "tracks", [4, 1, 3], "after moving 2 to 0")
            try OrderedSchema.expectClean(ctx, "after a relationship was made ordered")
            // Album.tracks unordered again, Track's title optional as in version 2.
            let plain = try OrderedSchema.make(version: 3) { $0[1].relationships[1].isOrdered = false; $0[2].attributes[1].isOptional = true }
            try ctx.migrate(to: plain, MigrationPlan([Migration(from: ordered, to: plain)]))
            try OrderedSchema.expectOrder(ctx, "Album", 1, "tracks", [1, 2, 3, 4], "made unordered again (key order)")
            try OrderedSchema.expectOrder(ctx, "Playlist", 1, "tracks", [4, 1, 3], "still ordered")
            try OrderedSchema.expectClean(ctx, "after a relationship was made unordered")
            let renamed = try Schema(version: 4, entities: plain.descriptions.map { d in
                var d = d
                if d.name == "Playlist" { d.name = "Mixtape" }
                d.relationships = d.relationships.map { r in var r = r; if r.destination == "Playlist" { r.destination = "Mixtape" }; return r }
                return d
            })
            try ctx.migrate(to: renamed, MigrationPlan([Migration(from: plain, to: renamed).renamingEntity("Playlist", to: "Mixtape")]))
            try OrderedSchema.expectOrder(ctx, "Mixtape", 1, "tracks", [4, 1, 3], "after Playlist was renamed Mixtape")
            try OrderedSchema.expectClean(ctx, "after an entity with an ordered list was renamed")
        },
        orderSurvivesAReusedEntityName,
    ]
}

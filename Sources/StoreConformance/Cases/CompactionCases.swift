import Foundation
import StoreCore

/// Compaction (`ConformanceHarness.compact`, the descriptor's `compact`): everything survives
/// byte for byte (records, links, list order, indexes, unique constraints), the space of
/// deleted records is given back, and the store stays usable.
enum CompactionCases {
    static let all: [ConformanceCase] = [
        ConformanceCase("compaction", "recordsAndLinksSurviveByteForByte", requires: .compaction) { ctx in
            try ctx.seed()
            try ctx.write { tx in
                try tx.insert(contentsOf: try extremeUsers(ctx))
                try tx.link("User", id: 6, "following", to: 7)
                try tx.link("User", id: 7, "following", to: 7)
                try tx.link("Post", id: 10, "tags", to: "e\u{301}")
                try tx.delete("Post", id: 12)
            }
            let before = try bytes(ctx)
            try ctx.compact()
            try ctx.expectEqual(try bytes(ctx), before, "every record and link, byte for byte, after compacting")
            try VerifyCases.expectCleanAndCounted(ctx, "after compacting")
        },
        ConformanceCase("compaction", "indexesAndUniqueConstraintsSurvive", requires: .compaction) { ctx in
            try ctx.seed()
            try ctx.write { tx in
                try tx.insert(contentsOf: try (0..<500).map { try CaseSupport.user(ctx, 1000 + $0, ["age": .int64(Int64($0 % 7)), "score": .double(Double($0 % 5))]) })
                _ = try tx.delete("User", where: KeyPathExpression("id") >= 1250)
            }
            let queries = [Query("User", where: KeyPathExpression("age") >= 3, sort: [.asc("age"), .desc("score")]),
                           Query("User", where: "username" == "u1100"), Query("Post", sort: [.desc("createdAt")]),
                           Query("Post", where: "published" == true && KeyPathExpression("score") > 0)]
            let before = try queries.map { try ctx.ids($0) }
            try ctx.compact()
            for (q, ids) in zip(queries, before) { try ctx.expectIDs(q, ids, "\(q.entity) where \(q.predicate) after compacting") }
            try ctx.expectError(.conflict, "a second user 'u1100' after compacting") {
                try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 5000, "u1100")) }
            }
            try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 5000, "u1300")) }        // freed by the delete
        },
        ConformanceCase("compaction", "orderedListsKeepTheirOrder", requires: [.compaction, .orderedRelationships]) { ctx in
            try OrderedSchema.seed(ctx)
            try OrderedSchema.append(ctx, "Playlist", 1, "tracks", [5, 2, 8, 1])
            try OrderedSchema.append(ctx, "Playlist", 2, "tracks", [8, 7, 6])
            try OrderedSchema.append(ctx, "Album", 1, "tracks", [3, 1, 2])
            try ctx.write { tx in
                try tx.move("Playlist", id: 1, "tracks", from: 3, to: 0)
                try tx.link("Artist", id: 1, "albums", to: 2, at: 0)
                try tx.link("Artist", id: 1, "albums", to: 1, at: 1)
            }
            let before = try bytes(ctx)
            try ctx.compact()
            try ctx.expectEqual(try bytes(ctx), before, "every record and ordered list after compacting")
            try OrderedSchema.expectOrder(ctx, "Playlist", 1, "tracks", [1, 5, 2, 8], "playlist 1 after compacting")
        },
        ConformanceCase("compaction", "spaceOfDeletedRecordsIsGivenBack", requires: .compaction) { ctx in
            let text = CaseSupport.text(2_000)
            try ctx.write { tx in
                try tx.insert(contentsOf: try (0..<2_000).map { try CaseSupport.user(ctx, $0 + 1, ["email": .string(text)]) })
            }
            try ctx.write { tx in _ = try tx.delete("User", where: KeyPathExpression("id") > 10) }
            try ctx.close()
            let full = try size(of: ctx.directory)
            try ctx.compact()
            try ctx.close()
            let compacted = try size(of: ctx.directory)
            try ctx.expect(compacted * 2 < full, "compacting a store after deleting 1,990 of 2,000 users of 2 KB each went from \(full) to \(compacted) bytes")
            try ctx.reopen()
            try ctx.expectIDs(Query("User"), (1...10).map { .int64(Int64($0)) }, "users after compacting")
        },
        ConformanceCase("compaction", "storeStaysUsableAndMissingIsNotFound", requires: .compaction) { ctx in
            try ctx.seed()
            try ctx.compact()
            try ctx.compact()
            try ctx.write { tx in
                try tx.insert(try CRUDCases.newUser(ctx, 9, "after"))
                try tx.link("User", id: 9, "following", to: 1)
            }
            let dump = try ctx.dump()
            if try ctx.repository.capabilities.contains(.persistence) {
                try ctx.reopen()
                try ctx.expectEqual(try ctx.dump(), dump, "writes after compacting, after reopening")
            }
            let empty = ctx.directory.appendingPathComponent("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
            try ctx.expectError(.notFound, "compacting an empty folder") { try ctx.harness.compact(schema: ctx.schema, directory: empty) }
            try ctx.expectEqual(try FileManager.default.contentsOfDirectory(atPath: empty.path), [], "the empty folder's files")
        },
    ]

    /// Users whose values sit at the edges: canonically equivalent spellings, NUL, astral
    /// scalars, values past 64 KiB, sub-millisecond dates, extreme numbers.
    static func extremeUsers(_ ctx: ConformanceContext) throws -> [Record] {
        try [
            CaseSupport.user(ctx, 6, ["displayName": "e\u{301}cole \u{1F600}\u{0}x", "email": .string(CaseSupport.text((1 << 16) + 1)),
                                      "avatar": .bytes(CaseSupport.bytes(70_001)), "score": .double(.leastNonzeroMagnitude),
                                      "joinedAt": .date(Date(timeIntervalSince1970: 1_700_000_000.000_123_4)), "age": .int64(.max)]),
            CaseSupport.user(ctx, 7, ["displayName": "\u{E9}cole", "avatar": .bytes([0, 0, 0]), "score": .double(-.greatestFiniteMagnitude),
                                      "joinedAt": .date(Date(timeIntervalSince1970: -62_135_596_800.5)), "age": .int64(.min),
                                      "externalID": .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)]),
        ] + [try ctx.record("Tag", ["name": "e\u{301}", "color": "decomposed"])]
    }

    /// The store's dump, byte for byte (Swift compares strings by canonical equivalence).
    static func bytes(_ ctx: ConformanceContext) throws -> [[UInt8]] { try ctx.dump().map { Array($0.utf8) } }

    static func size(of directory: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.fileSizeKey])
            .reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
    }
}

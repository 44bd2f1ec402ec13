import Foundation
import StoreCore

/// The schema and records of the `orderedRelationships` group: artists with an ordered list
/// of albums (deny), albums with an ordered list of tracks (one-to-many, cascade), playlists
/// with an ordered list of tracks whose inverse is an unordered to-many (many-to-many). Internal.
enum OrderedSchema {
    /// The capabilities every `orderedRelationships` case needs.
    static let needs: Capabilities = [.orderedRelationships]

    /// The schema at `version`, its descriptions edited by `edit` (a migration's destination).
    static func make(version: Int = 1, _ edit: (inout [EntityDescription]) -> Void = { _ in }) throws -> Schema {
        var d = descriptions
        edit(&d)
        return try Schema(version: version, entities: d)
    }

    private static let descriptions: [EntityDescription] = [
        EntityDescription("Artist", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("name", .string, default: "")],
                          relationships: [Relationship("albums", to: "Album", inverse: "artist", .toMany, ordered: true, deleteRule: .deny)]),
        EntityDescription("Album", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("title", .string, default: "")],
                          relationships: [Relationship("artist", to: "Artist", inverse: "albums", .toOne),
                                          Relationship("tracks", to: "Track", inverse: "album", .toMany, ordered: true, deleteRule: .cascade)]),
        EntityDescription("Track", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("title", .string, default: "")],
                          relationships: [Relationship("album", to: "Album", inverse: "tracks", .toOne),
                                          Relationship("playlists", to: "Playlist", inverse: "tracks", .toMany)]),
        EntityDescription("Playlist", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("name", .string, default: "")],
                          relationships: [Relationship("tracks", to: "Track", inverse: "playlists", .toMany, ordered: true)]),
    ]

    /// A fresh store of this schema with artist 1, albums 1–2, playlists 1–2 and tracks 1–8
    /// (titles "t1"…"t8"), nothing linked.
    static func seed(_ ctx: ConformanceContext) throws {
        try ctx.startOver(with: make())
        var records = [try ctx.record("Artist", ["id": 1, "name": "a1"])]
        for i in 1...2 { records.append(try ctx.record("Album", ["id": .int64(Int64(i)), "title": .string("al\(i)")])) }
        for i in 1...2 { records.append(try ctx.record("Playlist", ["id": .int64(Int64(i)), "name": .string("p\(i)")])) }
        for i in 1...8 { records.append(try ctx.record("Track", ["id": .int64(Int64(i)), "title": .string("t\(i)")])) }
        try ctx.write { tx in for r in records { try tx.insert(r) } }
    }

    /// Links `targets` one after the other (each appended at the end).
    static func append(_ ctx: ConformanceContext, _ entity: String, _ id: Int64, _ relationship: String, _ targets: [Int64]) throws {
        try ctx.write { tx in
            for t in targets { try tx.link(entity, id: .int64(id), relationship, to: .int64(t)) }
        }
    }

    /// The keys of a relationship as `related` returns them.
    static func order(_ ctx: ConformanceContext, _ entity: String, _ id: Int64, _ relationship: String) throws -> [Value] {
        try ctx.read { try $0.related(entity, id: .int64(id), via: relationship).map(\.id) }
    }

    /// Expects `related` to return exactly `expected`, in this order.
    static func expectOrder(_ ctx: ConformanceContext, _ entity: String, _ id: Int64, _ relationship: String,
                            _ expected: [Int64], _ what: String) throws {
        try ctx.expectEqual(try order(ctx, entity, id, relationship), expected.map(Value.int64), "\(entity) \(id).\(relationship) \(what)")
    }

    /// Expects `verify()` to find nothing.
    static func expectClean(_ ctx: ConformanceContext, _ what: String) throws {
        let report = try ctx.repository.verify()
        try ctx.expect(report.isClean, "verify() \(what) found: \(report.problems.prefix(3).map(\.description))")
    }
}

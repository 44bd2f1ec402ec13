import Foundation
import ObjectGraph
import StoreConformance
import StoreCore
import Testing

@Suite("ObjectGraph ordered to-many relationships")
struct OrderedRelationshipAccessTests {
    static let schema = try! Schema(version: 1, entities: [
        EntityDescription("Album", primaryKey: "id", attributes: [Attribute("id", .int64)],
                          relationships: [Relationship("tracks", to: "Track", inverse: "album", .toMany, ordered: true, deleteRule: .cascade)]),
        EntityDescription("Track", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("title", .string, default: "")],
                          relationships: [Relationship("album", to: "Album", inverse: "tracks", .toOne),
                                          Relationship("tags", to: "Tag", inverse: "tracks", .toMany)]),
        EntityDescription("Tag", primaryKey: "id", attributes: [Attribute("id", .int64)],
                          relationships: [Relationship("tracks", to: "Track", inverse: "tags", .toMany, ordered: true)]),
    ])

    /// The object graph over each built-in store, in a fresh folder.
    static func graphs() throws -> [(ObjectGraph, TemporaryDirectory)] {
        try conformanceHarnesses.map { h in
            let dir = try TemporaryDirectory("graph-ordered")
            return (try h.open(schema: schema, directory: dir.url) as! ObjectGraph, dir)
        }
    }

    static func ids(_ objects: [ManagedObject]) -> [Value] { objects.map(\.id) }

    @Test("insert-at, move and remove-at are staged in order, saved, and read back in order on both stores")
    func editsAreSavedInOrder() throws {
        for (graph, dir) in try Self.graphs() {
            defer { try? graph.close(); _ = dir }
            let c = graph.newContext()
            let album = try c.insert("Album", ["id": 1])
            let tracks = try (1...5).map { try c.insert("Track", ["id": .int64(Int64($0))]) }
            for i in [2, 0, 4] { try album.add(tracks[i], to: "tracks") }
            try album.insert(tracks[1], into: "tracks", at: 1)
            #expect(Self.ids(try album.related("tracks")) == [3, 2, 1, 5])
            try c.save()
            try album.move(in: "tracks", from: 3, to: 0)
            try tracks[3].setRelated("album", to: album)
            #expect(try album.remove(at: 2, from: "tracks").id == 2)
            #expect(Self.ids(try album.related("tracks")) == [5, 3, 1, 4])
            #expect(try tracks[1].relatedObject("album") == nil)
            try c.save()
            let other = graph.newContext()
            let again = try #require(try other.object("Album", id: 1))
            #expect(Self.ids(try again.related("tracks")) == [5, 3, 1, 4])
            #expect(try graph.read { try $0.related("Album", id: 1, via: "tracks").map(\.id) } == [5, 3, 1, 4])
            #expect(try other.fetch(Query("Album", format: "tracks.@count == 4")).count == 1)
        }
    }

    @Test("an ordered many-to-many side keeps the order; links from the other side append")
    func manyToMany() throws {
        for (graph, dir) in try Self.graphs() {
            defer { try? graph.close(); _ = dir }
            let c = graph.newContext()
            let tag = try c.insert("Tag", ["id": 1])
            let tracks = try (1...3).map { try c.insert("Track", ["id": .int64(Int64($0))]) }
            try tag.add(tracks[2], to: "tracks")
            try tracks[0].add(tag, to: "tags")
            try tag.insert(tracks[1], into: "tracks", at: 0)
            try c.save()
            let other = graph.newContext()
            #expect(Self.ids(try #require(try other.object("Tag", id: 1)).related("tracks")) == [2, 3, 1])
        }
    }

    @Test("bad positions and unordered relationships are invalidValue naming the relationship; nothing changes")
    func misuse() throws {
        for (graph, dir) in try Self.graphs() {
            defer { try? graph.close(); _ = dir }
            let c = graph.newContext()
            let album = try c.insert("Album", ["id": 1])
            let track = try c.insert("Track", ["id": 1]), tag = try c.insert("Tag", ["id": 1])
            try album.add(track, to: "tracks")
            expectCategory(.invalidValue) { try album.insert(try c.insert("Track", ["id": 2]), into: "tracks", at: 3) }
            expectCategory(.invalidValue) { try album.move(in: "tracks", from: 0, to: 1) }
            expectCategory(.invalidValue) { try album.remove(at: -1, from: "tracks") }
            expectCategory(.invalidValue) { try track.insert(tag, into: "tags", at: 0) }
            do {
                try album.move(in: "tracks", from: 5, to: 0)
            } catch let e as StoreError {
                #expect(e.message.contains("Album.tracks") && e.message.contains("5"), "\(e.message)")
            }
            #expect(Self.ids(try album.related("tracks")) == [1])
        }
    }
}

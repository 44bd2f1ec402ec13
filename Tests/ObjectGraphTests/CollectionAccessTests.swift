import Foundation
import ObjectGraph
import StoreConformance
import StoreCore
import Testing

@Suite("ObjectGraph list and map attributes")
struct CollectionAccessTests {
    static let schema = try! Schema(version: 1, entities: [
        EntityDescription("Note", primaryKey: "id", attributes: [
            Attribute("id", .int64), Attribute("tags", .string, collection: .list), Attribute("prices", .double, collection: .map),
        ]),
    ])

    /// The object graph over each built-in store, in a fresh folder.
    static func graphs() throws -> [(ObjectGraph, TemporaryDirectory)] {
        try conformanceHarnesses.map { h in
            let dir = try TemporaryDirectory("graph-collections")
            return (try h.open(schema: schema, directory: dir.url) as! ObjectGraph, dir)
        }
    }

    @Test("lists are edited in place like Realm's, saved, and queried on both stores")
    func listEditing() throws {
        for (graph, dir) in try Self.graphs() {
            defer { try? graph.close(); _ = dir }
            let c = graph.newContext()
            let note = try c.insert("Note", ["id": 1])
            try note.append("b", toList: "tags")
            try note.insert("a", intoList: "tags", at: 0)
            try note.append("c", toList: "tags")
            try note.moveInList("tags", from: 2, to: 0)
            #expect(try note.removeFromList("tags", at: 1) == "a")
            try note.setValue(2.5, forKey: "small", inMap: "prices")
            try c.save()
            let other = graph.newContext()
            let again = try #require(try other.object("Note", id: 1))
            #expect(try again.list("tags") == ["c", "b"])
            #expect(try again.map("prices") == ["small": 2.5])
            #expect(try other.fetch(Query("Note", format: "ANY tags == 'c' AND prices['small'] > 2")).map(\.id) == [1])
            #expect(try other.fetch(Query("Note", format: "tags.@count == 2")).count == 1)
        }
    }

    @Test("wrong elements and indices are invalidValue and change nothing")
    func misuse() throws {
        for (graph, dir) in try Self.graphs() {
            defer { try? graph.close(); _ = dir }
            let c = graph.newContext()
            let note = try c.insert("Note", ["id": 1, "tags": .list(["x"])])
            expectCategory(.invalidValue) { try note.append(5, toList: "tags") }
            expectCategory(.invalidValue) { try note.insert("y", intoList: "tags", at: 3) }
            expectCategory(.invalidValue) { _ = try note.removeFromList("tags", at: 1) }
            expectCategory(.invalidValue) { try note.moveInList("tags", from: 0, to: 4) }
            expectCategory(.invalidValue) { _ = try note.list("prices") }
            expectCategory(.invalidValue) { try note.setValue("x", forKey: "k", inMap: "prices") }
            #expect(try note.list("tags") == ["x"])
            #expect(try note.map("prices") == [:])
        }
    }
}

import Foundation
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// Embedded objects through contexts: inserted then set on their owner they save; an orphan
/// fails the save and the context keeps its edits; a second owner is refused at once; the
/// owner's delete takes them along.
@Suite("ObjectGraph embedded objects")
struct EmbeddedObjectTests {
    enum Engine: String, CaseIterable { case sqlite, lmdb }

    static let schema: Schema = try! Schema(version: 1, entities: [
        EntityDescription("User", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("name", .string, default: "")],
                          relationships: [Relationship("address", to: "Address", inverse: "user", .toOne, deleteRule: .cascade),
                                          Relationship("phones", to: "Phone", inverse: "user", .toMany, deleteRule: .cascade)]),
        EntityDescription("Address", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("city", .string, default: "")],
                          relationships: [Relationship("user", to: "User", inverse: "address", .toOne)], embedded: true),
        EntityDescription("Phone", primaryKey: "id", attributes: [Attribute("id", .int64)],
                          relationships: [Relationship("user", to: "User", inverse: "phones", .toOne)], embedded: true),
    ])

    final class Graph {
        let directory: TemporaryDirectory
        let graph: ObjectGraph

        init(_ engine: Engine) throws {
            directory = try TemporaryDirectory("embedded-\(engine)")
            let store: any Repository = switch engine {
            case .sqlite: try SQLiteStore(directory: directory.url, schema: EmbeddedObjectTests.schema)
            case .lmdb: try LMDBStore(directory: directory.url, schema: EmbeddedObjectTests.schema)
            }
            graph = ObjectGraph(store: store)
        }

        func stored(_ entity: String) throws -> [Value] {
            try graph.store.read { try $0.fetch(Query(entity)).map(\.id) }
        }
    }

    @Test(arguments: Engine.allCases)
    func insertedThenSetOnItsOwnerSaves(_ engine: Engine) throws {
        let g = try Graph(engine)
        #expect(g.graph.capabilities.contains(.embeddedObjects))
        let c = g.graph.newContext()
        let user = try c.insert("User", ["id": 1, "name": "ann"])
        let address = try c.insert("Address", ["id": 10, "city": "Oslo"])
        try user.setRelated("address", to: address)
        try user.add(try c.insert("Phone", ["id": 11]), to: "phones")
        try c.save()
        #expect(try g.graph.store.read { try $0.related("User", id: 1, via: "address") }.map(\.id) == [10])
        #expect(try g.graph.store.read { try $0.related("Phone", id: 11, via: "user") }.map(\.id) == [1])
        let fresh = g.graph.newContext()
        let users = try fresh.fetch(Query("User", where: try StorePredicate(format: "address.city == 'Oslo'")))
        #expect(users.map(\.id) == [1])
    }

    @Test(arguments: Engine.allCases)
    func savingAnOrphanThrowsAndKeepsTheEdits(_ engine: Engine) throws {
        let g = try Graph(engine)
        let c = g.graph.newContext()
        let user = try c.insert("User", ["id": 1])
        _ = try c.insert("Address", ["id": 10, "city": "Oslo"])
        let error = try #require(throws: StoreError.self) { try c.save() }
        #expect(error.category == .constraintViolation)
        #expect(error.message.contains("Address 10"), "\(error)")
        #expect(try g.stored("User").isEmpty && g.stored("Address").isEmpty)
        #expect(c.hasChanges && c.insertedObjects.count == 2)
        let address = try #require(try c.object("Address", id: 10))
        try user.setRelated("address", to: address)
        try c.save()
        #expect(try g.stored("Address") == [10])
        try user.setRelated("address", to: nil)
        #expect(throws: StoreError.self) { try c.save() }
        #expect(try g.graph.store.read { try $0.related("User", id: 1, via: "address") }.map(\.id) == [10])
        try c.delete(address)
        try c.save()
        #expect(try g.stored("Address").isEmpty)
    }

    @Test(arguments: Engine.allCases)
    func aSecondOwnerIsRefusedAndTheOwnersDeleteCascades(_ engine: Engine) throws {
        let g = try Graph(engine)
        let c = g.graph.newContext()
        let ann = try c.insert("User", ["id": 1]), ben = try c.insert("User", ["id": 2])
        let phone = try c.insert("Phone", ["id": 11])
        try ann.add(phone, to: "phones")
        try c.save()
        let error = try #require(throws: StoreError.self) { try ben.add(phone, to: "phones") }
        #expect(error.category == .constraintViolation)
        #expect(error.message.contains("second owner"), "\(error)")
        #expect(try phone.relatedObject("user")?.id == 1)
        #expect(!c.hasChanges)
        try c.delete(ann)
        try c.save()
        #expect(try g.stored("Phone").isEmpty && g.stored("User") == [2])
        let report = try g.graph.verify()
        #expect(report.isClean, "\(report.problems)")
    }
}

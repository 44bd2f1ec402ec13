import StoreCore
import Testing

@Suite("Ordered relationships in the schema")
struct OrderedRelationshipSchemaTests {
    static func entities(ordered: Bool = true, onToOne: Bool = false) -> [EntityDescription] {
        [EntityDescription("User", primaryKey: "id", attributes: [Attribute("id", .int64)],
                           relationships: [Relationship("posts", to: "Post", inverse: "author", .toMany, ordered: ordered && !onToOne)]),
         EntityDescription("Post", primaryKey: "id", attributes: [Attribute("id", .int64)],
                           relationships: [Relationship("author", to: "User", inverse: "posts", .toOne, ordered: onToOne)])]
    }

    @Test("ordered is stored, defaults to false, and is part of equality and the fingerprint")
    func orderedIsPartOfTheSchema() throws {
        let ordered = try Schema(version: 1, entities: Self.entities())
        let plain = try Schema(version: 1, entities: Self.entities(ordered: false))
        #expect(ordered["User"]!.relationship("posts")!.isOrdered)
        #expect(!ordered["Post"]!.relationship("author")!.isOrdered)
        #expect(!Relationship("x", to: "Y", inverse: "z", .toMany).isOrdered)
        #expect(ordered != plain)
        #expect(ordered.fingerprint != plain.fingerprint)
        #expect(ordered.fingerprint.contains("posts->Post.author toMany nullify ordered"))
        #expect(!plain.fingerprint.contains("ordered"), "an unordered schema keeps the fingerprint it had")
        let read = try Schema(fingerprint: ordered.fingerprint, path: "test")
        #expect(read["User"]!.relationship("posts")!.isOrdered)
        #expect(read.fingerprint == ordered.fingerprint)
    }

    @Test("ordered on a to-one is refused with a typed error naming entity and relationship")
    func orderedToOneRefused() {
        do {
            _ = try Schema(version: 1, entities: Self.entities(onToOne: true))
            Issue.record("an ordered to-one was accepted")
        } catch let e as StoreError {
            #expect(e.category == .invalidSchema)
            #expect(e.message.contains("'Post.author'"))
            #expect(e.context == "Post.author")
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test("bad positions name the relationship and the index")
    func positionErrors() {
        #expect(throws: StoreError.self) { try OrderedLinks.checkInsertion("User", "posts", index: 3, count: 2) }
        #expect(throws: Never.self) { try OrderedLinks.checkInsertion("User", "posts", index: 2, count: 2) }
        let e = OrderedLinks.outOfRange("User", "posts", index: -1, count: 2)
        #expect(e.category == .invalidValue && e.message.contains("-1") && e.message.contains("User.posts"))
        #expect(OrderedLinks.moving([1, 2, 3, 4], from: 0, to: 3) == [2, 3, 4, 1])
        #expect(OrderedLinks.moving([1, 2, 3, 4], from: 3, to: 1) == [1, 4, 2, 3])
    }
}

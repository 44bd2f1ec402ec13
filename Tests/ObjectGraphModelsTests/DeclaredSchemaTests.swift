import ObjectGraphModels
import Testing

@Model final class Node {
    var id: Int64
    var left: Leaf? = nil
    var right: Leaf? = nil
    init(id: Int64) { self.id = id }
}

@Model final class Leaf {
    var id: Int64
    var parentA: Node? = nil
    var parentB: Node? = nil
    init(id: Int64) { self.id = id }
}

@Suite struct DeclaredSchemaTests {
    @Test func entitiesDeriveFromTheTypes() throws {
        let schema = try Schema(version: 1, Author.self, Article.self, Tag.self)
        let author = try #require(schema["Author"])
        #expect(author.primaryKey.name == "id")
        #expect(author.attributes.map(\.name) == ["id", "username", "bio", "age", "score", "isActive", "joined", "avatar"])
        #expect(author.attributes.map(\.type) == [.int64, .string, .string, .int64, .double, .bool, .date, .bytes])
        #expect(author.attributes.map(\.isOptional) == [false, false, true, false, false, false, false, true])
        #expect(author.attributes[3].defaultValue == .int64(0))
        #expect(author.attributes[5].defaultValue == .bool(true))
        #expect(author.indexes == [IndexDescription(["username"], unique: true)])
        #expect(author.relationships == [Relationship("articles", to: "Article", inverse: "author", .toMany, deleteRule: .cascade)])
    }

    @Test func primaryKeyEnumsAndInferredInverses() throws {
        let schema = try Schema(version: 1, Author.self, Article.self, Tag.self)
        let article = try #require(schema["Article"])
        #expect(article.primaryKey.name == "key")
        #expect(article.primaryKey.type == .uuid)
        #expect(article.attributes.first { $0.name == "status" }?.type == .string)
        #expect(article.attributes.first { $0.name == "status" }?.defaultValue == .string("draft"))
        #expect(article.attributes.first { $0.name == "priority" }?.type == .int64)
        #expect(article.indexes == [IndexDescription(["title"])])
        #expect(article.relationship("author") == Relationship("author", to: "Author", inverse: "articles", .toOne))
        #expect(schema["Tag"]?.relationship("articles") == Relationship("articles", to: "Article", inverse: "tags", .toMany))
    }

    @Test func aDestinationLeftOutIsNamed() {
        do {
            _ = try Schema(version: 1, Author.self)
            Issue.record("expected invalidSchema")
        } catch let e as StoreError {
            #expect(e.category == .invalidSchema)
            #expect(e.message.contains("Author.articles leads to Article"), "\(e)")
        } catch { Issue.record("\(error)") }
    }

    @Test func anAmbiguousInverseIsRefused() {
        do {
            _ = try Schema(version: 1, Node.self, Leaf.self)
            Issue.record("expected invalidSchema")
        } catch let e as StoreError {
            #expect(e.category == .invalidSchema)
            #expect(e.message.contains("Node.left has no inverse"), "\(e)")
        } catch { Issue.record("\(error)") }
    }

    @Test func aModelOutsideTheStoresSchemaIsRefused() throws {
        let store = try ModelStore(.sqlite)
        let context = store.context()
        expectCategory(.invalidValue) { _ = try context.fetch(Node.self) }
    }
}

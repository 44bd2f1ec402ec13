import Foundation
import ObjectGraph
import StoreCore
import Testing

/// Typed wrappers, the way an application would write them.
struct UserObject: ObjectModel {
    static let entityName = "User"
    let object: ManagedObject
    init(_ object: ManagedObject) { self.object = object }

    var username: String { get throws { try object.require("username") } }
    var age: Int64? { get throws { try object.get("age") } }
    func setAge(_ age: Int64?) throws { try object.set("age", age.map(Value.int64) ?? .null) }
    var posts: [PostObject] { get throws { try object.related("posts").map(PostObject.init) } }
}

struct PostObject: ObjectModel {
    static let entityName = "Post"
    let object: ManagedObject
    init(_ object: ManagedObject) { self.object = object }

    var title: String { get throws { try object.require("title") } }
    var author: UserObject? { get throws { try object.relatedObject("author").map(UserObject.init) } }
    func setAuthor(_ user: UserObject?) throws { try object.setRelated("author", to: user?.object) }
}

@Suite("ObjectGraph typed models")
struct ObjectModelTests {
    @Test func typedAccessRoundTrips() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let ann = try #require(try c.fetch(UserObject.self, where: "username" == "ann").first)
        #expect(try ann.username == "ann")
        #expect(try ann.age == 30)
        #expect(try ann.posts.map { try $0.title } == ["Café au lait", "ÉCOLE normale"])
        let post = try #require(try c.object(PostObject.self, id: 15))
        try post.setAuthor(ann)
        try ann.setAge(nil)
        try c.save()
        #expect(try f.storedLinks("Post", 15, "author") == [1])
        #expect(try f.stored("User", 1)?["age"] == .null)
        expectCategory(.invalidValue) { _ = try post.object.require("rating", as: String.self) }
        let tag = try c.insert("Tag", ["name": "n"])
        expectCategory(.invalidValue) { _ = try tag.require("color", as: String.self) }   // nil
    }
}

import ObjectGraph
import StoreConformance
import StoreCore
import Testing

@Suite("ObjectGraph relationships and delete rules")
struct RelationshipAndDeleteTests {
    @Test func settingOneSideUpdatesTheInverseAtOnce() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let ann = try #require(try c.object("User", id: 1))
        let bob = try #require(try c.object("User", id: 2))
        let post = try #require(try c.object("Post", id: 15))   // no author
        #expect(try ann.related("posts").count == 2)

        try post.setRelated("author", to: ann)
        #expect(ids(try ann.related("posts")) == [10, 11, 15])
        // Moving it: the old owner loses it, the new one gains it, before any save.
        try post.setRelated("author", to: bob)
        #expect(ids(try ann.related("posts")) == [10, 11])
        #expect(ids(try bob.related("posts")) == [12, 15])
        // From the to-many side.
        try ann.add(post, to: "posts")
        #expect(try post.relatedObject("author") === ann)
        #expect(ids(try bob.related("posts")) == [12])
        #expect(try f.storedLinks("Post", 15, "author") == [])   // nothing saved yet

        try c.save()
        #expect(try f.storedLinks("Post", 15, "author") == [1])
        #expect(try f.storedLinks("User", 1, "posts") == [10, 11, 15])
        #expect(try f.storedLinks("User", 2, "posts") == [12])
    }

    @Test func manyToManyAndOneToOne() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let swift = try #require(try c.object("Tag", id: "swift"))
        let post = try #require(try c.object("Post", id: 10))
        try post.add(swift, to: "tags")
        #expect(ids(try swift.related("posts")) == [10, 12, 14])
        try swift.remove(post, from: "posts")
        #expect(ids(try post.related("tags")) == ["Unicode", "cafe"])
        try swift.add(post, to: "posts")

        // One-to-one is exclusive: giving bob ann's profile takes it from ann.
        let ann = try #require(try c.object("User", id: 1))
        let bob = try #require(try c.object("User", id: 2))
        let p1 = try #require(try ann.relatedObject("profile"))
        try bob.setRelated("profile", to: p1)
        #expect(try ann.relatedObject("profile") == nil)
        #expect(try p1.relatedObject("user") === bob)
        try c.save()
        #expect(try f.storedLinks("Tag", "swift", "posts") == [10, 12, 14])
        #expect(try f.storedLinks("User", 1, "profile") == [])
        #expect(try f.storedLinks("User", 2, "profile") == [.uuid(p1.id.uuidValue!)])
    }

    @Test func cascadeDeletesInTheGraphAndTheStore() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let ann = try #require(try c.object("User", id: 1))
        let post10 = try #require(try c.object("Post", id: 10))
        let comment101 = try c.fault("Comment", id: 101)
        try c.delete(ann)
        // ann's posts, their comments and replies, her comments and her profile go with her.
        #expect(ann.isDeleted && post10.isDeleted && comment101.isDeleted)
        #expect(Set(ids(c.deletedObjects)) == Set([1, 10, 11, 100, 101, 102, 103, 104, .uuid(SocialFixture.profile1)]))
        // Nullified on the survivors at once: bob no longer follows ann.
        let bob = try #require(try c.object("User", id: 2))
        #expect(ids(try bob.related("following")) == [])
        #expect(try c.fetch(Query("Post")).map(\.id) == [12, 13, 14, 15])

        try c.save()
        #expect(try f.stored("User", 1) == nil)
        #expect(try f.storedCount("Post") == 4)
        #expect(try f.storedCount("Comment") == 0)
        #expect(try f.storedLinks("User", 2, "following") == [])
        #expect(ann.isInvalidated)
    }

    @Test func nullifyKeepsTheDestination() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let post = try #require(try c.object("Post", id: 12))
        let swift = try #require(try c.object("Tag", id: "swift"))
        try c.delete(post)   // Post.tags nullify; comment 103 cascades
        #expect(ids(try swift.related("posts")) == [14])
        try c.save()
        #expect(try f.stored("Tag", "swift") != nil)
        #expect(try f.storedLinks("Tag", "swift", "posts") == [14])
        #expect(try f.stored("Comment", 103) == nil)
    }

    @Test func denyFailsTheSaveAndKeepsContextAndStore() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let swift = try #require(try c.object("Tag", id: "swift"))
        let bob = try #require(try c.object("User", id: 2))
        try bob.set("age", 26)
        try c.delete(swift)   // Tag.posts is deny and swift has posts
        expectCategory(.constraintViolation) { try c.save() }
        // The context still holds its changes; the store has none of them.
        #expect(swift.isDeleted && bob.isUpdated && c.hasChanges)
        #expect(try f.stored("Tag", "swift") != nil)
        #expect(try f.stored("User", 2)?["age"] == 25)
        // Removing the posts first makes the delete valid.
        c.rollback()
        for p in try swift.related("posts") { try swift.remove(p, from: "posts") }
        try c.delete(swift)
        try c.save()
        #expect(try f.stored("Tag", "swift") == nil)
        #expect(try f.storedLinks("Post", 12, "tags") == ["db"])
    }

    @Test func deletingAnInsertedObjectNeverReachesTheStore() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let comment = try c.insert("Comment", ["id": 900, "text": "draft", "createdAt": .date(SocialFixture.epoch)])
        let post = try #require(try c.object("Post", id: 10))
        try comment.setRelated("post", to: post)
        #expect(ids(try post.related("comments")) == [100, 101, 102, 900])
        try c.delete(comment)
        #expect(comment.isInvalidated)
        #expect(ids(try post.related("comments")) == [100, 101, 102])
        try c.save()
        #expect(try f.stored("Comment", 900) == nil)
        #expect(try f.storedLinks("Post", 10, "comments") == [100, 101, 102])
    }

    @Test func anInsertedObjectIsBoundByItsDenyRuleToo() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let t = try c.insert("Tag", ["name": "temp"])
        let post = try #require(try c.object("Post", id: 10))
        try t.add(post, to: "posts")
        try c.delete(t)
        #expect(t.isDeleted)
        expectCategory(.constraintViolation) { try c.save() }
        c.rollback()
        #expect(t.isInvalidated)
        #expect(ids(try post.related("tags")) == ["Unicode", "cafe"])
        #expect(!c.hasChanges)
    }
}

import Foundation
import ObjectGraph
import StoreCore
import Testing

@Suite("ObjectGraph change tracking, save and rollback")
struct ChangeTrackingTests {
    @Test func setsOfChangesAndHasChanges() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        #expect(!c.hasChanges)
        let bob = try #require(try c.object("User", id: 2))
        try bob.set("age", 25)               // the same value: not a change
        #expect(!c.hasChanges)
        try bob.set("age", 26)
        let tag = try c.insert("Tag", ["name": "new"])
        let chloe = try #require(try c.object("User", id: 5))
        try c.delete(chloe)
        #expect(c.hasChanges)
        // chloe's comment 102 cascades; unlinking it updates post 10 and its parent comment 101.
        #expect(Set(ids(c.updatedObjects)) == [2, 10, 101])
        #expect(ids(c.insertedObjects) == ["new"])
        #expect(Set(ids(c.deletedObjects)) == [5, 102])
        #expect(bob.changedKeys == ["age"])
        #expect(tag.isInserted && chloe.isDeleted && bob.isUpdated)
        try bob.set("age", 25)               // back to the saved value
        #expect(!bob.isUpdated)
    }

    @Test func saveWritesOnlyChangedAttributesInOneTransaction() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let bob = try #require(try c.object("User", id: 2))
        let zoe = try #require(try c.object("User", id: 4))
        try bob.set("age", 26)
        try bob.set("email", "bob@example.com")
        try zoe.set("score", 5.0)
        try c.insert("Tag", ["name": "fresh", "color": "red"])
        let writes = f.store.current.writes
        try c.save()
        #expect(f.store.current.writes == writes + 1)
        let updates = f.store.updates.withLock { $0 }.sorted { Value.compare($0.1, $1.1) == .orderedAscending }
        #expect(updates.map(\.1) == [2, 4])
        #expect(updates.map(\.2) == [["age", "email"], ["score"]])
        #expect(try f.stored("User", 2)?["email"] == "bob@example.com")
        #expect(try f.stored("Tag", "fresh")?["color"] == "red")
        #expect(!c.hasChanges)
        try c.save()                         // nothing to do: no transaction
        #expect(f.store.current.writes == writes + 1)
    }

    @Test func rollbackRestoresTheLastSavedState() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let ann = try #require(try c.object("User", id: 1))
        let bob = try #require(try c.object("User", id: 2))
        let post = try #require(try c.object("Post", id: 10))
        try ann.set("username", "anne")
        try post.setRelated("author", to: bob)
        let t = try c.insert("Tag", ["name": "x"])
        try c.delete(try #require(try c.object("User", id: 3)))
        c.rollback()
        #expect(!c.hasChanges)
        #expect(try ann.value("username") == "ann")
        #expect(try post.relatedObject("author") === ann)
        #expect(ids(try bob.related("posts")) == [12])
        #expect(t.isInvalidated)
        let emile = try #require(try c.object("User", id: 3))
        #expect(!emile.isDeleted)
        #expect(try c.fetch(Query("User")).count == 5)
        try c.save()
        #expect(try f.stored("User", 1)?["username"] == "ann")
    }

    @Test func validationErrorsLeaveContextAndStoreAsTheyWere() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        // Required attributes missing: found by save.
        let u = try c.insert("User", ["id": 50, "username": "new"])
        let bob = try #require(try c.object("User", id: 2))
        try bob.set("age", 27)
        expectCategory(.constraintViolation) { try c.save() }
        #expect(u.isInserted && bob.isUpdated)
        #expect(try f.stored("User", 50) == nil)
        #expect(try f.stored("User", 2)?["age"] == 25)
        // Fixing it lets the same save through.
        try u.set("displayName", "New")
        try u.set("joinedAt", .date(Date(timeIntervalSince1970: 0)))
        try c.save()
        #expect(try f.stored("User", 50)?["displayName"] == "New")
        #expect(try f.stored("User", 2)?["age"] == 27)
    }

    @Test func wrongTypesAndUnknownNamesFailAtOnce() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let bob = try #require(try c.object("User", id: 2))
        expectCategory(.invalidValue) { try bob.set("age", "old") }
        expectCategory(.invalidValue) { try bob.set("nope", 1) }
        expectCategory(.invalidValue) { try bob.set("id", 7) }
        expectCategory(.invalidValue) { _ = try bob.related("nope") }
        expectCategory(.invalidValue) { try c.insert("Nope", [:]) }
        expectCategory(.conflict) { try c.insert("User", ["id": 2, "username": "dup"]) }
        expectCategory(.invalidQuery) { _ = try c.fetch(Query("Nope")) }
        #expect(!c.hasChanges)
    }

    @Test func aStoreConflictFailsTheSaveAndKeepsEverything() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        // Not registered, so the context cannot know; the store refuses at save.
        try c.insert("User", ["id": 3, "username": "emile2", "displayName": "E", "joinedAt": .date(Date())])
        try c.insert("Tag", ["name": "ok"])
        expectCategory(.conflict) { try c.save() }
        #expect(c.insertedObjects.count == 2)
        #expect(try f.stored("Tag", "ok") == nil)
    }

    @Test func fetchesSeeUnsavedChanges() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let zoe = try #require(try c.object("User", id: 4))
        try zoe.set("age", 31)
        try c.insert("User", ["id": 6, "username": "amy", "displayName": "Amy", "age": 30, "joinedAt": .date(Date())])
        try c.delete(try #require(try c.object("User", id: 1)))
        let thirty = try c.fetch(Query("User", where: "age" == 30, sort: [.asc("username")]))
        #expect(ids(thirty) == [6])
        #expect(try c.count(Query("User")) == 5)
        let paged = try c.fetch(Query("User", sort: [.desc("age")], limit: 2, offset: 1))
        #expect(ids(paged) == [4, 6])      // chloe 41 | zoe 31, amy 30 | bob 25, emile nil
        // A key path through an edited related object.
        try #require(try c.object("User", id: 2)).set("username", "robert")
        let byRobert = try c.fetch(Query("Post", where: "author.username" == "robert"))
        #expect(ids(byRobert) == [12])
    }
}

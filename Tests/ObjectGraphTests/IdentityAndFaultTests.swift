import ObjectGraph
import StoreCore
import Testing

@Suite("ObjectGraph identity map and faults")
struct IdentityAndFaultTests {
    @Test func fetchingTwiceGivesTheSameInstance() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let a = try c.fetch(Query("User", sort: [.asc("username")]))
        let b = try c.fetch(Query("User", where: "age" == 30))
        let ann = try #require(a.first { $0.id == 1 })
        #expect(b.contains { $0 === ann })
        #expect(try c.object("User", id: 1) === ann)
        // Through a relationship, too.
        let post = try #require(try c.object("Post", id: 10))
        #expect(try post.relatedObject("author") === ann)
        // Another context has its own instance of the same record.
        let other = f.graph.newContext()
        let ann2 = try #require(try other.object("User", id: 1))
        #expect(ann2 !== ann)
        #expect(ann2.objectID == ann.objectID)
    }

    @Test func aRegisteredObjectIsServedWithoutTheStore() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let bob = try #require(try c.object("User", id: 2))   // registered while referenced
        let before = f.store.current
        for _ in 0..<100 { #expect(try c.object("User", id: 2) === bob) }
        #expect(f.store.current == before)
    }

    @Test func touchingAFaultLoadsItExactlyOnce() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let bob = try c.fault("User", id: 2)
        #expect(bob.isFault)
        #expect(f.store.current.reads == 0)
        #expect(try bob.value("username") == "bob")
        #expect(f.store.current.fetchByID == 1)
        _ = try bob.value("age")
        _ = try bob.record()
        let age: Int64? = try bob.get("age")
        #expect(age == 25)
        #expect(f.store.current.fetchByID == 1)
        #expect(!bob.isFault)

        c.refresh(bob)
        #expect(bob.isFault)
        #expect(try bob.value("displayName") == "Bob Stone")
        #expect(f.store.current.fetchByID == 2)
    }

    @Test func aFaultOfAMissingRecordFailsWhenTouched() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let ghost = try c.fault("User", id: 999)
        expectCategory(.notFound) { _ = try ghost.value("username") }
        #expect(ghost.isInvalidated)
        #expect(try c.object("User", id: 999) == nil)
    }

    @Test func relationshipsLoadOnFirstAccessOnly() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let ann = try #require(try c.object("User", id: 1))
        let start = f.store.current
        let posts = try ann.related("posts")
        #expect(ids(posts) == [10, 11])
        #expect(f.store.current.related == start.related + 1)
        // The related objects came with the relationship: touching them reads nothing.
        #expect(try posts.map { try $0.value("title") } == ["Café au lait", "ÉCOLE normale"])
        _ = try ann.related("posts")
        #expect(f.store.current.reads == start.reads + 1)
        // A to-one, a many-to-many.
        #expect(try posts[0].relatedObject("author") === ann)
        #expect(try posts[0].related("tags").map(\.id) == ["Unicode", "cafe"])
    }

    @Test func fireFaultsLoadsManyWithOneQuery() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let faults = try (1...5).map { try c.fault("User", id: .int64(Int64($0))) }
        try c.fireFaults(faults)
        #expect(f.store.current.queries == 1)
        #expect(faults.allSatisfy { !$0.isFault })
        #expect(try faults.map { try $0.value("username") } == ["ann", "bob", "emile", "zoe", "chloe"])
        #expect(f.store.current.fetchByID == 0)
    }

    @Test func unreferencedUnmodifiedObjectsAreReleased() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        var kept: ManagedObject? = try c.object("User", id: 1)
        do {
            let all = try c.fetch(Query("Post"))
            #expect(all.count == 6)
            try all[0].set("score", 99)      // modified: the context keeps it
        }
        #expect(c.registeredObjectCount == 2)   // ann (kept by us) and post 10 (modified)
        kept = nil
        #expect(c.registeredObjectCount == 1)
        try c.save()
        #expect(c.registeredObjectCount == 0)   // saved: nothing holds post 10 any more
        _ = kept
    }

    @Test func retainsRegisteredObjectsKeepsReleasedObjectsUntilReset() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        c.retainsRegisteredObjects = true
        _ = try c.fetch(Query("Post"))
        #expect(c.registeredObjectCount == 6)   // nobody references them, the context does
        let before = f.store.current
        _ = try #require(try c.object("Post", id: 10))
        #expect(f.store.current == before)      // served by the identity map
        c.reset()
        #expect(c.registeredObjectCount == 0)
    }

    @Test func aReadTransactionServesRepeatedFetchesFromItsIdentityMap() throws {
        let f = try GraphFixture()
        let before = f.store.current
        let names = try f.graph.read { tx in try (0..<50).map { _ in try tx.fetch("User", id: 2)?["username"] } }
        #expect(Set(names) == ["bob"])
        #expect(f.store.current.fetchByID - before.fetchByID == 1)
    }

    @Test func canonicallyEquivalentStringKeysAreTwoObjects() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let composed = try c.insert("Tag", ["name": "\u{E9}"])
        let decomposed = try c.insert("Tag", ["name": "e\u{301}"])   // == in Swift, another key in the store
        #expect(composed !== decomposed)
        #expect(composed.objectID != decomposed.objectID)
        try c.save()
        #expect(try c.object("Tag", id: "e\u{301}") === decomposed)
    }
}

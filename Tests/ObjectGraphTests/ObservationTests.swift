import ObjectGraph
import StoreConformance
import StoreCore
import Testing

/// Scripted sequences of saves, each with the change set an observer must receive.
@Suite("ObjectGraph observation")
struct ObservationTests {
    /// Collects what a results observer receives.
    final class Recorder {
        var initial: [Value]?
        var updates: [(ids: [Value], change: CollectionChange)] = []
        var errors = 0
        func receive(_ c: ResultsChange) {
            switch c {
            case .initial(let objects): initial = ids(objects)
            case .update(let objects, let change): updates.append((ids(objects), change))
            case .error: errors += 1
            }
        }
    }

    @Test func resultsChangeSetsForAScriptedSequence() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let r = Recorder()
        // Users aged 30 or more, by username: ann(1), chloe(5), zoe(4).
        let token = try c.observe(Query("User", where: "age" >= 30, sort: [.asc("username")]), r.receive)
        #expect(r.initial == [1, 5, 4])

        // 1. Insert "bea" (age 33): lands between ann and chloe.
        try c.insert("User", ["id": 7, "username": "bea", "displayName": "Bea", "age": 33, "joinedAt": .date(SocialFixture.epoch)])
        try c.save()
        // 2. Modify zoe's score (stays in place).
        try #require(try c.object("User", id: 4)).set("score", 9.0)
        try c.save()
        // 3. Rename ann to "zuri": she moves from first to last.
        try #require(try c.object("User", id: 1)).set("username", "zuri")
        try c.save()
        // 4. Delete chloe, and make bob (25) match by turning 35.
        try c.delete(try #require(try c.object("User", id: 5)))
        try #require(try c.object("User", id: 2)).set("age", 35)
        try c.save()
        // 5. A save that does not touch the results: no notification.
        try #require(try c.object("Post", id: 10)).set("score", 1)
        try c.save()

        let expected: [([Value], CollectionChange)] = [
            ([1, 7, 5, 4], CollectionChange(insertions: [1])),
            ([1, 7, 5, 4], CollectionChange(modifications: [3], modificationsInNew: [3])),
            ([7, 5, 4, 1], CollectionChange(deletions: [0], insertions: [3])),
            ([7, 2, 4, 1], CollectionChange(deletions: [1], insertions: [1])),
        ]
        #expect(r.updates.count == expected.count)
        for (got, want) in zip(r.updates, expected) {
            #expect(got.ids == want.0)
            #expect(got.change == want.1)
        }
        #expect(r.errors == 0)
        token.cancel()
        try #require(try c.object("User", id: 7)).set("age", 1)
        try c.save()
        #expect(r.updates.count == expected.count)
    }

    @Test func objectObserverGetsChangedKeysThenDeletion() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let bob = try #require(try c.object("User", id: 2))
        var got: [ObjectChange] = []
        let token = try c.observe(bob) { got.append($0) }
        try bob.set("age", 26)
        try bob.set("email", "b@x")
        try c.save()
        try bob.add(try #require(try c.object("Post", id: 15)), to: "posts")
        try c.save()
        try c.delete(bob)
        try c.save()
        #expect(got == [.changed(keys: ["age", "email"]), .changed(keys: ["posts"]), .deleted])
        _ = token
    }

    @Test func observersSeeOtherContextsSavesWhenMerged() throws {
        let f = try GraphFixture()
        let viewer = f.graph.newContext()
        let editor = f.graph.newContext()
        let r = Recorder()
        let token = try viewer.observe(Query("Tag", sort: [.asc("name")]), r.receive)
        #expect(r.initial == ["Unicode", "cafe", "db", "swift"])
        try editor.insert("Tag", ["name": "data"])
        try editor.save()
        #expect(r.updates.isEmpty)             // nothing until the viewer merges
        try viewer.mergeChanges()
        #expect(r.updates.map(\.ids) == [["Unicode", "cafe", "data", "db", "swift"]])
        #expect(r.updates.first?.change == CollectionChange(insertions: [2]))
        _ = token
    }

    @Test func diffOfPermutationsKeepsTheLongestOrderedRun() {
        let c = CollectionChange.between(old: ["a", "b", "c", "d", "e"], new: ["b", "c", "x", "e", "a"]) { $0 == "c" }
        #expect(c.deletions == [0, 3])          // a moved, d removed
        #expect(c.insertions == [2, 4])         // x new, a moved
        #expect(c.modifications == [2])
        #expect(c.modificationsInNew == [1])
        #expect(CollectionChange.between(old: [1, 2, 3], new: [1, 2, 3]) { _ in false }.isEmpty)
        #expect(CollectionChange.between(old: [Int](), new: [1, 2]) { _ in false }.insertions == [0, 1])
        #expect(CollectionChange.between(old: [3, 2, 1], new: [1, 2, 3]) { _ in false }.deletions.count == 2)
    }
}

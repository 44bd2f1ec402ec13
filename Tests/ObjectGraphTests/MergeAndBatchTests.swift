import ObjectGraph
import StoreCore
import Testing

@Suite("ObjectGraph contexts, merges and batch operations")
struct MergeAndBatchTests {
    @Test func aSecondContextSeesSavedChanges() throws {
        let f = try GraphFixture()
        let a = f.graph.newContext()
        let b = f.graph.newContext()
        let bobA = try #require(try a.object("User", id: 2))
        let bobB = try #require(try b.object("User", id: 2))
        let postB = try #require(try b.object("Post", id: 12))
        #expect(try postB.relatedObject("author") === bobB)

        try bobA.set("age", 40)
        try a.delete(try #require(try a.object("User", id: 5)))
        let ann = try #require(try a.object("User", id: 1))
        try (try #require(try a.object("Post", id: 12))).setRelated("author", to: ann)
        let chloeB = try #require(try b.object("User", id: 5))
        try a.save()

        // Merged on b's next fetch.
        _ = try b.fetch(Query("Tag"))
        #expect(try bobB.value("age") == 40)
        #expect(chloeB.isInvalidated)
        #expect(try postB.relatedObject("author")?.id == 1)
        #expect(ids(try bobB.related("posts")) == [])
    }

    @Test(arguments: MergePolicy.allCases)
    func conflictingEditsFollowTheMergePolicy(_ policy: MergePolicy) throws {
        let f = try GraphFixture()
        let a = f.graph.newContext()
        let b = f.graph.newContext(mergePolicy: policy)
        let zoeA = try #require(try a.object("User", id: 4))
        let zoeB = try #require(try b.object("User", id: 4))
        try zoeB.set("age", 33)          // b's unsaved edit
        try zoeB.set("email", "z@b")     // not edited by a
        try zoeA.set("age", 50)
        try zoeA.set("score", 1.5)
        try a.save()
        try b.mergeChanges()
        #expect(try zoeB.value("score") == 1.5)          // no conflict: a's value arrives
        #expect(try zoeB.value("email") == "z@b")        // b's own edit stays
        switch policy {
        case .storeWins:
            #expect(try zoeB.value("age") == 50)
            #expect(zoeB.changedKeys == ["email"])
        case .objectWins, .reportConflicts:
            #expect(try zoeB.value("age") == 33)
            #expect(zoeB.changedKeys == ["age", "email"])
        }
        if policy == .reportConflicts {
            // Nothing written, nothing lost: the edit stays until the caller settles it.
            let error = try #require(throws: StoreError.self) { try b.save() }
            #expect(error.category == .conflict)
            #expect(error.message.contains("User(4).{age}"))
            #expect(try f.stored("User", 4)?["age"] == 50)
            #expect(try f.stored("User", 4)?["email"] != "z@b")
            #expect(try zoeB.value("age") == 33 && zoeB.hasChanges)
            b.mergePolicy = .objectWins
        }
        try b.save()
        #expect(try f.stored("User", 4)?["age"] == (policy == .storeWins ? 50 : 33))
        #expect(try f.stored("User", 4)?["email"] == "z@b")
        #expect(try f.stored("User", 4)?["score"] == 1.5)
    }

    @Test func contextsOnTwoThreads() async throws {
        let f = try GraphFixture()
        let graph = f.graph
        let id = try graph.newContext().objectID("User", 2)
        // Each task has its own context; only the Sendable graph and object ID cross over.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<4 {
                group.addTask {
                    let c = graph.newContext(mergePolicy: .objectWins)   // the last save wins
                    let bob = try #require(try c.object(id))
                    try bob.set("score", .double(Double(n)))
                    try c.save()
                }
            }
            try await group.waitForAll()
        }
        let score = try #require(try f.stored("User", 2)?["score"].doubleValue)
        #expect((0..<4).contains(Int(score)))
    }

    @Test func batchUpdateRefreshesRegisteredObjects() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let ann = try #require(try c.object("User", id: 1))
        let zoe = try #require(try c.object("User", id: 4))
        var seen: [ObjectChange] = []
        let token = try c.observe(zoe) { seen.append($0) }
        let n = try c.batchUpdate("User", where: "age" == 30, set: ["score": 0.5])
        #expect(n == 2)
        #expect(try ann.value("score") == 0.5)
        #expect(try zoe.value("score") == 0.5)
        #expect(seen == [.changed(keys: ["score"])])
        _ = token
    }

    @Test func batchDeleteInvalidatesObjectsAndAppliesRules() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        let other = f.graph.newContext()
        let post12 = try #require(try c.object("Post", id: 12))
        let bob = try #require(try c.object("User", id: 2))
        #expect(ids(try bob.related("posts")) == [12])
        let comment103 = try #require(try other.object("Comment", id: 103))
        let n = try c.batchDelete("Post", where: "score" > 4)   // 10, 12, 15 (cascading comments)
        #expect(n == 3)
        #expect(post12.isInvalidated)
        #expect(ids(try bob.related("posts")) == [])
        try other.mergeChanges()
        expectCategory(.notFound) { _ = try comment103.value("text") }   // deleted by the cascade
        #expect(try c.fetch(Query("Post")).map(\.id) == [11, 13, 14])
    }

    @Test func batchInsertIsMergedIntoObservers() throws {
        let f = try GraphFixture()
        let c = f.graph.newContext()
        var counts: [Int] = []
        let token = try c.observe(Query("Tag")) { if case .update(let o, _) = $0 { counts.append(o.count) } }
        let tag = try f.schema.entity("Tag")
        try c.batchInsert(try (0..<10).map { try tag.record(["name": .string("t\($0)")]) })
        #expect(counts == [14])
        expectCategory(.conflict) { try c.batchInsert([try tag.record(["name": "t0"]), try tag.record(["name": "zz"])]) }
        #expect(try f.storedCount("Tag") == 14)
        _ = token
    }
}

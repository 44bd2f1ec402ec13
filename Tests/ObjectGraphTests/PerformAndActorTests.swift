import Foundation
import ObjectGraph
import StoreConformance
import StoreCore
import Testing

/// Imports posts from an actor that runs on its context's queue.
actor PostImporter: GraphActor {
    nonisolated let graphExecutor: GraphExecutor
    private var token: ObservationToken?
    let seen = Mailbox<Int>()

    init(graph: ObjectGraph) { graphExecutor = GraphExecutor(graph: graph) }

    func importPost(id: Int64, title: String) throws {
        let post = try context.insert("Post", ["id": .int64(id), "title": .string(title), "createdAt": .date(SocialFixture.epoch)])
        try post.setRelated("author", to: try context.object("User", id: 1))
        try context.save()
    }

    /// Counts Users as pushed saves change them, on the actor's queue.
    func watchUsers() throws {
        let seen = self.seen
        token = try context.observe(Query("User")) { change in
            if case .update(let users, _) = change { seen.put(users.count) }
        }
    }

    func onQueue() -> Bool { graphExecutor.queue.isCurrent }
}

@Suite("ObjectGraph perform and GraphActor", .onOwnThreads)
struct PerformAndActorTests {
    @Test(arguments: graphEngines)
    func performRunsOnTheQueueReturnsAndRethrows(_ engine: String) async throws {
        let f = try EngineGraph(engine)
        let context = f.graph.newBackgroundContext()
        let queue = try #require(context.contextQueue)
        let (count, onQueue) = try await context.perform { c in (try c.count(Query("User")), queue.isCurrent) }
        #expect(count == 5 && onQueue)
        let plain = await context.perform { _ in 42 }   // a body that cannot throw needs no try
        #expect(plain == 42)
        let error = await #expect(throws: StoreError.self) {
            try await context.perform { c in try c.fetch(Query("Nope")).count }
        }
        #expect(error?.category == .invalidQuery || error?.category == .notFound)

        let id = try await context.perform { c in
            try c.insert("Tag", ["name": "perform"])
            try c.save()
            return try c.objectID("Tag", "perform")
        }
        #expect(try f.graph.read { try $0.fetch("Tag", id: id.key) } != nil)
        #expect(context.performAndWait { _ in queue.isCurrent })
        #expect(!queue.isCurrent)
    }

    @Test func performOnAThreadConfinedContextRunsInPlace() async throws {
        let f = try EngineGraph("sqlite")
        let context = f.graph.newContext()
        #expect(try await context.perform { try $0.count(Query("User")) } == 5)
        #expect(try context.performAndWait { try $0.count(Query("Tag")) } == 4)
    }

    @Test(arguments: graphEngines)
    func anActorUsesItsContextWithoutPerformAndGetsPushes(_ engine: String) async throws {
        let f = try EngineGraph(engine)
        let importer = PostImporter(graph: f.graph)
        #expect(await importer.onQueue())
        try await importer.importPost(id: 99, title: "from the actor")
        #expect(try f.graph.read { try $0.related("Post", id: 99, via: "author").map(\.id) } == [1])

        try await importer.watchUsers()
        try f.graph.write { try $0.insert(try f.user(50, "nell")) }
        try #require(await importer.seen.arrived(1))
        #expect(importer.seen.all == [6])
    }

    @Test(arguments: graphEngines)
    func aBackgroundContextSeesAnotherBackgroundContextsSave(_ engine: String) async throws {
        let f = try EngineGraph(engine)
        let writer = f.graph.newBackgroundContext(), reader = f.graph.newBackgroundContext()
        let box = Mailbox<Delivery>()
        let token = try PushObservationTests.observe(reader, Query("User", where: "age" >= 30, sort: [.asc("id")]), into: box)
        try await writer.perform { c in
            try #require(try c.object("User", id: 2)).set("age", 31)
            try c.save()
        }
        try #require(await box.arrived(2))
        #expect(box.all[1].ids == [1, 2, 4, 5])
        #expect(box.all[1].change == CollectionChange(insertions: [1]))
        _ = token
    }
}

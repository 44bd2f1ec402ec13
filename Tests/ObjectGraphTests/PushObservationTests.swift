import Foundation
import ObjectGraph
import StoreConformance
import StoreCore
import Testing

/// Queue-bound contexts: saves of other contexts and of `ObjectGraph.write` reach their
/// observers on their queue without any merge call.
@Suite("ObjectGraph push observation", .onOwnThreads)
struct PushObservationTests {
    static let tags = Query("Tag", sort: [.asc("name")])

    /// Observes `query` on a queue-bound context, recording each delivery in `box`.
    static func observe(_ context: ObjectContext, _ query: Query, into box: Mailbox<Delivery>) throws -> ObservationToken {
        let queue = try #require(context.contextQueue)
        return try context.performAndWait { c in
            try c.observe(query) { change in
                switch change {
                case .initial(let objects): box.put(Delivery(ids: ids(objects), change: nil, onQueue: queue.isCurrent))
                case .update(let objects, let c): box.put(Delivery(ids: ids(objects), change: c, onQueue: queue.isCurrent))
                case .error: box.put(Delivery(ids: [], change: nil, onQueue: false))
                }
            }
        }
    }

    @Test(arguments: graphEngines)
    func savesOnOtherThreadsArePushedWithoutAMerge(_ engine: String) async throws {
        let f = try EngineGraph(engine)
        let viewer = f.graph.newBackgroundContext()
        let box = Mailbox<Delivery>()
        let token = try Self.observe(viewer, Self.tags, into: box)
        #expect(box.all.first?.ids == ["Unicode", "cafe", "db", "swift"])

        let graph = f.graph
        let writer = Thread {   // a thread-confined context of another thread saves
            let editor = graph.newContext()
            _ = try? editor.insert("Tag", ["name": "data"])
            try? editor.save()
        }
        writer.start()
        try #require(await box.arrived(2))
        #expect(box.all[1] == Delivery(ids: ["Unicode", "cafe", "data", "db", "swift"], change: CollectionChange(insertions: [2])))

        Thread { try? graph.deleteTag("db") }.start()   // ObjectGraph.write
        try #require(await box.arrived(3))
        #expect(box.all[2] == Delivery(ids: ["Unicode", "cafe", "data", "swift"], change: CollectionChange(deletions: [3])))
        #expect(box.all.allSatisfy { $0.onQueue })
        _ = token
    }

    @Test(arguments: graphEngines)
    func objectObserversArePushedToo(_ engine: String) async throws {
        let f = try EngineGraph(engine)
        let viewer = f.graph.newBackgroundContext()
        let box = Mailbox<ObjectChange>()
        let token = try viewer.performAndWait { c in
            try c.observe(try #require(try c.object("User", id: 2))) { box.put($0) }
        }
        try f.graph.write { try $0.update("User", id: 2, set: ["age": 26]) }
        try #require(await box.arrived(1))
        try f.graph.write { try $0.delete("User", id: 2) }
        try #require(await box.arrived(2))
        #expect(box.all == [.changed(keys: ["age"]), .deleted])
        _ = token
    }

    /// Three saves, each awaited by the `.eachSave` context: three change sets. The
    /// `.coalescing` context's queue is busy meanwhile: it gets one change set with all three.
    @Test(arguments: graphEngines)
    func coalescingDeliversSavesOfAWindowAsOneChangeSet(_ engine: String) async throws {
        let f = try EngineGraph(engine)
        let each = f.graph.newBackgroundContext(delivery: .eachSave)
        let merged = f.graph.newBackgroundContext(delivery: .coalescing(.milliseconds(20)))
        let eachBox = Mailbox<Delivery>(), mergedBox = Mailbox<Delivery>()
        let tokens = [try Self.observe(each, Self.tags, into: eachBox), try Self.observe(merged, Self.tags, into: mergedBox)]
        let gate = QueueGate(try #require(merged.contextQueue))
        try await gate.close()
        for (n, name) in ["b", "d", "f"].enumerated() {
            try f.graph.write { try $0.insert(try f.graph.schema.entity("Tag").record(["name": .string(name)])) }
            try #require(await eachBox.arrived(n + 2))
        }
        gate.open()
        try #require(await mergedBox.arrived(2))

        // "Unicode" sorts first (uppercase before lowercase).
        #expect(eachBox.all.dropFirst().map(\.change) == [
            CollectionChange(insertions: [1]), CollectionChange(insertions: [3]), CollectionChange(insertions: [5]),
        ])
        #expect(mergedBox.all[1].change == CollectionChange(insertions: [1, 3, 5]))
        #expect(mergedBox.all[1].ids == ["Unicode", "b", "cafe", "d", "db", "f", "swift"])
        // A later save is delivered on its own: the window opens again.
        try f.graph.deleteTag("b")
        try #require(await mergedBox.arrived(3))
        #expect(mergedBox.all[2].change == CollectionChange(deletions: [1]))
        #expect(mergedBox.count == 3)
        _ = tokens
    }

    @Test(arguments: graphEngines)
    func aCancelledTokenGetsNothingMore(_ engine: String) async throws {
        let f = try EngineGraph(engine)
        let viewer = f.graph.newBackgroundContext()
        let cancelled = Mailbox<Delivery>(), sentinel = Mailbox<Delivery>()
        let token = try Self.observe(viewer, Self.tags, into: cancelled)
        let other = try Self.observe(viewer, Self.tags, into: sentinel)
        try f.graph.deleteTag("db")
        try #require(await cancelled.arrived(2))
        try #require(await sentinel.arrived(2))
        token.cancel()   // from this thread; waits for the queue
        try f.graph.deleteTag("cafe")
        try #require(await sentinel.arrived(3))   // the same delivery would have reached both
        #expect(cancelled.count == 2)
        _ = other
    }

    @Test(arguments: graphEngines)
    func latencyProbeRecordsEachDelivery(_ engine: String) async throws {
        let f = try EngineGraph(engine)
        let probe = PushLatencyProbe()
        let viewer = f.graph.newBackgroundContext(latency: probe)
        let box = Mailbox<Delivery>()
        let token = try Self.observe(viewer, Self.tags, into: box)
        try f.graph.deleteTag("db")
        try #require(await box.arrived(2))
        try f.graph.deleteTag("cafe")
        try #require(await box.arrived(3))
        // The probe records after the observers are told: a turn of the queue waits for it.
        viewer.performAndWait { _ in }
        #expect(probe.latencies.count == 2)
        #expect(probe.latencies.allSatisfy { $0 >= .zero })
        probe.reset()
        #expect(probe.latencies.isEmpty)
        _ = token
    }

    @Test func observingOffTheQueueIsRefused() throws {
        let f = try EngineGraph("sqlite")
        let viewer = f.graph.newBackgroundContext()
        expectCategory(.invalidValue) { _ = try viewer.observe(Self.tags) { _ in } }
        expectCategory(.invalidValue) { _ = try viewer.updates(for: Self.tags) }
        expectCategory(.invalidValue) { _ = try viewer.fetch(Self.tags, batchSize: 2) }
        #expect(try viewer.performAndWait { try $0.fetch(Self.tags, batchSize: 2).count } == 4)
    }

    @Test func threadConfinedContextsStillWaitForAMerge() throws {
        let f = try EngineGraph("sqlite")
        let viewer = f.graph.newContext()
        #expect(viewer.contextQueue == nil)
        var got: [ResultsChange] = []
        let token = try viewer.observe(Self.tags) { got.append($0) }
        try f.graph.deleteTag("db")
        #expect(got.count == 1)
        try viewer.mergeChanges()
        #expect(got.count == 2)
        _ = token
    }
}

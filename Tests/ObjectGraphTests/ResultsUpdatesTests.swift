import Foundation
import ObjectGraph
import StoreConformance
import StoreCore
import Testing

/// `updates(for:)` and `updates(of:)`: Sendable updates as an AsyncSequence.
@Suite("ObjectGraph updates as AsyncSequence", .onOwnThreads)
struct ResultsUpdatesTests {
    @Test(arguments: graphEngines)
    func resultsUpdatesArriveAndEndWhenTheTaskIsCancelled(_ engine: String) async throws {
        let f = try EngineGraph(engine)
        let viewer = f.graph.newBackgroundContext()
        let updates = try viewer.performAndWait { try $0.updates(for: Query("Tag", sort: [.asc("name")])) }
        let box = Mailbox<ResultsUpdate>()
        let reader = Task(executorPreference: OwnThreads.shared) {
            for try await u in updates { box.put(u) }
            return box.count
        }
        try #require(await box.arrived(1))
        #expect(box.all[0].isInitial && box.all[0].change.insertions == [0, 1, 2, 3])
        try f.graph.deleteTag("cafe")
        try #require(await box.arrived(2))
        let pushed = box.all[1]
        #expect(!pushed.isInitial && pushed.change == CollectionChange(deletions: [1]))
        #expect(pushed.objectIDs.map(\.key) == ["Unicode", "db", "swift"])
        #expect(pushed.committedAt != nil)

        reader.cancel()
        let received = try await reader.value   // the loop ended: the sequence finished
        #expect(received == 2)
    }

    @Test(arguments: graphEngines)
    func objectUpdatesEndAfterTheDeletion(_ engine: String) async throws {
        let f = try EngineGraph(engine)
        let viewer = f.graph.newBackgroundContext()
        let updates = try viewer.performAndWait { c in try c.updates(of: try #require(try c.object("User", id: 3))) }
        let box = Mailbox<ObjectChange>()
        let reader = Task(executorPreference: OwnThreads.shared) {
            for await change in updates { box.put(change) }
        }
        try f.graph.write { try $0.update("User", id: 3, set: ["score": 2.5]) }
        try #require(await box.arrived(1))
        try f.graph.write { try $0.delete("User", id: 3) }
        await reader.value   // the sequence ended after the deletion
        #expect(box.all == [.changed(keys: ["score"]), .deleted])
    }
}

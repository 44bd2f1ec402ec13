import Foundation
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreBenchKit
@testable import StoreBenchModels
import StoreConformance
import StoreCore
import Testing

/// The graph suite's three ways to read a post do the same work: each folds every attribute of
/// the same posts into the same sink, on the object graph over either store.
@Suite("graph suite")
struct GraphSuiteTests {
    @Test(arguments: ["sqlite", "lmdb"])
    func everyWayReadsTheSameData(_ engine: String) throws {
        let backend = engine == "lmdb" ? LMDBStore.descriptor : SQLiteStore.descriptor
        let graph = try ObjectGraph.inMemory(over: backend, schema: SocialSchema.make())
        defer { try? graph.close() }
        try SocialFixture.load(into: graph.store)
        let keys: [Int64] = [10, 12, 15, 10, 13]
        let sinks = try GraphSuite.Way.allCases.map { try GraphSuite.read($0, keys, graph, OperationTimer(minimumSpan: 0)) }
        #expect(Set(sinks).count == 1, "sinks by way: \(zip(GraphSuite.Way.allCases, sinks).map { "\($0)=\($1)" })")
        #expect(sinks[0] != 0)
    }

    @Test func itRunsOnObjectGraphsOnly() {
        #expect(GraphSuite().workloads.allSatisfy { $0.requires.contains(.observation) })
        #expect(GraphSuite().workloads.map(\.name) == GraphSuite.Way.allCases.map(\.workloadName))
    }
}

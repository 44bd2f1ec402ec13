import Foundation
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreBench
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

/// The graph section puts each object graph's three ways beside its push observation latency,
/// and says "–" where the observation workload did not run.
@Suite("graph report")
struct GraphReportTests {
    @Test func theSectionShowsRatiosAndPushLatency() {
        var cells = GraphSuite.Way.allCases.enumerated().flatMap { i, way in
            ["objectgraph+lmdb", "objectgraph+sqlite"].map { CompareAndReportTests.cell($0, way.workloadName, ns: 1_000 * Double(i + 1), cv: 0.01) }
        }
        var observed = CompareAndReportTests.cell("objectgraph+lmdb", "concurrency.observe.100-results.1-observers", ns: 50_000, cv: 0.01)
        observed.metrics = ["notify p50 ns": 1_234_000, "notify p99 ns": 2_500_000]
        cells.append(observed)
        let md = ResultsView(CompareAndReportTests.results(cells)).graphModels()
        let lmdb = md.split(separator: "\n").first { $0.hasPrefix("| objectgraph+lmdb |") }.map(String.init) ?? ""
        let sqlite = md.split(separator: "\n").first { $0.hasPrefix("| objectgraph+sqlite |") }.map(String.init) ?? ""
        #expect(lmdb.contains("| 1.23 ms | 2.50 ms |"), "\(lmdb)")
        #expect(lmdb.contains("1.50×"), "declared ÷ string-keyed: \(lmdb)")
        #expect(sqlite.hasSuffix("| – | – |"), "\(sqlite)")
    }
}

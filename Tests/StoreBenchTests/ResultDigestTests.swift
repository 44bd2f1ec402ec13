import Foundation
import LMDBStore
import SQLiteStore
@testable import StoreBench
import StoreBenchKit
import StoreConformance
import StoreCore
import Testing

/// The cross-check of query results: every query workload records the same digest on SQLite
/// and LMDB over the same data; a backend that returns other rows (an injected bug) records
/// another; and the runner fails exactly the cells whose digest differs from SQLite's.
@Suite("Query results cross-checked between backends", .serialized)
struct ResultDigestTests {
    /// A repository whose queries lose their last row (a wrong plan): an injected backend bug.
    final class LosingRepository: Repository {
        let base: any Repository
        init(base: any Repository) { self.base = base }
        var schema: Schema { base.schema }
        var capabilities: Capabilities { base.capabilities }
        func verify() throws -> VerificationReport { try base.verify() }
        func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T { try base.read { try body(Losing(base: $0)) } }
        func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T { try base.write(body) }
        func close() throws { try base.close() }
    }

    /// Fetches all rows but the last; everything else as the base transaction.
    struct Losing: ReadTransaction {
        let base: any ReadTransaction
        var schema: Schema { base.schema }
        func fetch(_ entity: String, id: Value) throws -> Record? { try base.fetch(entity, id: id) }
        func fetch(_ query: Query) throws -> [Record] { Array(try base.fetch(query).dropLast()) }
        func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws { try base.forEach(query, body) }
        func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws { try base.forEachPacked(query, body) }
        func count(_ query: Query) throws -> Int { max(0, try base.count(query) - 1) }
        func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
            try base.related(entity, id: id, via: relationship)
        }
    }

    /// The digest a cell of `workload` records on `repo`.
    private func digest(_ workload: Workload, _ repo: any Repository, at dir: URL) throws -> String? {
        let ctx = WorkloadContext(generator: SocialGenerator(try Bench.spec()), workload: workload.name, repetition: 1,
                                  storeDirectory: dir, residentAtStart: 0)
        let prepared = try workload.prepare(ctx)
        defer { prepared.teardown() }
        return try prepared.results?(repo)
    }

    @Test("every query workload records one digest on SQLite and LMDB; a lost row gives another")
    func sameDigestOnBothEngines() throws {
        var stores: [(any Repository, URL)] = []
        var dirs: [TemporaryDirectory] = []
        for d in [SQLiteStore.descriptor, LMDBStore.descriptor] {
            let dir = try TemporaryDirectory("digest-\(d.name)")
            dirs.append(dir)
            let repo = try d.open(BenchSchema.schema, dir.url, StoreOptions(durability: .relaxed))
            try SocialGenerator(try Bench.spec()).load(into: repo)
            stores.append((repo, dir.url))
        }
        defer { for (repo, _) in stores { try? repo.close() } }
        var checked = 0
        for w in QueryWorkloads.all {
            let digests = try stores.map { try digest(w, $0.0, at: $0.1) }
            guard let first = digests[0] else { continue }
            checked += 1
            #expect(digests[1] == first, "\(w.name): LMDB's results differ from SQLite's")
            // Traversals read no query; the tiny dataset's posts end before sort-page's first pages.
            if w.name != "query.traversal" && w.name != "query.sort-page" {
                let wrong = try digest(w, LosingRepository(base: stores[1].0), at: stores[1].1)
                #expect(wrong != first, "\(w.name): a lost row kept the digest")
            }
        }
        #expect(checked == QueryWorkloads.all.count - 1, "every query workload but the full scan records a digest")
    }

    private func cell(_ backend: String, _ workload: String, _ digest: String?) -> CellResult {
        var c = CellResult(target: .backend(backend), engine: "e", workload: workload, category: .query, scale: "tiny", status: .ok)
        c.parameters = digest.map { [ResultDigest.parameter.name: $0] }
        return c
    }

    @Test("the runner fails the cells whose digest differs from SQLite's; without SQLite, none")
    func crossCheck() {
        var observed = [cell("sqlite", "o", "100"), cell("lmdb", "o", "200")]   // another suite's parameter "results"
        for i in observed.indices { observed[i].category = .concurrency }
        let cells = [cell("sqlite", "q", "a"), cell("lmdb", "q", "b"), cell("grdb", "q", "a"), cell("lmdb", "other", nil),
                     cell("lmdb", "r", "x"), cell("grdb", "r", "y"), cell("objectgraph+lmdb", "r", "y")] + observed
        let out = ResultDigest.crossChecked(cells)
        #expect(out.map(\.status) == [.ok, .failed, .ok, .ok, .ok, .ok, .ok, .ok, .ok])
        #expect(out[1].reason?.contains("SQLite's") == true && out[1].reason?.contains("digest b, expected a") == true)
    }
}

import CSQLite
import Foundation
import GRDBStore
import SQLiteStore
@testable import StoreBench
import StoreBenchKit
import StoreConformance
import StoreCore
import StoreSQL
import Testing

/// Every query workload's SQL, as SQLiteStore and GRDBStore compile it and as the SQLite floor
/// writes it (`FloorSQL.statement`), planned by SQLite on the bench schema's tables: no whole
/// table read where the workload has an indexed path, no subquery per row, the index that
/// yields the order, and the same indexes on the store's side as on the floor's.
@Suite struct QueryWorkloadPlanTests {
    /// What a workload's plans must hold: the indexes they name; whether a whole table is read
    /// (the predicate has no indexed path) and whether a temporary B-tree sorts.
    static let expected: [String: (uses: [String], scans: Bool, sorts: Bool)] = [
        "query.indexed-eq": (["idx_Post_published_score"], false, false),
        "query.unindexed-eq": ([], true, false),
        "query.date-range": (["idx_Post_createdAt"], false, true),
        "query.contains-cd": ([], true, false),
        "query.beginswith-c": ([], true, false),
        "query.sort-page": (["COVERING INDEX idx_Post_createdAt"], false, true),
        "query.count": (["COVERING INDEX idx_Post_published_score"], false, false),
        "query.keypath": (["idx_User_username", "sb_fk_Post_author"], false, false),
        "query.any-tag": (["COVERING INDEX sb_j_Post_tags_dst"], false, false),
        "query.posts-count": (["COVERING INDEX sb_fk_Post_author"], false, false),
    ]

    @Test func everyQueryWorkloadHasExpectations() {
        #expect(Set(QueryWorkloads.definitions.map(\.name)) == Set(Self.expected.keys))
    }

    @Test(arguments: QueryWorkloads.definitions.map(\.name))
    func storesAndTheFloorPlanAlike(_ name: String) throws {
        let d = try #require(QueryWorkloads.definitions.first { $0.name == name })
        let want = try #require(Self.expected[name])
        let dir = try TemporaryDirectory("workload-plans")
        let (query, floorQuery) = try Self.firstOperation(d)
        let sqlite = try SQLiteStore(directory: dir.url.appendingPathComponent("sqlite"), schema: BenchSchema.schema)
        let grdb = try GRDBStore(directory: dir.url.appendingPathComponent("grdb"), schema: BenchSchema.schema)
        defer { try? sqlite.close(); try? grdb.close() }
        let plans = [
            ("sqlite", try sqlite.read { try Self.steps(($0 as! SQLTransaction).explain(query, counting: d.counts)) }),
            ("grdb", try grdb.read { try Self.steps(($0 as! SQLTransaction).explain(query, counting: d.counts)) }),
            ("floor:sqlite", try Self.floorPlan(floorQuery, file: sqlite.path)),
        ]
        for (who, steps) in plans {
            if !want.scans { #expect(!steps.contains { $0.hasPrefix("SCAN ") && !$0.contains("COVERING INDEX") }, "\(who) \(name) reads a whole table: \(steps)") }
            #expect(!steps.contains { $0.contains("CORRELATED") }, "\(who) \(name) runs a subquery per row: \(steps)")
            if !want.sorts { #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(who) \(name) sorts in a temporary B-tree: \(steps)") }
            for index in want.uses { #expect(steps.contains { $0.contains(index) }, "\(who) \(name) does not use \(index): \(steps)") }
        }
        #expect(plans[0].1 == plans[1].1, "\(name): SQLiteStore and GRDBStore plan differently")
    }

    /// The first operation a workload's setup makes at the tiny scale.
    static func firstOperation(_ d: QueryDefinition) throws -> (Query, FloorQuery) {
        let g = SocialGenerator(try Bench.spec())
        let ctx = WorkloadContext(generator: g, workload: d.name, repetition: 0, storeDirectory: URL(fileURLWithPath: "/nonexistent"), residentAtStart: 0)
        var r = ctx.random()
        return try d.make(ctx, &r)
    }

    static func steps(_ explained: String) -> [String] {
        explained.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// `EXPLAIN QUERY PLAN` of the floor's statement on the store's file (the same tables and
    /// indexes), `sb_fold` left unregistered: a plan does not call it.
    static func floorPlan(_ q: FloorQuery, file: String) throws -> [String] {
        var db: OpaquePointer?
        guard sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw BenchError("cannot open \(file)") }
        defer { sqlite3_close_v2(db) }
        let sql = FloorSQL.statement(q).sql.replacingOccurrences(of: "sb_fold(", with: "coalesce(")
        var s: OpaquePointer?
        guard sqlite3_prepare_v2(db, "EXPLAIN QUERY PLAN " + sql, -1, &s, nil) == SQLITE_OK else {
            throw BenchError("cannot explain \(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(s) }
        var out: [String] = []
        while sqlite3_step(s) == SQLITE_ROW { out.append(String(cString: sqlite3_column_text(s, 3))) }
        return out
    }
}

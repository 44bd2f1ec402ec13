import StoreBenchKit

extension QuerySuite {
    /// Direct SQL against the object graph's fetches; an indexed equality against an unindexed one.
    var claims: [SeedClaim] {
        let queries = workloads.filter(\.isCompared).map(\.name)
        let backends = ["sqlite", "lmdb", "grdb", "objectgraph+sqlite", "objectgraph+lmdb"]
        return [
            SeedClaim(id: "sqlite-direct-queries-fast", claim: "Plain SQLite reads fast through direct queries",
                      standIn: "plain SQLite ÷ the object graph over the same SQLite (Core Data's shape), time per query over the query workloads",
                      checks: [SeedClaim.Check.each("`sqlite` ÷ `objectgraph+sqlite` over \(queries.count) queries", "sqlite", over: "objectgraph+sqlite", queries)]),
            SeedClaim(id: "index-speeds-equality", claim: "An index makes an equality query fast",
                      standIn: "per backend, `query.indexed-eq` (posts by an indexed pair of attributes) ÷ `query.unindexed-eq` (users by an attribute without an index: a scan), time per query; the two queries differ in table and result size, so this is the index's effect as a reader meets it, not an isolated one",
                      checks: backends.map { b in .init("`\(b)`: indexed ÷ unindexed", [.init(.init(b, "query.indexed-eq"), over: .init(b, "query.unindexed-eq"))]) }),
        ]
    }
}

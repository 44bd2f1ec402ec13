import StoreBenchKit

extension CRUDSuite {
    /// Writes in one transaction per batch against one transaction each, per operation.
    var claims: [SeedClaim] {
        let writes = ["insert", "update", "delete", "upsert"]
        func batched(_ backend: String) -> SeedClaim.Check {
            .init("`\(backend)`: batched ÷ one transaction each, over \(writes.count) writes",
                  writes.map { .init(.init(backend, "crud.\($0).batched"), over: .init(backend, "crud.\($0).single")) })
        }
        return [
            SeedClaim(id: "batched-writes-fast", claim: "Batched writes are fast (Realm: write many objects in one write transaction)",
                      standIn: "the object graph over LMDB (Realm's stand-in): time per write in `crud.*.batched` ÷ in `crud.*.single`",
                      checks: [batched("objectgraph+lmdb")]),
            SeedClaim(id: "transaction-speeds-sqlite", claim: "A transaction makes SQLite writes fast (many writes in one transaction against one each)",
                      standIn: "plain SQLite: time per write in `crud.*.batched` (one transaction per batch) ÷ in `crud.*.single` (one each)",
                      checks: [batched("sqlite")]),
        ]
    }
}

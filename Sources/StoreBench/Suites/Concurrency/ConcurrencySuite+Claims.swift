import StoreBenchKit

extension ConcurrencySuite {
    /// What an observer costs the writer whose changes it is told of.
    var claims: [SeedClaim] {
        let watched = "concurrency.observe.100-results.1-observers", alone = "concurrency.observe.100-results.0-observers"
        return [
            SeedClaim(id: "live-notifications-efficient", claim: "Live notifications make updates efficient",
                      standIn: "the writer's commit time with one observer watching 100 results ÷ with none, per object graph: equivalent (within the margin) means notifying costs the update nothing measurable",
                      expected: .equivalent,
                      checks: ["objectgraph+sqlite", "objectgraph+lmdb"].map { b in
                          .init("`\(b)`: one observer ÷ none", [.init(.init(b, watched), over: .init(b, alone))])
                      }),
        ]
    }
}

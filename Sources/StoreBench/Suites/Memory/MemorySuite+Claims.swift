import StoreBenchKit

extension MemorySuite {
    /// Plain SQLite's memory against every other backend's, walking everything.
    var claims: [SeedClaim] {
        let others = ["lmdb", "grdb", "objectgraph+sqlite", "objectgraph+lmdb"]
        return [
            SeedClaim(id: "lazy-results-save-memory", claim: "Lazy results and faults save memory",
                      standIn: "none yet: every walk here is lazy (`forEach`); no workload converts all results to an array to compare against",
                      checks: []),
            SeedClaim(id: "sqlite-least-memory", claim: "Plain SQLite uses the least memory",
                      standIn: "\(Self.walkPeakMeaning) (`memory.walk`, every record), `sqlite` ÷ each other backend",
                      checks: others.map { b in .init("`sqlite` ÷ `\(b)`", [.init(.init("sqlite", MemoryWorkloads.walkName, figure: Self.walkPeak.name),
                                                                                   over: .init(b, MemoryWorkloads.walkName, figure: Self.walkPeak.name))]) }),
        ]
    }
}

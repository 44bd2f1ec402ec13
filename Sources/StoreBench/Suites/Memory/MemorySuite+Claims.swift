import StoreBenchKit

extension MemorySuite {
    /// The built-in backends the claims name.
    static let backends = ["sqlite", "lmdb", "grdb", "objectgraph+sqlite", "objectgraph+lmdb"]

    /// Plain SQLite's memory against every other backend's, walking everything.
    var claims: [SeedClaim] {
        let others = MemorySuite.backends.filter { $0 != "sqlite" }
        return [
            SeedClaim(id: "lazy-results-save-memory", claim: "Lazy results and faults save memory",
                      standIn: "\(Self.walkPeakMeaning): walking every record lazily (`memory.walk`, `forEach`) ÷ converting each entity's results to an array first (`memory.walk-array`), per backend",
                      checks: MemorySuite.backends.map { b in .init("`\(b)`: lazy ÷ array", [.init(.init(b, MemoryWorkloads.walkName, figure: Self.walkPeak.name),
                                                                                           over: .init(b, MemoryWorkloads.walkArrayName, figure: Self.walkPeak.name))]) }),
            SeedClaim(id: "sqlite-least-memory", claim: "Plain SQLite uses the least memory",
                      standIn: "\(Self.walkPeakMeaning) (`memory.walk`, every record), `sqlite` ÷ each other backend",
                      checks: others.map { b in .init("`sqlite` ÷ `\(b)`", [.init(.init("sqlite", MemoryWorkloads.walkName, figure: Self.walkPeak.name),
                                                                                   over: .init(b, MemoryWorkloads.walkName, figure: Self.walkPeak.name))]) }),
        ]
    }
}

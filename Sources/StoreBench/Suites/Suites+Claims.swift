import StoreBenchKit

extension Suites {
    /// Every claim of the seeds the registered suites test, then those that span suites.
    public static var claims: [SeedClaim] {
        registered.flatMap(\.claims) + [realmAgainstCoreData, walAgainstRollbackJournal]
    }

    /// The compared workloads of the registered suites that count in `useCase`.
    static func workloads(in useCase: UseCase) -> [String] {
        registered.filter(\.inProfiles).flatMap { s in s.workloads.filter { $0.isCompared && s.useCases(of: $0.name).contains(useCase) } }.map(\.name)
    }

    /// Realm's engine is memory-mapped, Core Data's is SQLite: the object graph over each.
    static var realmAgainstCoreData: SeedClaim {
        let reads = workloads(in: .mostlyReads), writes = workloads(in: .mostlyWrites)
        return SeedClaim(
            id: "realm-faster-than-core-data", claim: "Realm reads and writes faster than Core Data",
            standIn: "the object graph over LMDB (memory-mapped, as Realm's engine is) ÷ the object graph over SQLite (Core Data's store), time per operation",
            checks: [SeedClaim.Check.each("reads: `objectgraph+lmdb` ÷ `objectgraph+sqlite` over \(reads.count) read workloads", "objectgraph+lmdb", over: "objectgraph+sqlite", reads),
                     SeedClaim.Check.each("writes: `objectgraph+lmdb` ÷ `objectgraph+sqlite` over \(writes.count) write workloads", "objectgraph+lmdb", over: "objectgraph+sqlite", writes)])
    }

    /// The SQLite floor in WAL mode against the same floor over the rollback journal.
    static var walAgainstRollbackJournal: SeedClaim {
        let commit = DurabilityWorkloads.commitOne.name, journal = CommitMode.all.first { $0.id == "delete-full" }!.target
        return SeedClaim(id: "wal-faster", claim: "WAL mode improves SQLite's performance over the rollback journal",
                         standIn: "the SQLite floor (bare C API loops) in WAL mode ÷ the same floor over the rollback journal, time per operation: a bulk insert and reads by key (`journal:sqlite`, the run's `synchronous`), and commits of one user each (`delete-full:sqlite`, `synchronous=FULL`)",
                         checks: [.init("`floor:sqlite` (WAL) ÷ `journal:sqlite` (rollback journal)", rollbackJournalWorkloads.map {
                                      .init(.init(target: .floor("sqlite"), $0), over: .init(target: .reference("journal:sqlite"), $0))
                                  }),
                                  .init("one-user commits: `floor:sqlite` (WAL) ÷ `\(journal)`",
                                        [.init(.init(target: .floor("sqlite"), commit), over: .init(target: journal, commit))])])
    }
}

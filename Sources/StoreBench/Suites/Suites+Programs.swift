import StoreBenchKit

extension Floors {
    /// Every built-in program: the floors, the C references of the rows suite, the SQLite
    /// floor over the rollback journal, and the engines' commit modes of the durability suite.
    public static let builtin: [FloorProgram] = floors + [cReference("sqlite"), cReference("lmdb"), Suites.rollbackJournal]
        + CommitMode.all.map(\.program)
}

extension Suites {
    /// The workloads the rollback-journal floor runs: a bulk insert (one write transaction)
    /// and reads by key, the workloads with a floor that write and read (and the load that
    /// builds the store they copy).
    static let rollbackJournalWorkloads = ["batch.bulk-insert", "crud.read-pk.single"]

    /// The SQLite floor over the rollback journal: the stand-in for the seeds' claim that WAL
    /// improves SQLite's performance.
    static var rollbackJournal: FloorProgram { Floors.sqliteRollbackJournal(Set(rollbackJournalWorkloads + ["memory.load"])) }
}

extension Suites {
    /// The workloads that run only on the programs naming them (`Workload.namedProgramsOnly`):
    /// what a program with concurrent reads (`ConcurrentReads`) passes as `alsoRuns`.
    public static var concurrentReadWorkloads: Set<String> {
        Set(all.flatMap(\.workloads).filter(\.namedProgramsOnly).map(\.name))
    }
}

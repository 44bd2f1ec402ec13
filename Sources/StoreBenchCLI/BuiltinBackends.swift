import GRDBStore
import LMDBStore
import ObjectGraph
import PlainGRDB
import SQLiteStore
import StoreBench
import StoreCore

/// The backends and reference programs that ship with StoreBench. An outside package adds its
/// own beside them through `StoreBenchCLI.main(backends:programs:)`; every command reads
/// `Registry`, never this list directly.
enum BuiltinBackends {
    static let all: [BackendDescriptor] = [
        SQLiteStore.descriptor,
        LMDBStore.descriptor,
        GRDBStore.descriptor,
        ObjectGraph.descriptor(over: SQLiteStore.descriptor),
        ObjectGraph.descriptor(over: LMDBStore.descriptor),
    ]

    /// The floors and reference programs the runner may run beside them: the engines' floors,
    /// the C reference of the rows workloads, and GRDB used directly (the reference of `grdb`).
    static let programs: [FloorProgram] = Floors.builtin + [
        FloorProgram(id: .reference("plain:grdb"), engine: "sqlite", checks: .backend("grdb"),
                     alsoRuns: Suites.concurrentReadWorkloads,
                     summary: "GRDB.swift used directly as its documentation advises (DatabasePool, cached statements, "
                         + "Row cursors): what GRDBStore costs over GRDB itself") { dir, durability in
            try PlainGRDBProgram(directory: dir, durability: durability)
        },
    ]
}

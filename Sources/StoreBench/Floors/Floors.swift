import Foundation
import StoreBenchKit
import StoreCore

/// The built-in floor programs: one bare C-API floor per engine (and, from the rows suite, the C
/// reference that checks each floor on the rows workloads: `builtin`).
public enum Floors {
    public static let sqlite = FloorProgram(id: .floor("sqlite"), engine: "sqlite",
                                            summary: "Bare sqlite3 C API loops, no abstraction") { dir, durability in
        try SQLiteFloor(path: dir.appendingPathComponent("floor.sqlite").path, durability: durability)
    }

    /// The SQLite floor with the rollback journal instead of WAL, over `workloads`, checking
    /// `floor:sqlite` (so its × floor is WAL ÷ rollback journal).
    public static func sqliteRollbackJournal(_ workloads: Set<String>) -> FloorProgram {
        FloorProgram(id: .reference("journal:sqlite"), engine: "sqlite", checks: .floor("sqlite"), workloads: workloads,
                     summary: "The SQLite floor with the rollback journal (journal_mode=DELETE) instead of WAL: what WAL changes") { dir, durability in
            try SQLiteFloor(path: dir.appendingPathComponent("floor.sqlite").path, durability: durability, journalMode: "DELETE")
        }
    }

    public static let lmdb = FloorProgram(id: .floor("lmdb"), engine: "lmdb",
                                          summary: "Bare LMDB C API loops, no abstraction") { dir, durability in
        try LMDBFloor(directory: dir.path, durability: durability)
    }

    /// The bare C-API floors, one per engine (`builtin` adds the references that check them).
    public static let floors: [FloorProgram] = [sqlite, lmdb]

    /// The engines with a floor.
    public static var engines: [String] { floors.map(\.engine) }

    /// The floor of `engine`, over a store in `directory` (created when missing).
    public static func open(engine: String, directory: URL, durability: Durability) throws -> any Floor {
        guard let p = floors.first(where: { $0.id == .floor(engine) }) else {
            throw BenchError("no floor for engine '\(engine)'; floors exist for \(engines.joined(separator: ", "))")
        }
        return try p.open(directory, durability: durability)
    }
}

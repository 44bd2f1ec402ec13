import CLMDB
import Foundation
import StoreBenchKit

/// One of an engine's commit modes, measured as the program `<id>:<engine>` beside the
/// engine's floor (which runs the default, fully durable mode): the engine's settings, and what
/// a commit in that mode survives.
struct CommitMode: Sendable {
    let id: String
    let engine: String
    /// The engine's settings in its own words (`journal_mode=WAL, synchronous=NORMAL`).
    let settings: String
    /// What a committed transaction survives.
    let guarantee: Guarantee
    let open: @Sendable (URL) throws -> any Floor

    var target: TargetID { .reference("\(id):\(engine)") }

    var program: FloorProgram {
        FloorProgram(id: target, engine: engine, checks: .floor(engine), workloads: Set(DurabilityWorkloads.all.map(\.name)),
                     summary: "The \(engine) floor with \(settings): \(guarantee.explanation)") { dir, _ in try open(dir) }
    }

    /// What a committed transaction survives, from the engines' documentation.
    enum Guarantee: String, Sendable, CaseIterable {
        case powerLoss = "power loss"
        case lastCommits = "app crash"
        case mayCorrupt = "app crash; an OS crash may corrupt"
        case none = "nothing"

        /// The guarantee in a sentence, for the legend under the table.
        var explanation: String {
            switch self {
            case .powerLoss: "a commit survives a crash of the process, of the OS, and power loss: it is on the disk when commit returns"
            case .lastCommits: "a commit survives a crash of the process; an OS crash or power loss can undo the last commits, and the file stays consistent (SQLite's WAL with `synchronous=NORMAL`, LMDB's `MDB_NOMETASYNC`, and `MDB_NOSYNC` on a file system that keeps write order)"
            case .mayCorrupt: "a commit survives a crash of the process; an OS crash or power loss can lose commits and can leave the file corrupted (`synchronous=OFF`)"
            case .none: "nothing reaches a disk: the data is gone when the connection closes"
            }
        }
    }

    static func sqlite(_ journal: String, _ synchronous: String, _ guarantee: Guarantee) -> CommitMode {
        CommitMode(id: "\(journal.lowercased())-\(synchronous.lowercased())", engine: "sqlite",
                   settings: "journal_mode=\(journal), synchronous=\(synchronous)", guarantee: guarantee) { dir in
            try SQLiteFloor(path: dir.appendingPathComponent("floor.sqlite").path, durability: .durable,
                            journalMode: journal, synchronous: synchronous)
        }
    }

    static func lmdb(_ id: String, _ flag: Int32, _ guarantee: Guarantee) -> CommitMode {
        CommitMode(id: id, engine: "lmdb", settings: "MDB_\(id.uppercased())", guarantee: guarantee) { dir in
            try LMDBFloor(directory: dir.path, durability: .durable, syncFlags: UInt32(flag))
        }
    }

    /// Every mode measured besides the engines' defaults (the floors).
    static let all: [CommitMode] = [
        sqlite("WAL", "NORMAL", .lastCommits),
        sqlite("WAL", "OFF", .mayCorrupt),
        sqlite("DELETE", "FULL", .powerLoss),
        // SQLite: "a very small (though non-zero) chance" of corruption on power loss on older file systems.
        sqlite("DELETE", "NORMAL", .powerLoss),
        sqlite("DELETE", "OFF", .mayCorrupt),
        CommitMode(id: "memory", engine: "sqlite", settings: "an in-memory database (`:memory:`)", guarantee: .none) { _ in
            try SQLiteFloor(path: ":memory:", durability: .relaxed)
        },
        lmdb("nometasync", MDB_NOMETASYNC, .lastCommits),
        lmdb("nosync", MDB_NOSYNC, .lastCommits),
    ]

    /// The mode measured by `target`, if it is one.
    static func of(_ target: TargetID) -> CommitMode? { all.first { $0.target == target } }
}

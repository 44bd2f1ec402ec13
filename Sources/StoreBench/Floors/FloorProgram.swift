import Foundation
import StoreCore
import StoreBenchKit

/// A program the runner measures beside the backends through the `Floor` calls: an engine's
/// bare C-API floor, or a reference that checks a floor or a backend (a loop in C, a plain
/// program over a peer's library).
///
/// ```swift
/// let plain = FloorProgram(id: .reference("plain:grdb"), engine: "sqlite", checks: .backend("grdb"),
///                          workloads: ["crud.read-pk.single", "rows.insert"],
///                          summary: "GRDB used directly, as its documentation advises") { dir, durability in
///     try PlainGRDBProgram(directory: dir, durability: durability)
/// }
/// ```
public struct FloorProgram: Sendable {
    public let id: TargetID
    public let engine: String
    public let summary: String
    /// For a reference: the target whose cost it checks; the report gives that target's time ÷ this one's.
    public let checks: TargetID?
    /// The workloads it implements; nil for every workload with a floor body.
    public let workloads: Set<String>?
    /// Workloads that run only on the programs naming them here (`Workload.namedProgramsOnly`:
    /// the read-scaling workloads, on a program with a connection pool).
    public let alsoRuns: Set<String>
    let open: @Sendable (URL, Durability) throws -> any Floor

    public init(id: TargetID, engine: String, checks: TargetID? = nil, workloads: Set<String>? = nil, alsoRuns: Set<String> = [],
                summary: String, open: @escaping @Sendable (URL, Durability) throws -> any Floor) {
        self.id = id
        self.engine = engine
        self.checks = checks
        self.workloads = workloads
        self.alsoRuns = alsoRuns
        self.summary = summary
        self.open = open
    }

    /// Opens the program over a store in `directory` (created when missing).
    public func open(_ directory: URL, durability: Durability) throws -> any Floor {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try open(directory, durability)
    }
}

import GRDBStore
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreBench
import StoreCore

/// The one registry of built-in backends. Add a backend here to include it in `list`,
/// `conformance` and reports.
enum BuiltinBackends {
    static let all: [BackendDescriptor] = [
        SQLiteStore.descriptor,
        LMDBStore.descriptor,
        GRDBStore.descriptor,
        ObjectGraph.descriptor(over: SQLiteStore.descriptor),
        ObjectGraph.descriptor(over: LMDBStore.descriptor),
    ]

    /// The floors and reference programs the runner may run beside them.
    static let programs: [FloorProgram] = Floors.builtin

    static func named(_ name: String) -> BackendDescriptor? { all.first { $0.name == name } }
}

import SQLiteStore
import StoreCore

extension CountingStore {
    /// CountingStore over SQLiteStore, as the runner and the kit's harness open it. `engine`
    /// is `sqlite`, so reports give it as a multiple of SQLite's bare C-API floor.
    public static let descriptor = BackendDescriptor(
        name: "counting+sqlite",
        summary: "An outside backend: every operation counted, then run on SQLiteStore",
        engine: "sqlite",
        compact: SQLiteStore.descriptor.compact      // its files are SQLiteStore's
    ) { schema, directory, options in
        try CountingStore(over: SQLiteStore(directory: directory, schema: schema, options: options))
    }
}

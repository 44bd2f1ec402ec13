import StoreCore

extension ObjectGraph {
    /// A backend descriptor for an object graph over another backend, named
    /// `objectgraph+<store>` (e.g. `objectgraph+sqlite`).
    ///
    /// ```swift
    /// let graphOverSQLite = ObjectGraph.descriptor(over: SQLiteStore.descriptor)
    /// ```
    public static func descriptor(over store: BackendDescriptor) -> BackendDescriptor {
        BackendDescriptor(
            name: "objectgraph+\(store.name)",
            summary: "Object graph (identity map, faults, change tracking) persisting through \(store.name)",
            engine: store.engine,
            verify: store.verify,   // the graph's data is its store's
            compact: store.compact,
            storedSchema: store.storedSchema
        ) { schema, directory, options in
            ObjectGraph(store: try store.open(schema, directory, options))
        }
    }
}

extension ObjectGraph {
    /// An object graph over a new in-memory store of `store`'s backend (Core Data's in-memory
    /// store type): its files are on a RAM file system and removed when the graph closes.
    ///
    /// ```swift
    /// let graph = try ObjectGraph.inMemory(over: LMDBStore.descriptor, schema: schema)
    /// ```
    public static func inMemory(over store: BackendDescriptor, schema: Schema) throws -> ObjectGraph {
        ObjectGraph(store: try store.openInMemory(schema))
    }
}

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

import StoreCore

extension LMDBStore {
    /// The built-in backend descriptor, for registries and the conformance kit.
    public static let descriptor = BackendDescriptor(
        name: "lmdb", summary: "LMDB \(libraryVersion) through its C API (binary records, dupsort indexes)",
        verify: { schema, directory, options in try LMDBStore.verify(directory: directory, schema: schema, options: options) },
        compact: { schema, directory, options in try LMDBStore.compact(directory: directory, schema: schema, options: options) },
        storedSchema: { directory in try LMDBStore.storedSchema(directory: directory) }
    ) { schema, directory, options in
        try LMDBStore(directory: directory, schema: schema, options: options)
    }
}

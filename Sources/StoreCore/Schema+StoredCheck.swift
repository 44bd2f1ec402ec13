extension Schema {
    /// Checks the schema version and fingerprint a store recorded against this schema; what
    /// every backend calls when it opens an existing store.
    ///
    /// Throws `corrupted` when either is missing and `schemaMismatch` when they differ.
    public func checkStored(version: String?, fingerprint: String?, path: String) throws {
        guard let version, let fingerprint else {
            throw StoreError(.corrupted, "\(path): the store lacks its schema version")
        }
        guard version == String(self.version) else {
            throw StoreError(.schemaMismatch,
                             "\(path) was written with schema version \(version); this schema is version \(self.version) and no migration was given")
        }
        guard fingerprint == self.fingerprint else {
            throw StoreError(.schemaMismatch,
                             "\(path) was written with a different schema under the same version \(version); bump the version and migrate")
        }
    }
}

import StoreCore

extension SQLStoreMetadata {
    /// The store's `user_version`: the schema version its last migration recorded.
    public static func userVersion(_ db: any SQLExecutor) throws -> Int64 {
        try db.scalarInt("PRAGMA user_version", []) ?? 0
    }

    /// Inside a write transaction, before its first write: throws `schemaMismatch` when the
    /// store's `user_version` is no longer `opened`, the one this store read at open — another
    /// process migrated the file since, and this one's statements and checksums are of the old
    /// layout. The caller rolls back; nothing is written.
    /// A read transaction checks too (`reading`): its statements and record layout are as old.
    public static func checkNotMigrated(_ db: any SQLExecutor, opened: Int64, schema: Schema, path: String, reading: Bool = false) throws {
        let now = try userVersion(db)
        guard now != opened else { return }
        throw StoreError(.schemaMismatch, "\(path) was migrated to schema version \(now) by another process after this store opened it "
                         + "with version \(schema.version) (user_version \(opened)): \(reading ? "the read was refused" : "nothing was written"); "
                         + "reopen it with the new schema")
    }
}

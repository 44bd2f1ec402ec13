import StoreCore

extension SQLStoreFile {
    /// `StoreOptions.verifyOnOpen` for a SQL store: `PRAGMA quick_check` (every page's
    /// structure and every record's format; unlike `integrity_check`, no index against its
    /// table). Throws `corrupted` naming the file and the first problems it reports.
    ///
    /// ```swift
    /// if options.verifyOnOpen { try SQLStoreFile.quickCheck(executor, path: path) }
    /// ```
    public static func quickCheck(_ db: some SQLExecutor, path: String) throws {
        let lines = try db.column("PRAGMA quick_check", .string, []).compactMap(\.stringValue)
        guard lines != ["ok"] else { return }
        throw StoreError(.corrupted, "\(path) is damaged: PRAGMA quick_check: \(lines.prefix(3).joined(separator: "; "))")
    }
}

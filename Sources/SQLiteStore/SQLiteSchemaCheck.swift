import StoreCore

/// Creates the tables of a new store, or checks an existing store's schema version and
/// fingerprint (kept in the `sb_meta` table). Internal to `SQLiteStore.init`.
enum SQLiteSchemaCheck {
    static func prepare(_ db: SQLiteConnection, schema: Schema, mapping: SQLiteSchemaMapping) throws {
        try db.exec("BEGIN IMMEDIATE")
        do {
            try check(db, schema: schema, mapping: mapping)
            try db.exec("COMMIT")
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
    }

    private static func check(_ db: SQLiteConnection, schema: Schema, mapping: SQLiteSchemaMapping) throws {
        let hasMeta = try db.statement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sb_meta'").scalarInt() != nil
        if !hasMeta {
            let objects = try db.statement("SELECT COUNT(*) FROM sqlite_master").scalarInt() ?? 0
            guard objects == 0 else {
                throw StoreError(.corrupted, "\(db.path) is a SQLite database but not a StoreBench store (no sb_meta table)")
            }
            for sql in mapping.ddl() { try db.exec(sql) }
            try db.exec("CREATE TABLE sb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            let insert = try db.statement("INSERT INTO sb_meta (key, value) VALUES (?, ?)")
            try insert.execute(["format", "1"])
            try insert.execute(["schema_version", .string(String(schema.version))])
            try insert.execute(["schema_fingerprint", .string(schema.fingerprint)])
            try db.exec("PRAGMA user_version = \(schema.version)")
            return
        }
        let read = try db.statement("SELECT value FROM sb_meta WHERE key = ?")
        let version = try read.column(.string, ["schema_version"]).first?.stringValue
        let fingerprint = try read.column(.string, ["schema_fingerprint"]).first?.stringValue
        try schema.checkStored(version: version, fingerprint: fingerprint, path: db.path)
    }
}

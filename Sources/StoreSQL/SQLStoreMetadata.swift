import Foundation
import StoreCore

/// Creates the tables of a new store, or checks an existing store's schema version and
/// fingerprint, kept in the `sb_meta` table. A driver calls `prepare` once when it opens a
/// store, inside a write transaction of its own.
///
/// ```swift
/// try db.inTransaction { try SQLStoreMetadata.prepare(db, mapping: mapping, path: path) }
/// ```
public enum SQLStoreMetadata {
    /// The file format: 2 since every row carries its checksum (`sb_sum`).
    public static let format = "2"

    /// Throws `corrupted` for a SQLite file that is not a store and `schemaMismatch` for a
    /// store of another schema that `migrations` does not bring to this one; creates every
    /// table and index in an empty file; runs the migration (or the delete-and-recreate) the
    /// plan gives. The driver's transaction must be a write transaction taken before the
    /// version is read (`BEGIN IMMEDIATE`), so two processes never migrate the same store.
    /// `isStore`: what `isStore(_:path:)` said just before on the same connection, when the
    /// driver asked it already (it is then not asked again).
    public static func prepare(_ db: any SQLExecutor, mapping: SQLSchemaMapping, path: String,
                               migrations: MigrationPlan? = nil, isStore known: Bool? = nil) throws {
        let schema = mapping.schema
        guard try known ?? isStore(db, path: path) else {
            try create(db, mapping: mapping)
            return
        }
        let stored = try storedVersion(db, path: path)
        switch try MigrationPlan.decide(migrations, storedVersion: stored.version, fingerprint: stored.fingerprint, schema: schema, path: path) {
        case .current:
            return
        case .recreate:
            try StoreMigrations.run(at: path, to: schema.version) {
                let objects = try db.column("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", .string, [])
                for case .string(let table) in objects { try db.execute(SQLStatement("DROP TABLE \(q(table))"), []) }
                try create(db, mapping: mapping)
            }
        case .migrate(let stages):
            try StoreMigrations.run(at: path, to: schema.version) {
                for stage in stages { try SQLMigration(stage, db: db, progress: migrations?.progress).run() }
            }
            let update: SQLStatement = "UPDATE sb_meta SET value = ? WHERE key = ?"
            try db.execute(update, [.string(String(schema.version)), "schema_version"])
            try db.execute(update, [.string(schema.fingerprint), "schema_fingerprint"])
            try db.execute(SQLStatement("PRAGMA user_version = \(schema.version)"), [])
        }
    }

    /// Whether the database is a store (`false`: an empty database, where a store may be
    /// created). Throws `corrupted` for one that holds someone else's tables. Only reads, so a
    /// driver calls it before anything that writes to the file (the switch to WAL).
    public static func isStore(_ db: any SQLExecutor, path: String) throws -> Bool {
        if try db.scalarInt("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sb_meta'", []) != nil { return true }
        guard try db.scalarInt("SELECT COUNT(*) FROM sqlite_master", []) ?? 0 == 0 else {
            throw StoreError(.corrupted, "\(path) is a SQLite database but not a StoreBench store (no sb_meta table); nothing was written to it: give a folder of its own to the store")
        }
        return false
    }

    /// Checks, reading only, that the store at `path` holds `mapping`'s schema as it is: what a
    /// store opened read-only does instead of `prepare`. Throws `corrupted` for a database that
    /// is not a store, `schemaMismatch` for another schema (no migration runs read-only).
    public static func check(_ db: any SQLExecutor, mapping: SQLSchemaMapping, path: String) throws {
        guard try isStore(db, path: path) else {
            throw StoreError(.corrupted, "\(path) is an empty SQLite database, not a store; opened read-only, nothing was created")
        }
        let stored = try storedVersion(db, path: path)
        guard case .current = try MigrationPlan.decide(nil, storedVersion: stored.version, fingerprint: stored.fingerprint,
                                                        schema: mapping.schema, path: path) else {
            throw StoreError(.schemaMismatch, "\(path) holds another schema version; opened read-only, it is not migrated")
        }
    }

    /// The schema the store at `path` records (from its fingerprint): what `verify` checks a
    /// store of unknown schema against.
    public static func storedSchema(_ db: any SQLExecutor, path: String) throws -> Schema {
        guard try isStore(db, path: path) else { throw StoreError(.corrupted, "\(path) is an empty SQLite database, not a store") }
        let stored = try storedVersion(db, path: path)
        guard let fingerprint = stored.fingerprint else { throw StoreError(.corrupted, "\(path): sb_meta records no schema") }
        return try Schema(fingerprint: fingerprint, path: path)
    }

    /// The stored schema version and fingerprint, after checking the store's format.
    private static func storedVersion(_ db: any SQLExecutor, path: String) throws -> (version: String?, fingerprint: String?) {
        let read: SQLStatement = "SELECT value FROM sb_meta WHERE key = ?"
        let stored = try db.column(read, .string, ["format"]).first?.stringValue
        if stored == "1" {
            throw StoreError(.schemaMismatch, "\(path) was written by an earlier StoreBench (format 1, without row checksums); recreate it")
        }
        guard stored == format else {
            throw StoreError(.corrupted, "\(path): sb_meta has an unknown format \(stored.map { "'\($0)'" } ?? "(none)")")
        }
        return (try db.column(read, .string, ["schema_version"]).first?.stringValue,
                try db.column(read, .string, ["schema_fingerprint"]).first?.stringValue)
    }

    /// Every table and index of the schema, and `sb_meta`, in an empty database.
    private static func create(_ db: any SQLExecutor, mapping: SQLSchemaMapping) throws {
        let schema = mapping.schema
        for sql in mapping.ddl() { try db.execute(SQLStatement(sql), []) }
        try db.execute("CREATE TABLE sb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)", [])
        let insert: SQLStatement = "INSERT INTO sb_meta (key, value) VALUES (?, ?)"
        try db.execute(insert, ["format", .string(format)])
        try db.execute(insert, ["schema_version", .string(String(schema.version))])
        try db.execute(insert, ["schema_fingerprint", .string(schema.fingerprint)])
        try db.execute(SQLStatement("PRAGMA user_version = \(schema.version)"), [])
    }

    /// The path of a store file named `fileName` in `directory`, creating the directory when
    /// it is missing: what a driver's `init(directory:schema:options:)` opens.
    /// Throws `notFound` when `directory` holds no store file `fileName` (what compaction
    /// needs: it must not create an empty store).
    public static func requireStore(_ fileName: String, in directory: URL) throws {
        let path = directory.appendingPathComponent(fileName).path
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError(.notFound, "no store at \(path)") }
    }

    public static func file(_ fileName: String, in directory: URL) throws -> String {
        try StoreDirectory.prepare(directory, storeFile: fileName)
        return directory.appendingPathComponent(fileName).path
    }
}

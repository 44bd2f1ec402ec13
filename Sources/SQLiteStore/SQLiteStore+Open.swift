import Foundation
import StoreCore
import StoreSQL

extension SQLiteStore {
    /// The writer connection on `path`, in WAL mode, the store's tables created or checked. A
    /// database holding someone else's tables is refused before anything is written to it.
    static func openWriter(_ path: String, access: SQLiteConnection.Access, mapping: SQLSchemaMapping,
                           options: StoreOptions) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, access: access)
        do {
            let isStore = try SQLStoreMetadata.isStore(db, path: path)   // before anything writes
            guard try db.pragma("PRAGMA journal_mode = WAL")?.lowercased() == "wal" else {
                throw StoreError(.io, "cannot switch \(path) to WAL mode")
            }
            try db.exec("PRAGMA synchronous = \(options.durability == .durable ? "FULL" : "NORMAL")")
            try db.exec("BEGIN IMMEDIATE")
            do {
                try SQLStoreMetadata.prepare(db, mapping: mapping, path: path, migrations: options.migrations, isStore: isStore)
                try db.exec("COMMIT")
            } catch {
                try? db.exec("ROLLBACK")
                throw error
            }
            return db
        } catch {
            db.close()
            throw SQLStoreFile.openingForWrites(path, error)
        }
    }

    /// A read-only connection on the existing store at `path`, its schema checked, and how
    /// later readers open it. On read-only media with no WAL, SQLite cannot create the WAL
    /// index: the file is then opened as immutable.
    static func openReadOnly(_ path: String, mapping: SQLSchemaMapping) throws -> (SQLiteConnection, SQLiteConnection.Access) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.notFound, "there is no store at \(path); opened read-only, nothing was created")
        }
        do {
            return (try checkedReader(path, .readOnly, mapping), .readOnly)
        } catch let e as StoreError where (e.category == .io || e.category == .readOnly)
            && !FileManager.default.fileExists(atPath: path + "-wal") {
            return (try checkedReader(path, .immutable, mapping), .immutable)
        }
    }

    private static func checkedReader(_ path: String, _ access: SQLiteConnection.Access,
                                      _ mapping: SQLSchemaMapping) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, access: access)
        do {
            try db.exec("BEGIN")
            defer { try? db.exec("COMMIT") }
            try SQLStoreMetadata.check(db, mapping: mapping, path: path)
            return db
        } catch {
            db.close()
            throw error
        }
    }

    /// The schema the store in `directory` records, read through a read-only connection.
    public static func storedSchema(directory: URL) throws -> Schema {
        let path = directory.appendingPathComponent(fileName).path
        try StoreDirectory.requireStore(directory, storeFile: fileName)
        try SQLStoreFile.checkBeforeOpening(path)
        let db = try SQLiteConnection(path: path, access: .readOnly)
        defer { db.close() }
        return try SQLStoreMetadata.storedSchema(db, path: path)
    }
}

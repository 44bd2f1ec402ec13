import Foundation
import GRDB
import StoreCore
import StoreSQL

extension GRDBStore {
    /// The configuration every connection of the store gets.
    static func configuration(readonly: Bool) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(5)
        config.readonly = readonly
        config.prepareDatabase { db in try GRDBFunctions.register(on: db) }
        return config
    }

    /// A `DatabasePool` on `path`, the store's tables created or checked. A file not yet in WAL
    /// mode is first read through a read-only queue, so a database holding someone else's
    /// tables is refused before the pool switches it to WAL.
    static func openPool(_ path: String, mapping: SQLSchemaMapping, options: StoreOptions) throws -> DatabasePool {
        do {
            return try openPoolUnmapped(path, mapping: mapping, options: options)
        } catch {
            throw SQLStoreFile.openingForWrites(path, error)
        }
    }

    private static func openPoolUnmapped(_ path: String, mapping: SQLSchemaMapping, options: StoreOptions) throws -> DatabasePool {
        if FileManager.default.fileExists(atPath: path), !SQLStoreFile.isInWALMode(path) {
            let queue = try GRDBErrors.mapped { try DatabaseQueue(path: path, configuration: configuration(readonly: true)) }
            defer { try? queue.close() }
            _ = try GRDBErrors.mapped { try queue.read { db in try SQLStoreMetadata.isStore(GRDBExecutor(db), path: path) } }
        }
        let pool = try GRDBErrors.mapped { try DatabasePool(path: path, configuration: configuration(readonly: false)) }
        do {
            try GRDBErrors.mapped {
                // DatabasePool sets `synchronous = NORMAL` on its writer once WAL is on (after
                // `prepareDatabase`), so durability is set here: FULL syncs the WAL at every
                // commit, as SQLiteStore and the floor do.
                let synchronous = options.durability == .durable ? "FULL" : "NORMAL"
                try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
                try pool.write { db in try SQLStoreMetadata.prepare(GRDBExecutor(db), mapping: mapping, path: path, migrations: options.migrations) }
            }
            return pool
        } catch {
            try? pool.close()
            throw error
        }
    }

    /// A read-only pool on the existing store at `path`, its schema checked. On read-only
    /// media with no WAL, SQLite cannot create the WAL index: the file is then opened as
    /// immutable, through a read-only queue.
    static func openReadOnly(_ path: String, mapping: SQLSchemaMapping) throws -> any DatabaseWriter {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.notFound, "there is no store at \(path); opened read-only, nothing was created")
        }
        do {
            return try checked(try DatabasePool(path: path, configuration: configuration(readonly: true)), path, mapping)
        } catch let e as StoreError where (e.category == .io || e.category == .readOnly) && !FileManager.default.fileExists(atPath: path + "-wal") {
            return try checked(try DatabaseQueue(path: SQLStoreFile.immutableURI(path), configuration: configuration(readonly: true)), path, mapping)
        }
    }

    private static func checked(_ make: @autoclosure () throws -> any DatabaseWriter, _ path: String,
                                _ mapping: SQLSchemaMapping) throws -> any DatabaseWriter {
        try GRDBErrors.mapped {
            let db = try make()
            do {
                try db.read { try SQLStoreMetadata.check(GRDBExecutor($0), mapping: mapping, path: path) }
                return db
            } catch {
                try? db.close()
                throw error
            }
        }
    }
}

import GRDB
import GRDBSQLite
import StoreSQL
import StoreCore

extension GRDBStore {
    /// The backend descriptor: add it to a registry to include GRDBStore in `list`,
    /// `conformance`, `run` and the reports. Its engine is SQLite, so reports give it as a
    /// multiple of the SQLite floor.
    public static let descriptor = BackendDescriptor(
        name: "grdb", summary: "GRDB.swift 7 (DatabasePool, WAL) over SQLite \(libraryVersion)", engine: "sqlite",
        verify: { schema, directory, options in
            try VerificationReport.ofStore(file: directory.appendingPathComponent(fileName)) {
                try GRDBStore(directory: directory, schema: schema, options: options.readingOnly)
            }
        },
        compact: { schema, directory, options in
            try SQLStoreMetadata.requireStore(fileName, in: directory)
            let store = try GRDBStore(directory: directory, schema: schema, options: options)
            defer { try? store.close() }
            try store.vacuum()
            try store.close()
        },
        storedSchema: { directory in
            let path = directory.appendingPathComponent(fileName).path
            try StoreDirectory.requireStore(directory, storeFile: fileName)
            try SQLStoreFile.checkBeforeOpening(path)
            return try GRDBErrors.mapped {
                let queue = try DatabaseQueue(path: path, configuration: configuration(readonly: true))
                defer { try? queue.close() }
                return try queue.read { try SQLStoreMetadata.storedSchema(GRDBExecutor($0), path: path) }
            }
        }
    ) { schema, directory, options in
        try GRDBStore(directory: directory, schema: schema, options: options)
    }

    /// The version of the SQLite library GRDB links.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

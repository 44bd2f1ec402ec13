import CLMDB
import Foundation
import StoreCore

extension LMDBStore {
    /// Creates `directory/data.mdb` complete or not at all when it is missing: a new
    /// environment with the schema's databases is written beside it (`MDB_NOSUBDIR`), then
    /// linked into place (`StoreDirectory.createFile`), so a crash never leaves an empty data file.
    static func createIfMissing(_ directory: String, schema: Schema, mapSize: MapSize) throws {
        try StoreDirectory.createFile(directory + "/data.mdb", companions: ["-lock"]) { temp in
            let env = try LMDBEnvironment(directory: temp, maxDatabases: LMDBLayout.databaseCount(schema),
                                          mapSize: mapSize.initial, durability: .durable, mode: .init(noSubdirectory: true))
            defer { env.close() }
            _ = try openLayout(env, schema: schema, path: temp, migrations: nil, maximumMap: mapSize.maximum)
        }
    }

    /// The layout of an existing store, read in a read-only transaction (committed, so the
    /// databases' handles stay open for the environment).
    static func readLayout(_ env: LMDBEnvironment, schema: Schema, path: String) throws -> LMDBLayout {
        let txn = try LMDBTxn(try env.live(), region: env.region, readOnly: true)
        do {
            let layout = try LMDBLayout.read(txn, schema: schema, path: path)
            try txn.commit()
            return layout
        } catch {
            txn.abort()
            throw error
        }
    }
}

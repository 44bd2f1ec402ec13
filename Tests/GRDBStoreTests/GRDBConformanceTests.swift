import Foundation
import GRDBStore
import StoreConformance
import StoreCore

/// The harness of the README's walkthrough, step 2: how to open a GRDBStore in a directory.
struct GRDBHarness: ConformanceHarness {
    let name = "grdb"
    func open(schema: Schema, directory: URL) throws -> any Repository {
        try GRDBStore(directory: directory, schema: schema, options: StoreOptions(durability: .relaxed))
    }
    // The `migrations` group opens with a plan.
    func open(schema: Schema, directory: URL, migrations: MigrationPlan) throws -> any Repository {
        try GRDBStore(directory: directory, schema: schema, options: StoreOptions(durability: .relaxed, migrations: migrations))
    }
    // The `readOnly` group opens an existing store read-only.
    func openReadOnly(schema: Schema, directory: URL) throws -> any Repository {
        try GRDBStore(directory: directory, schema: schema, options: StoreOptions(readOnly: true))
    }
    // The `compaction` group compacts the closed store.
    func compact(schema: Schema, directory: URL) throws {
        try GRDBStore.descriptor.compact?(schema, directory, StoreOptions(durability: .relaxed))
    }
}

/// Step 3: the backends the plugin-generated kit tests run (one test per kit case).
let conformanceHarnesses: [any ConformanceHarness] = [GRDBHarness()]

import Foundation
import GRDBStore
import LMDBStore
import SQLiteStore
@testable import StoreBench
import StoreConformance
import StoreCore
import Testing

/// A store migrated by another process while this one holds it open with the old schema: the
/// next write is refused with `schemaMismatch`, never applied with the old layout.
@Suite struct MigratedElsewhereTests {
    static let backends = [SQLiteStore.descriptor, GRDBStore.descriptor, LMDBStore.descriptor]

    @Test("a write after another process migrated the store is refused", arguments: backends)
    func writeAfterMigrationElsewhere(_ backend: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("migrated-elsewhere")
        let (store, repo) = try Self.openWithOneUser(backend, in: dir)
        defer { try? repo.close() }
        try Self.migrateInAnotherProcess(backend, store)
        do {
            try repo.write { tx in try tx.insert(try Self.user(tx, 2)) }
            Issue.record("\(backend.name): a write with the version-1 layout went through after the migration to version 3")
        } catch let e as StoreError {
            #expect(e.category == .schemaMismatch && e.message.contains("migrated to schema version 3 by another process"), "\(e)")
            #expect(e.message.contains(store.path), "names the store: \(e)")
        }
        try repo.close()
        let reopened = try backend.open(MigrationTorture.v3, store, StoreOptions(durability: .relaxed))
        defer { try? reopened.close() }
        let users = try reopened.read { try $0.count(Query("User")) }
        #expect(users == 1, "only the write made before the migration")
    }

    @Test("a read after another process migrated the store is refused too; reads before it are not", arguments: backends)
    func readAfterMigrationElsewhere(_ backend: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("migrated-elsewhere")
        let (store, repo) = try Self.openWithOneUser(backend, in: dir)
        defer { try? repo.close() }
        #expect(try repo.read { try $0.fetch("User", id: 1)?["username"] } == .string("u1"), "a read before the migration")
        #expect(try repo.read { try $0.count(Query("User")) } == 1)
        try Self.migrateInAnotherProcess(backend, store)
        for attempt in 1...2 {
            do {
                _ = try repo.read { try $0.fetch("User", id: 1) }
                Issue.record("\(backend.name): read \(attempt) with the version-1 layout went through after the migration to version 3")
            } catch let e as StoreError {
                #expect(e.category == .schemaMismatch && e.message.contains("the read was refused"), "\(e)")
            }
        }
    }

    /// A version-1 store in `dir` holding user 1, open.
    static func openWithOneUser(_ backend: BackendDescriptor, in dir: TemporaryDirectory) throws -> (URL, any Repository) {
        let store = dir.url.appendingPathComponent("store")
        let repo = try backend.open(MigrationTorture.v1, store, StoreOptions(durability: .relaxed))
        try repo.write { tx in try tx.insert(try Self.user(tx, 1)) }
        return (store, repo)
    }

    /// `torture-migrator` takes the store from version 1 to 3 in a process of its own.
    static func migrateInAnotherProcess(_ backend: BackendDescriptor, _ store: URL) throws {
        let child = Process()
        child.executableURL = try Bench.binary()
        child.arguments = ["torture-migrator", "--backend", backend.name, "--durability", "relaxed", store.path]
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationStatus == 0, "the other process migrated v1 → v3")
    }

    static func user(_ tx: any WriteTransaction, _ id: Int64) throws -> Record {
        try tx.schema.entity("User").record(["id": .int64(id), "username": .string("u\(id)"), "displayName": "U",
                                             "joinedAt": .date(Date(timeIntervalSince1970: 0))])
    }
}

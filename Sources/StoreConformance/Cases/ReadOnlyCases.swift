import Foundation
import StoreCore

/// Read-only mode (`StoreOptions.readOnly`): an existing store reads as it was written, every
/// write is refused with `readOnly`, and nothing in the store's files changes: not by writes,
/// not by a missing store, not by a store of another schema version.
enum ReadOnlyCases {
    static let all: [ConformanceCase] = [
        ConformanceCase("readOnly", "readsSeeWhatWasWritten", requires: [.persistence, .readOnlyMode]) { ctx in
            try ctx.seed()
            let before = try ctx.dump()
            try ctx.reopenReadOnly()
            try ctx.expectEqual(try ctx.dump(), before, "the store read through a read-only open")
            try ctx.expectIDs("Post", "author.username == %@", "ann", are: ids(10, 11))
            let report = try ctx.repository.verify()
            try ctx.expect(report.isClean, "verify() of a read-only store found: \(report.problems.prefix(3).map(\.description))")
        },
        ConformanceCase("readOnly", "everyWriteIsRefusedAndNoByteChanges", requires: [.persistence, .readOnlyMode]) { ctx in
            try ctx.seed()
            let dump = try ctx.dump()
            try ctx.close()
            let files = try StoreFiles(ctx.directory)
            try ctx.reopenReadOnly()
            for (what, write) in try writes(ctx) {
                _ = try ctx.expectError(.readOnly, "\(what) on a read-only store") { try ctx.write(write) }
            }
            try ctx.expectEqual(try ctx.dump(), dump, "the store after refused writes")
            try ctx.close()
            try files.expectUnchanged(ctx, "after refused writes")
        },
        ConformanceCase("readOnly", "opensOnReadOnlyMedia", requires: [.persistence, .readOnlyMode]) { ctx in
            try ctx.seed()
            let dump = try ctx.dump()
            try ctx.close()
            let files = try StoreFiles(ctx.directory)
            try ReadOnlyMedia.run(in: ctx.directory) {
                try ctx.reopenReadOnly()
                try ctx.expectEqual(try ctx.dump(), dump, "the store read from read-only media")
                _ = try ctx.expectError(.readOnly, "an insert on read-only media") {
                    try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 900, "newcomer")) }
                }
                try ctx.close()
            }
            try files.expectUnchanged(ctx, "after reading from read-only media")
        },
        ConformanceCase("readOnly", "missingStoreIsNotFoundAndNothingIsCreated", requires: .readOnlyMode) { ctx in
            try ctx.close()
            let empty = ctx.directory.appendingPathComponent("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
            _ = try ctx.expectError(.notFound, "opening an empty folder read-only") {
                _ = try ctx.harness.openReadOnly(schema: ctx.schema, directory: empty)
            }
            try ctx.expectEqual(try FileManager.default.contentsOfDirectory(atPath: empty.path), [], "the empty folder's files")
        },
        ConformanceCase("readOnly", "otherSchemaVersionIsRefusedUnchanged", requires: [.persistence, .readOnlyMode, .schemaVersioning]) { ctx in
            try ctx.seed()
            try ctx.close()
            let files = try StoreFiles(ctx.directory)
            _ = try ctx.expectError(.schemaMismatch, "opening a version-1 store read-only with version 2") {
                try ctx.reopenReadOnly(with: SocialSchema.make(version: 2))
            }
            try files.expectUnchanged(ctx, "after a refused read-only open")
        },
    ]

    /// One of every kind of write, each valid on the seeded store were it writable.
    private static func writes(_ ctx: ConformanceContext) throws -> [(String, (any WriteTransaction) throws -> Void)] {
        let user = try CRUDCases.newUser(ctx, 900, "newcomer")
        return [
            ("an insert", { try $0.insert(user) }),
            ("a batch insert", { try $0.insert(contentsOf: [user]) }),
            ("an update", { try $0.update("User", id: 2, set: ["age": 77]) }),
            ("an update by predicate", { _ = try $0.update("Post", where: "published" == false, set: ["score": 1]) }),
            ("a delete", { try $0.delete("Comment", id: 100) }),
            ("a delete by predicate", { _ = try $0.delete("Comment", where: "text" == "Nice") }),
            ("a link", { try $0.link("User", id: 1, "following", to: 2) }),
            ("an unlink", { try $0.unlink("Post", id: 12, "tags", from: "db") }),
        ]
    }
}

/// The bytes of a store's files, to check that nothing changed them: every file keeps its
/// bytes, and a new file may appear only empty (SQLite's read-only connections create an empty
/// `-wal`). Files that hold locks and reader slots rather than data (names ending in `-shm` or
/// holding `lock`) are not compared.
struct StoreFiles {
    let directory: URL
    let contents: [String: Data]

    init(_ directory: URL) throws {
        self.directory = directory
        contents = try Self.read(directory)
    }

    func expectUnchanged(_ ctx: ConformanceContext, _ what: String) throws {
        let now = try Self.read(directory)
        for (name, data) in contents where now[name] != data {
            throw ConformanceFailure("the store's file \(name) \(now[name] == nil ? "is gone" : "changed") \(what)")
        }
        for (name, data) in now where contents[name] == nil && !data.isEmpty {
            throw ConformanceFailure("a file \(name) of \(data.count) bytes appeared \(what)")
        }
    }

    /// Whether a store's file holds data, not locks or shared memory (`-shm`, LMDB's `lock.mdb`).
    static func holdsData(_ name: String) -> Bool { !name.hasSuffix("-shm") && !name.contains("lock") }

    private static func read(_ directory: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where holdsData(name) {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            out[name] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return out
    }
}

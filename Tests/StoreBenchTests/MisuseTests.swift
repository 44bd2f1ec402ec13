import CSQLite
import Foundation
import GRDBStore
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// Paths and files a store cannot be opened at, for every built-in backend: each a typed
/// `StoreError` naming the path and what to do, and no byte on disk changed.
@Suite("misuse of paths and files")
struct MisuseTests {
    static let backends: [BackendDescriptor] = [
        SQLiteStore.descriptor, GRDBStore.descriptor, LMDBStore.descriptor,
        ObjectGraph.descriptor(over: SQLiteStore.descriptor), ObjectGraph.descriptor(over: LMDBStore.descriptor),
    ]
    static let dataFile = ["sqlite": SQLiteStore.fileName, "grdb": GRDBStore.fileName, "lmdb": "data.mdb"]

    static func dataFile(_ b: BackendDescriptor) -> String { dataFile[b.name.replacingOccurrences(of: "objectgraph+", with: "")]! }

    /// Opens with `b`, expecting a `category` error whose message holds every piece of `mentions`.
    func expectRefusal(_ b: BackendDescriptor, _ dir: URL, _ category: StoreError.Category, mentions: [String],
                       options: StoreOptions = StoreOptions()) {
        do {
            let store = try b.open(try SocialSchema.make(), dir, options)
            try? store.close()
            Issue.record("\(b.name): opening \(dir.path) succeeded; expected \(category)")
        } catch let e as StoreError {
            #expect(e.category == category, "\(b.name): \(e)")
            for m in mentions { #expect(e.message.contains(m), "\(b.name): '\(m)' not in: \(e.message)") }
        } catch {
            Issue.record("\(b.name): not a StoreError: \(error)")
        }
    }

    @Test("an empty data file is `corrupted`, stays empty, and nothing is created beside it", arguments: backends)
    func emptyDataFile(_ b: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("misuse-empty")
        let file = dir.url.appendingPathComponent(Self.dataFile(b))
        FileManager.default.createFile(atPath: file.path, contents: Data())
        let before = try DirectoryBytes(dir.url)
        expectRefusal(b, dir.url, .corrupted, mentions: [file.path, "empty"])
        try before.expectUnchanged(b.name)
    }

    @Test("a foreign SQLite database is refused before anything is written to it", arguments: backends.filter { $0.engine == "sqlite" })
    func foreignSQLiteDatabase(_ b: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("misuse-foreign")
        let file = dir.url.appendingPathComponent(Self.dataFile(b))
        var db: OpaquePointer?
        sqlite3_open(file.path, &db)
        sqlite3_exec(db, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')", nil, nil, nil)
        sqlite3_close(db)
        let before = try DirectoryBytes(dir.url)
        expectRefusal(b, dir.url, .corrupted, mentions: [file.path, "not a StoreBench store", "nothing was written"])
        try before.expectUnchanged(b.name)
    }

    @Test("another backend's folder is refused and nothing is added to it", arguments: backends)
    func anotherBackendsFolder(_ b: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("misuse-other")
        let other = Self.dataFile(b) == "data.mdb" ? SQLiteStore.descriptor : LMDBStore.descriptor
        try other.open(try SocialSchema.make(), dir.url, StoreOptions()).close()
        let before = try DirectoryBytes(dir.url)
        expectRefusal(b, dir.url, .invalidValue, mentions: [dir.url.path, "nothing was written"])
        try before.expectUnchanged(b.name)
    }

    @Test("a path that is a file, or a symbolic-link loop, is an `io` error that says so", arguments: backends)
    func fileAndLinkLoop(_ b: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("misuse-paths")
        let file = dir.url.appendingPathComponent("notes.txt")
        try Data("keep me".utf8).write(to: file)
        expectRefusal(b, file, .io, mentions: [file.path, "is a file"])
        #expect(try Data(contentsOf: file) == Data("keep me".utf8))
        let a = dir.url.appendingPathComponent("a"), c = dir.url.appendingPathComponent("c")
        try FileManager.default.createSymbolicLink(atPath: a.path, withDestinationPath: c.path)
        try FileManager.default.createSymbolicLink(atPath: c.path, withDestinationPath: a.path)
        expectRefusal(b, a, .io, mentions: ["symbolic link loop"])
    }

    @Test("a store under a read-only parent cannot be created: `io`, naming the folder and the permission", arguments: backends)
    func readOnlyParent(_ b: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("misuse-ro-parent")
        let store = dir.url.appendingPathComponent("store")
        try ReadOnlyMedia.run(in: dir.url) { expectRefusal(b, store, .io, mentions: [store.path, "permission"]) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == [])
    }

    @Test("a store on read-only media opened for writing says to open it read-only, and no byte changes", arguments: backends)
    func writableOpenOnReadOnlyMedia(_ b: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("misuse-ro-store")
        try b.open(try SocialSchema.make(), dir.url, StoreOptions()).close()
        let before = try DirectoryBytes(dir.url)
        try ReadOnlyMedia.run(in: dir.url) {
            do {
                try b.open(try SocialSchema.make(), dir.url, StoreOptions()).close()
                Issue.record("\(b.name): a writable open on read-only media succeeded")
            } catch let e as StoreError {
                #expect([.io, .readOnly].contains(e.category) && e.message.contains("readOnly: true"), "\(b.name): \(e)")
            }
        }
        try before.expectUnchanged(b.name)
    }
}

/// Every file of a folder, with its bytes; files that only hold locks are left out.
struct DirectoryBytes {
    let directory: URL
    let files: [String: Data]

    init(_ directory: URL) throws {
        self.directory = directory
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.contains("lock") && !name.hasSuffix("-shm") {
            out[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        files = out
    }

    func expectUnchanged(_ what: String) throws {
        let now = try DirectoryBytes(directory).files
        #expect(now.keys.sorted() == files.keys.sorted(), "\(what): files \(files.keys.sorted()) became \(now.keys.sorted())")
        for (name, data) in files { #expect(now[name] == data, "\(what): \(name) changed") }
    }
}

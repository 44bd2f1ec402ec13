import Foundation
import GRDBStore
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// Every engine family opens in memory: the backend's semantics, files on a RAM file system,
/// removed on close or release.
@Suite("in-memory stores")
struct InMemoryStoreTests {
    @Test(arguments: MisuseTests.backends.map(\.name))
    func opensWorksAndLeavesNothingBehind(_ name: String) throws {
        let backend = try #require(MisuseTests.backends.first { $0.name == name })
        let store = try backend.openInMemory(try SocialSchema.make())
        let folder = store.folder
        #expect(folder.path.hasPrefix("/dev/shm/") || !FileManager.default.isWritableFile(atPath: "/dev/shm"))
        #expect(!store.capabilities.contains(.persistence))
        try SocialFixture.load(into: store)
        let posts = try store.read { try $0.fetch(Query("Post", where: try StorePredicate(format: "author == %d", .int(1)))) }
        #expect(posts.map(\.id) == [10, 11])
        #expect(try store.verify().isClean)
        #expect(FileManager.default.fileExists(atPath: folder.path))
        try store.close()
        try store.close()                                   // a second close does nothing
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func aReleasedStoreRemovesItsFiles() throws {
        var store: InMemoryStore? = try LMDBStore.descriptor.openInMemory(try SocialSchema.make())
        let folder = try #require(store?.folder)
        #expect(FileManager.default.fileExists(atPath: folder.path))
        store = nil
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func twoInMemoryStoresAreSeparate() throws {
        let schema = try SocialSchema.make()
        let a = try ObjectGraph.inMemory(over: SQLiteStore.descriptor, schema: schema)
        let b = try ObjectGraph.inMemory(over: SQLiteStore.descriptor, schema: schema)
        let context = a.newContext()
        try context.insert("Tag", ["name": "only-in-a"])
        try context.save()
        #expect(try a.read { try $0.count(Query("Tag")) } == 1)
        #expect(try b.read { try $0.count(Query("Tag")) } == 0)
        try a.close()
        try b.close()
    }

    @Test func readOnlyInMemoryIsRefused() throws {
        let e = try #require(throws: StoreError.self) {
            _ = try SQLiteStore.descriptor.openInMemory(try SocialSchema.make(), options: StoreOptions(readOnly: true))
        }
        #expect(e.category == .invalidValue && e.message.contains("cannot be opened read-only"))
    }
}

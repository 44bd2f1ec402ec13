import CountingStore
import Foundation
import StoreConformance
import StoreCore
import Testing

/// What CountingStore adds over the store underneath: the counts.
@Suite struct CountingStoreTests {
    @Test func countsEachOperation() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("counting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let repo = try CountingStore.descriptor.open(SocialSchema.make(), dir, StoreOptions(durability: .relaxed))
        defer { try? repo.close() }
        let store = try #require(repo as? CountingStore)
        try SocialFixture.load(into: store)
        _ = try store.read { try $0.fetch("User", id: 1) }
        let counts = store.counts.snapshot()
        #expect(counts["write"] == 1)
        #expect(counts["read"] == 1)
        #expect(counts["fetch"] == 1)
        #expect(counts["link", default: 0] > 10)
    }
}

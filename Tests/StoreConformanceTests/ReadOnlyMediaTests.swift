import Foundation
import StoreConformance
import Testing

/// The kit's read-only media are read-only for this process, root or not, and only while `run` lasts.
@Suite("ReadOnlyMedia")
struct ReadOnlyMediaTests {
    @Test("inside run, a file can be read but not written or created; afterwards both work again")
    func refusesWritesOnlyInside() throws {
        let dir = try TemporaryDirectory("ro-media")
        let file = dir.url.appendingPathComponent("data")
        try Data("kept".utf8).write(to: file)
        let (read, created, written) = try ReadOnlyMedia.run(in: dir.url) {
            (try? Data(contentsOf: file),
             FileManager.default.createFile(atPath: dir.url.appendingPathComponent("new").path, contents: Data()),
             (try? Data("changed".utf8).write(to: file)) != nil)
        }
        #expect(read == Data("kept".utf8))
        #expect(!created, "a file was created on read-only media")
        #expect(!written, "a file was written on read-only media")
        #expect(try Data(contentsOf: file) == Data("kept".utf8))
        try Data("afterwards".utf8).write(to: file)
        #expect(FileManager.default.createFile(atPath: dir.url.appendingPathComponent("new").path, contents: Data()))
    }

    @Test("an error thrown inside run reaches the caller")
    func errorsPropagate() throws {
        struct Marker: Error {}
        let dir = try TemporaryDirectory("ro-media-error")
        #expect(throws: Marker.self) { try ReadOnlyMedia.run(in: dir.url) { throw Marker() } }
    }
}

import Foundation
import LMDBStore
import StoreConformance
import StoreCore
import Testing

/// Paths a store cannot live at: each a typed error naming the path, with nothing written.
@Suite("LMDBStore misuse")
struct LMDBMisuseTests {
    func expectError(_ category: StoreError.Category, _ body: () throws -> Void) -> StoreError? {
        do { try body() } catch let e as StoreError {
            #expect(e.category == category, "\(e)")
            return e
        } catch { Issue.record("not a StoreError: \(error)") }
        Issue.record("expected a \(category) error")
        return nil
    }

    @Test("a path that is a file is an `io` error naming it, and the file is left as it was")
    func pathIsAFile() throws {
        let dir = try TemporaryDirectory("misuse-file")
        let file = dir.url.appendingPathComponent("notes.txt")
        try Data("keep me".utf8).write(to: file)
        let e = expectError(.io) { _ = try LMDBStore(directory: file, schema: try blobSchema()) }
        #expect(e?.message.contains(file.path) == true && e?.message.contains("is a file") == true, "\(String(describing: e))")
        #expect(try Data(contentsOf: file) == Data("keep me".utf8))
    }

    @Test("a symbolic-link loop is an `io` error that says so")
    func symlinkLoop() throws {
        let dir = try TemporaryDirectory("misuse-loop")
        let a = dir.url.appendingPathComponent("a"), b = dir.url.appendingPathComponent("b")
        try FileManager.default.createSymbolicLink(atPath: a.path, withDestinationPath: b.path)
        try FileManager.default.createSymbolicLink(atPath: b.path, withDestinationPath: a.path)
        let e = expectError(.io) { _ = try LMDBStore(directory: a, schema: try blobSchema()) }
        #expect(e?.message.contains("symbolic link loop") == true, "\(String(describing: e))")
    }

    @Test("a folder holding another engine's store is refused, and nothing is added to it")
    func anotherEnginesFolder() throws {
        let dir = try TemporaryDirectory("misuse-other")
        let other = dir.url.appendingPathComponent("store.sqlite")
        try Data("SQLite format 3\0".utf8).write(to: other)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
        let e = expectError(.invalidValue) { _ = try LMDBStore(directory: dir.url, schema: try blobSchema()) }
        #expect(e?.message.contains("SQLite store") == true, "\(String(describing: e))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == before)
    }
}

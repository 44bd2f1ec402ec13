import Foundation
import LMDBStore
import StoreCore
import Testing

/// A fresh temporary directory per test, removed afterwards.
final class TemporaryDirectory {
    let url: URL
    init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lmdb-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    var dataFile: URL { url.appendingPathComponent("data.mdb") }
}

/// Runs `body` and checks it throws a `StoreError` of category `c`; returns the error.
@discardableResult
func expectCategory(_ c: StoreError.Category, _ body: () throws -> Void,
                    sourceLocation: SourceLocation = #_sourceLocation) -> StoreError? {
    do { try body() } catch let e as StoreError {
        #expect(e.category == c, "\(e)", sourceLocation: sourceLocation)
        return e
    } catch { Issue.record("not a StoreError: \(error)", sourceLocation: sourceLocation) }
    Issue.record("expected a \(c) error", sourceLocation: sourceLocation)
    return nil
}

/// A one-entity schema for bulk tests: `Blob(id, group, payload)` with an index on `group`.
func blobSchema() throws -> Schema {
    try Schema(version: 1, entities: [
        EntityDescription("Blob", primaryKey: "id",
                          attributes: [Attribute("id", .int64), Attribute("group", .int64), Attribute("payload", .bytes)],
                          indexes: [IndexDescription(["group"])]),
    ])
}

func blob(_ s: Schema, _ id: Int, size: Int) throws -> Record {
    try s["Blob"]!.record(["id": .int64(Int64(id)), "group": .int64(Int64(id % 10)),
                           "payload": .bytes(Array(repeating: UInt8(truncatingIfNeeded: id), count: size))])
}

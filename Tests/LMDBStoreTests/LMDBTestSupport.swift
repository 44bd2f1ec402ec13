import Foundation
import LMDBStore
import StoreConformance
import StoreCore
import Testing

extension TemporaryDirectory {
    /// LMDB's data file in this directory.
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

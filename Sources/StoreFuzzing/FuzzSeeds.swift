import Foundation
import LMDBStore
import StoreCore

/// Writes the seed corpora the fuzzer starts from (`storebench-fuzz seeds Tests/Fuzz`): real
/// records of every fuzz entity, in both formats, and the `data.mdb` of small real stores, so
/// that mutations start from valid structure. The predicate seeds are written by hand.
package enum FuzzSeeds {
    package static func write(under root: URL) throws {
        let records = root.appendingPathComponent("record/seeds"), files = root.appendingPathComponent("pagewalk/seeds")
        for dir in [records, files] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        for (i, e) in FuzzSchema.schema.entities.enumerated() {
            for (j, values) in sampleValues(e).enumerated() {
                let current = try RecordCodec.encode(values, of: e, schemaVersion: 1)
                let legacy = RecordCodec.encodeLegacy(values, schemaVersion: 1)
                try Data([UInt8(i)] + current).write(to: records.appendingPathComponent("\(e.name)-\(j)-format3"))
                try Data([UInt8(i)] + legacy).write(to: records.appendingPathComponent("\(e.name)-\(j)-format2"))
            }
        }
        for (name, count, payload, deleted) in stores {
            try storeFile(records: count, payload: payload, deleting: deleted).write(to: files.appendingPathComponent(name))
        }
    }

    /// Records of `e`: every optional attribute null (where it has one), then every attribute set.
    static func sampleValues(_ e: Entity) -> [[Value]] {
        let full: [Value] = e.attributes.map { a in
            switch a.type {
            case .int64: -42
            case .double: 2.5
            case .bool: true
            case .string: .string("Zoë \(a.name)")
            case .date: .date(Date(timeIntervalSince1970: 1_700_000_000))
            case .uuid: .uuid(FuzzSchema.uuid)
            case .bytes: .bytes([0, 1, 254, 255])
            }
        }
        let nulls: [Value] = zip(e.attributes, full).map { $0.isOptional ? .null : $1 }
        return nulls == full ? [full] : [nulls, full]
    }

    /// Small stores (a few pages each): records, an index, an overflow value, free pages, a
    /// dupsort sub-page.
    private static let stores: [(String, Int, Int, Int)] = [
        ("three-records.mdb", 3, 20, 0), ("overflow.mdb", 2, 6_000, 0), ("deletes.mdb", 40, 30, 13),
    ]

    /// The schema of the page-walk seeds' stores: `Blob(id, group, payload)`, an index on `group`.
    package static let blobSchema: Schema = {
        // Fixed and valid declarations; a failure here is a bug in this file.
        try! Schema(version: 1, entities: [
            EntityDescription("Blob", primaryKey: "id",
                              attributes: [Attribute("id", .int64), Attribute("group", .int64), Attribute("payload", .bytes)],
                              indexes: [IndexDescription(["group"])]),
        ])
    }()

    /// The `data.mdb` of a closed store of `blobSchema`.
    private static func storeFile(records: Int, payload: Int, deleting: Int) throws -> Data {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-fuzz-seed-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let schema = blobSchema
        let store = try LMDBStore(directory: dir, schema: schema)
        try store.write { tx in
            for i in 0..<records {
                try tx.insert(Record(schema["Blob"]!, values: [.int64(Int64(i)), .int64(Int64(i % 3)), .bytes(Array(repeating: 7, count: payload))]))
            }
        }
        try store.write { tx in for i in 0..<deleting { try tx.delete("Blob", id: .int64(Int64(i * 3))) } }
        try store.close()
        return try Data(contentsOf: dir.appendingPathComponent("data.mdb"))
    }
}

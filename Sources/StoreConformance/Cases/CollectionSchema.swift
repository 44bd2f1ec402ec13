import Foundation
import StoreCore

/// The schema and records of the `collections` group: notes holding a list or map of every
/// primitive type, and owners reached through a to-one key path. Internal.
enum CollectionSchema {
    /// The capabilities every `collections` case needs.
    static let needs: Capabilities = [.primitiveLists, .primitiveMaps]

    /// The schema at `version`, its descriptions edited by `edit` (a migration's destination).
    static func make(version: Int = 1, _ edit: (inout [EntityDescription]) -> Void = { _ in }) throws -> Schema {
        var d = descriptions
        edit(&d)
        return try Schema(version: version, entities: d)
    }

    private static let descriptions: [EntityDescription] = [
            EntityDescription("Owner", primaryKey: "id", attributes: [
                Attribute("id", .int64), Attribute("name", .string, default: ""),
                Attribute("nicknames", .string, collection: .list),
            ], relationships: [Relationship("notes", to: "Note", inverse: "owner", .toMany, deleteRule: .cascade)]),
            EntityDescription("Note", primaryKey: "id", attributes: [
                Attribute("id", .int64), Attribute("title", .string, default: ""),
                Attribute("tags", .string, collection: .list), Attribute("scores", .int64, collection: .list),
                Attribute("ratios", .double, collection: .list), Attribute("flags", .bool, collection: .list),
                Attribute("stamps", .date, collection: .list), Attribute("refs", .uuid, collection: .list),
                Attribute("blobs", .bytes, collection: .list),
                Attribute("prices", .double, collection: .map), Attribute("labels", .string, collection: .map),
            ], relationships: [Relationship("owner", to: "Owner", inverse: "notes", .toOne)]),
        ]

    /// Starts the case over on a fresh store of this schema.
    static func open(_ ctx: ConformanceContext) throws {
        try ctx.startOver(with: make())
    }

    /// Opens a fresh store and writes the query fixture: owners 1 (nicknames al, Bob) and 2
    /// (none); notes 1–4 (see the `collections` cases for their values).
    static func seed(_ ctx: ConformanceContext) throws {
        try open(ctx)
        let notes: [[String: Value]] = [
            ["id": 1, "tags": .list(["swift", "Café", "swift"]), "scores": .list([1, 5, 9]),
             "prices": .map(["small": 1.5, "large": 3.0]), "labels": .map(["color": "Red"])],
            ["id": 2, "tags": .list(["rust"]), "prices": .map(["small": 3.0])],
            ["id": 3, "scores": .list([10]), "labels": .map(["color": "blue", "size": "L"])],
            ["id": 4, "tags": .list(["cafe", "go", "kotlin"]), "scores": .list([2, 2]),
             "prices": .map(["large": 0.5]), "labels": .map(["color": "red"])],
        ]
        let owners = [try ctx.record("Owner", ["id": 1, "name": "ann", "nicknames": .list(["al", "Bob"])]),
                      try ctx.record("Owner", ["id": 2, "name": "ben"])]
        let records = try notes.map { try ctx.record("Note", $0) }
        try ctx.write { tx in
            try tx.insert(contentsOf: owners)
            try tx.insert(contentsOf: records)
            try tx.link("Note", id: 1, "owner", to: 1)
            try tx.link("Note", id: 2, "owner", to: 1)
            try tx.link("Note", id: 3, "owner", to: 2)
        }
    }

    /// A note holding edge values of every element type: the round-trip fixture.
    static func edgeNote(_ ctx: ConformanceContext, id: Int64) throws -> Record {
        try ctx.record("Note", [
            "id": .int64(id), "title": "edges",
            "tags": .list(["", "日本語 🎉", "quote\"back\\slash/", "tab\tnl\n\u{1}\u{7F}", "e\u{301}", "swift", "swift"]),
            "scores": .list([.int64(.min), 0, .int64(.max), -1]),
            "ratios": .list([0.1, -2.5e-300, 1e300, 5e-324, 1.0, -7.25]),
            "flags": .list([true, false, true]),
            "stamps": .list([.date(Date(timeIntervalSince1970: -86_400.25)), .date(Date(timeIntervalSince1970: 1e9 + 0.123))]),
            "refs": .list([.uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!),
                           .uuid(UUID(uuidString: "FFFFFFFF-0000-4000-8000-00000000000A")!)]),
            "blobs": .list([.bytes([]), .bytes([0, 255, 0, 1]), .bytes([0x5B, 0x22])]),
            "prices": .map(["small": 1.5, "": -0.0, "with.dot": 1e-9, "ключ": 42.0]),
            "labels": .map(["color": "Red", "quote\"": "\\", "empty": ""]),
        ])
    }
}

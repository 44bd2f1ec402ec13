import Foundation
import StoreCore

/// The schema and records of the `embeddedObjects` group: users owning one embedded address
/// (to-one) and embedded phones (to-many), both with the cascade rule. Internal.
enum EmbeddedSchema {
    /// The capabilities every `embeddedObjects` case needs.
    static let needs: Capabilities = [.embeddedObjects]

    /// The schema, its descriptions edited by `edit` (for the validation case).
    static func make(_ edit: (inout [EntityDescription]) -> Void = { _ in }) throws -> Schema {
        var d = descriptions
        edit(&d)
        return try Schema(version: 1, entities: d)
    }

    static let descriptions: [EntityDescription] = [
        EntityDescription("User", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("name", .string, default: "")],
                          relationships: [Relationship("address", to: "Address", inverse: "user", .toOne, deleteRule: .cascade),
                                          Relationship("phones", to: "Phone", inverse: "user", .toMany, deleteRule: .cascade)]),
        EntityDescription("Address", primaryKey: "id", attributes: [
            Attribute("id", .int64), Attribute("city", .string, default: ""), Attribute("street", .string, default: ""),
        ], relationships: [Relationship("user", to: "User", inverse: "address", .toOne)], embedded: true),
        EntityDescription("Phone", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("kind", .string, default: "")],
                          relationships: [Relationship("user", to: "User", inverse: "phones", .toOne)], embedded: true),
    ]

    /// Starts over on a fresh store and writes: user 1 (ann, Oslo, phones 11 mobile and 12
    /// home), user 2 (ben, Bergen, phone 21 mobile), user 3 (cid, nothing embedded).
    static func seed(_ ctx: ConformanceContext) throws {
        try ctx.startOver(with: make())
        let users = try [(1, "ann"), (2, "ben"), (3, "cid")].map { try ctx.record("User", ["id": .int64($0), "name": .string($1)]) }
        let addresses = try [(10, "Oslo", "Karl Johans gate 1"), (20, "Bergen", "Bryggen 2")].map {
            try ctx.record("Address", ["id": .int64($0), "city": .string($1), "street": .string($2)])
        }
        let phones = try [(11, "mobile"), (12, "home"), (21, "mobile")].map { try ctx.record("Phone", ["id": .int64($0), "kind": .string($1)]) }
        try ctx.write { tx in
            try tx.insert(contentsOf: users)
            for a in addresses { try tx.insert(a) }
            try tx.insert(contentsOf: phones)
            try tx.link("User", id: 1, "address", to: 10)
            try tx.link("Address", id: 20, "user", to: 2)
            try tx.link("User", id: 1, "phones", to: 11)
            try tx.link("Phone", id: 12, "user", to: 1)
            try tx.link("User", id: 2, "phones", to: 21)
        }
    }

    /// Every stored record and link of the fixture, as text: what a refused write must leave.
    static func state(_ ctx: ConformanceContext) throws -> [String] {
        try ctx.read { tx in
            var out: [String] = []
            for e in ["User", "Address", "Phone"] {
                for r in try tx.fetch(Query(e)) {
                    let links = try tx.schema.entity(e).relationships.map { rel in
                        "\(rel.name)=\(try tx.related(e, id: r.id, via: rel.name).map(\.id))"
                    }
                    out.append("\(r) \(links.joined(separator: " "))")
                }
            }
            return out
        }
    }
}

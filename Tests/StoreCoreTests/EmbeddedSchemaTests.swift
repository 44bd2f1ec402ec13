import StoreCore
import Testing

@Suite("Embedded entities in the schema")
struct EmbeddedSchemaTests {
    /// User owns one Address (to-one) and Phones (to-many); an Address owns one GeoPoint.
    static let valid: [EntityDescription] = [
        EntityDescription("User", primaryKey: "id", attributes: [Attribute("id", .int64)], relationships: [
            Relationship("address", to: "Address", inverse: "user", .toOne, deleteRule: .cascade),
            Relationship("phones", to: "Phone", inverse: "user", .toMany, deleteRule: .cascade),
        ]),
        EntityDescription("Address", primaryKey: "id", attributes: [Attribute("id", .int64), Attribute("city", .string)], relationships: [
            Relationship("user", to: "User", inverse: "address", .toOne),
            Relationship("geo", to: "GeoPoint", inverse: "address", .toOne, deleteRule: .cascade),
        ], embedded: true),
        EntityDescription("Phone", primaryKey: "id", attributes: [Attribute("id", .int64)],
                          relationships: [Relationship("user", to: "User", inverse: "phones", .toOne)], embedded: true),
        EntityDescription("GeoPoint", primaryKey: "id", attributes: [Attribute("id", .int64)],
                          relationships: [Relationship("address", to: "Address", inverse: "geo", .toOne)], embedded: true),
    ]

    func problem(_ edit: (inout [EntityDescription]) -> Void) -> String? {
        var d = Self.valid
        edit(&d)
        do { _ = try Schema(version: 1, entities: d); return nil } catch let e as StoreError {
            #expect(e.category == .invalidSchema)
            return e.message
        } catch { return "\(error)" }
    }

    @Test("a valid declaration, nested embedding included, gives owner links and ownership")
    func validDeclaration() throws {
        let s = try Schema(version: 1, entities: Self.valid)
        #expect(s["Address"]!.isEmbedded && !s["User"]!.isEmbedded)
        #expect(s["Address"]!.ownerLink?.name == "user")
        #expect(s["GeoPoint"]!.ownerLink?.name == "address")
        #expect(s["User"]!.ownerLink == nil)
        let owning = try #require(s.ownership(s["User"]!, s["User"]!.relationship("phones")!))
        #expect(owning.embedded.name == "Phone" && !owning.embeddedIsSource)
        let back = try #require(s.ownership(s["GeoPoint"]!, s["GeoPoint"]!.relationship("address")!))
        #expect(back.embedded.name == "GeoPoint" && back.embeddedIsSource)
        #expect(s.ownership(s["Address"]!, s["Address"]!.relationship("user")!)?.embedded.name == "Address")
    }

    @Test("each wrong embedded declaration is refused, naming the entity and relationship")
    func wrongDeclarations() {
        #expect(problem { $0[0].relationships[1].deleteRule = .nullify }?.contains("'User.phones' to embedded entity 'Phone' has delete rule nullify") == true)
        #expect(problem { $0[0].relationships.removeLast(); $0[2].relationships = [] }?.contains("embedded entity 'Phone' has no owning relationship") == true)
        #expect(problem { $0[2].relationships[0].cardinality = .toMany; $0[0].relationships[1].cardinality = .toMany }?
            .contains("inverse 'Phone.user' must be to-one") == true)
        #expect(problem { $0[2].relationships[0].deleteRule = .deny }?.contains("inverse 'Phone.user' must have delete rule nullify") == true)
        let second = problem {
            $0.append(EntityDescription("Team", primaryKey: "id", attributes: [Attribute("id", .int64)],
                                        relationships: [Relationship("phone", to: "Phone", inverse: "team", .toOne, deleteRule: .cascade)]))
            $0[2].relationships.append(Relationship("team", to: "Team", inverse: "phone", .toOne))
        }
        #expect(second?.contains("embedded entity 'Phone' has 2 owning relationships (User.phones, Team.phone)") == true, "\(second ?? "")")
        #expect(problem {
            $0[0].relationships.removeFirst()
            $0[1].relationships[0] = Relationship("user", to: "GeoPoint", inverse: "owned", .toOne)
            $0[3].relationships.append(Relationship("owned", to: "Address", inverse: "user", .toOne, deleteRule: .cascade))
        }?.contains("is owned in a cycle") == true)
    }

    @Test("the embedded flag is part of the fingerprint, and read back from it")
    func fingerprint() throws {
        let s = try Schema(version: 1, entities: Self.valid)
        var plain = Self.valid
        for i in plain.indices { plain[i].isEmbedded = false }
        let p = try Schema(version: 1, entities: plain)
        #expect(s.fingerprint != p.fingerprint)
        #expect(s.fingerprint.contains("|Address:id:embedded;"))
        let back = try Schema(fingerprint: s.fingerprint, path: "test")
        #expect(back.fingerprint == s.fingerprint)
        #expect(back["Phone"]!.isEmbedded && !back["User"]!.isEmbedded)
    }
}

import StoreCore
import Testing

@Suite("Schema validation")
struct SchemaValidationTests {
    static let user = EntityDescription("User", primaryKey: "id",
                                        attributes: [Attribute("id", .int64), Attribute("name", .string)],
                                        relationships: [Relationship("posts", to: "Post", inverse: "author", .toMany)])
    static let post = EntityDescription("Post", primaryKey: "id",
                                        attributes: [Attribute("id", .int64)],
                                        relationships: [Relationship("author", to: "User", inverse: "posts", .toOne)])

    func problem(_ entities: [EntityDescription], version: Int = 1) -> String? {
        do { _ = try Schema(version: version, entities: entities); return nil } catch let e as StoreError {
            #expect(e.category == .invalidSchema)
            return e.message
        } catch { return "\(error)" }
    }

    @Test("a valid schema passes and exposes ordinals")
    func valid() throws {
        let s = try Schema(version: 1, entities: [Self.user, Self.post])
        #expect(s["User"]?.ordinal(of: "name") == 1)
        #expect(s["User"]?.primaryKeyOrdinal == 0)
        #expect(s.inverse(of: s["Post"]!.relationship("author")!).relationship.name == "posts")
    }

    @Test("entity(of:) gives this schema's entity for its own, another instance's, and refuses a stranger")
    func entityOfAnother() throws {
        let s = try Schema(version: 1, entities: [Self.user, Self.post])
        let twin = try Schema(version: 1, entities: [Self.post, Self.user])
        #expect(try s.entity(of: s["User"]!) === s["User"]!)
        // Same name, other instance, other position: resolved by name to this schema's entity.
        #expect(try s.entity(of: twin["User"]!) === s["User"]!)
        #expect(try s.entity(of: twin["Post"]!) === s["Post"]!)
        let stranger = try Schema(version: 1, entities: [EntityDescription("Tag", primaryKey: "id", attributes: [Attribute("id", .int64)])])
        #expect(throws: StoreError.self) { try s.entity(of: stranger["Tag"]!) }
    }

    @Test("each problem is named")
    func problems() {
        var u = Self.user, p = Self.post
        func check(_ es: [EntityDescription], _ fragment: String, version: Int = 1) {
            let m = problem(es, version: version)
            #expect(m?.contains(fragment) == true, "expected '\(fragment)' in \(m ?? "no error")")
        }
        check([Self.user, Self.post, Self.user], "duplicate entity name 'User'")
        check([Self.user, Self.post], "schema version must be >= 0", version: -1)
        check([], "no entities")
        u = Self.user; u.attributes.append(Attribute("name", .int64)); check([u, p], "duplicate name 'User.name'")
        u = Self.user; u.relationships.append(Relationship("name", to: "Post", inverse: "author", .toMany)); check([u, p], "duplicate name 'User.name'")
        u = Self.user; u.relationships[0].inverse = "writer"; check([u, p], "unknown inverse 'Post.writer'")
        u = Self.user; u.relationships[0].destination = "Nope"; check([u, p], "unknown entity 'Nope'")
        p = Self.post; p.relationships.append(Relationship("editor", to: "User", inverse: "posts", .toOne))
        check([Self.user, p], "does not point back")
        u = Self.user; u.primaryKey = "nope"; check([u, Self.post], "primary key 'nope' is not one of its attributes")
        u = Self.user; u.primaryKey = "name"; u.attributes[1].type = .double; check([u, Self.post], "use int64, uuid or string")
        u = Self.user; u.attributes[0].isOptional = true; check([u, Self.post], "cannot be optional")
        u = Self.user; u.attributes[1].defaultValue = 3; check([u, Self.post], "default 3 is not a string")
        u = Self.user; u.attributes[1].defaultValue = nil; u.attributes.append(Attribute("x", .int64, default: .null)); check([u, Self.post], "default nil for a required")
        u = Self.user; u.attributes.append(Attribute("d", .double, default: .double(.nan))); check([u, Self.post], "finite")
        u = Self.user; u.indexes = [IndexDescription(["nope"])]; check([u, Self.post], "unknown attribute 'nope'")
        u = Self.user; u.indexes = [IndexDescription([])]; check([u, Self.post], "names no attributes")
        u = Self.user; u.indexes = [IndexDescription(["name", "name"])]; check([u, Self.post], "repeats an attribute")
        u = Self.user; u.attributes[1].name = "sb_name"; check([u, Self.post], "reserved prefix")
        u = Self.user; u.attributes[1].name = "first name"; check([u, Self.post], "must start with a letter")
        u = Self.user; u.attributes[1].name = ""; check([u, Self.post], "empty name")
        let selfInverse = EntityDescription("N", primaryKey: "id", attributes: [Attribute("id", .int64)],
                                            relationships: [Relationship("friends", to: "N", inverse: "friends", .toMany)])
        check([selfInverse], "cannot be its own inverse")
    }
}

extension Schema {
    /// The schema a store records in its fingerprint (`fingerprint`, stored beside the version
    /// by every built-in backend): entities, attributes with their types, indexes and
    /// relationships. Default values are not recorded, so the result suits reading and
    /// checking a store (`storebench verify`), not inserting into it. Throws `corrupted` naming
    /// `path` when the text is not a fingerprint.
    ///
    /// ```swift
    /// let schema = try Schema(fingerprint: stored, path: "/data/store.sqlite")
    /// ```
    public convenience init(fingerprint: String, path: String) throws {
        func damaged(_ why: String) -> StoreError {
            StoreError(.corrupted, "\(path): the recorded schema cannot be read (\(why))", context: String(fingerprint.prefix(200)))
        }
        var parts = fingerprint.split(separator: "|", omittingEmptySubsequences: false)
        guard let head = parts.first, head.hasPrefix("v"), let version = Int(head.dropFirst()) else {
            throw damaged("it does not start with a version")
        }
        parts.removeFirst()
        let entities = try parts.map { part in
            guard let e = try Self.entity(from: part) else { throw damaged("entity '\(part.prefix(40))'") }
            return e
        }
        do {
            try self.init(version: version, entities: entities)
        } catch let e as StoreError {
            throw damaged(e.message)
        }
    }

    /// One entity of a fingerprint: `Name:pk[:embedded];attr type[?];idx(a,b)[!];rel->Dest.inverse card rule`.
    private static func entity(from text: Substring) throws -> EntityDescription? {
        var members = text.split(separator: ";", omittingEmptySubsequences: false)
        guard let head = members.first else { return nil }
        let nameAndKey = head.split(separator: ":", omittingEmptySubsequences: false)
        guard nameAndKey.count == 2 || (nameAndKey.count == 3 && nameAndKey[2] == "embedded") else { return nil }
        members.removeFirst()
        var attributes: [Attribute] = [], indexes: [IndexDescription] = [], relationships: [Relationship] = []
        for m in members {
            if m.hasPrefix("idx("), let close = m.lastIndex(of: ")") {
                let names = m[m.index(m.startIndex, offsetBy: 4)..<close].split(separator: ",").map(String.init)
                indexes.append(IndexDescription(names, unique: m[close...] == ")!"))
            } else if let r = relationship(m) {
                relationships.append(r)
            } else if let a = attribute(m) {
                attributes.append(a)
            } else {
                return nil
            }
        }
        return EntityDescription(String(nameAndKey[0]), primaryKey: String(nameAndKey[1]), attributes: attributes,
                                 indexes: indexes, relationships: relationships, embedded: nameAndKey.count == 3)
    }

    /// `name type` or `name type?`; a list's type ends in `[]`, a map's in `{}`.
    private static func attribute(_ m: Substring) -> Attribute? {
        let words = m.split(separator: " ")
        guard words.count == 2 else { return nil }
        let optional = words[1].hasSuffix("?")
        var typeName = optional ? words[1].dropLast() : words[1]
        let collection = AttributeCollection.allCases.first { typeName.hasSuffix($0.suffix) }
        if let c = collection { typeName = typeName.dropLast(c.suffix.count) }
        guard let type = AttributeType(rawValue: String(typeName)) else { return nil }
        return Attribute(String(words[0]), type, optional: optional, collection: collection)
    }

    /// `name->Destination.inverse cardinality rule`, then ` ordered` for an ordered to-many.
    private static func relationship(_ m: Substring) -> Relationship? {
        let words = m.split(separator: " ")
        let ordered = words.count == 4 && words[3] == "ordered"
        guard words.count == 3 || ordered, let arrow = words[0].range(of: "->") else { return nil }
        let target = words[0][arrow.upperBound...].split(separator: ".")
        guard target.count == 2, let cardinality = Relationship.Cardinality(rawValue: String(words[1])),
              let rule = DeleteRule(rawValue: String(words[2])) else { return nil }
        return Relationship(String(words[0][..<arrow.lowerBound]), to: String(target[0]), inverse: String(target[1]),
                            cardinality, ordered: ordered, deleteRule: rule)
    }
}

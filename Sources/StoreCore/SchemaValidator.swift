/// Checks a schema's declarations and names the first problem. Internal to `Schema.init`.
enum SchemaValidator {
    static let maxNameLength = 64

    static func validate(version: Int, _ entities: [EntityDescription]) throws {
        guard version >= 0 else { throw fail("schema version must be >= 0, got \(version)") }
        guard !entities.isEmpty else { throw fail("schema declares no entities") }
        var names = Set<String>()
        for e in entities {
            try checkName(e.name, what: "entity")
            guard names.insert(e.name).inserted else { throw fail("duplicate entity name '\(e.name)'") }
        }
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        for e in entities { try validate(e, all: byName) }
        try validateEmbedding(entities, all: byName)
    }

    private static func validate(_ e: EntityDescription, all: [String: EntityDescription]) throws {
        guard !e.attributes.isEmpty else { throw fail("entity '\(e.name)' declares no attributes") }
        var members = Set<String>()
        for a in e.attributes {
            try checkName(a.name, what: "attribute of '\(e.name)'")
            guard members.insert(a.name).inserted else { throw fail("duplicate name '\(e.name).\(a.name)'") }
            if let d = a.defaultValue { try checkDefault(d, of: a, in: e) }
        }
        guard let pk = e.attributes.first(where: { $0.name == e.primaryKey }) else {
            throw fail("entity '\(e.name)': primary key '\(e.primaryKey)' is not one of its attributes")
        }
        guard pk.type.canBePrimaryKey, pk.collection == nil else {
            throw fail("entity '\(e.name)': primary key '\(pk.name)' has type \(pk.typeName); use int64, uuid or string")
        }
        guard !pk.isOptional else { throw fail("entity '\(e.name)': primary key '\(pk.name)' cannot be optional") }
        for i in e.indexes {
            guard !i.attributes.isEmpty else { throw fail("entity '\(e.name)': an index names no attributes") }
            guard Set(i.attributes).count == i.attributes.count else {
                throw fail("entity '\(e.name)': index (\(i.attributes.joined(separator: ", "))) repeats an attribute")
            }
            for n in i.attributes where !e.attributes.contains(where: { $0.name == n }) {
                throw fail("entity '\(e.name)': index names unknown attribute '\(n)'")
            }
            for n in i.attributes where e.attributes.contains(where: { $0.name == n && $0.collection != nil }) {
                throw fail("entity '\(e.name)': '\(n)' is a list or map and cannot be indexed")
            }
        }
        for r in e.relationships {
            try checkName(r.name, what: "relationship of '\(e.name)'")
            guard members.insert(r.name).inserted else { throw fail("duplicate name '\(e.name).\(r.name)'") }
            guard let dest = all[r.destination] else {
                throw fail("relationship '\(e.name).\(r.name)' points to unknown entity '\(r.destination)'")
            }
            guard let inv = dest.relationships.first(where: { $0.name == r.inverse }) else {
                throw fail("relationship '\(e.name).\(r.name)': unknown inverse '\(r.destination).\(r.inverse)'")
            }
            guard inv.destination == e.name, inv.inverse == r.name else {
                throw fail("relationship '\(e.name).\(r.name)': inverse '\(r.destination).\(r.inverse)' does not point back (it names '\(inv.destination).\(inv.inverse)')")
            }
            if r.isOrdered && !r.isToMany {
                throw StoreError(.invalidSchema, "relationship '\(e.name).\(r.name)' is ordered but to-one; only a to-many can be ordered",
                                 context: "\(e.name).\(r.name)")
            }
            if dest.name == e.name && inv.name == r.name {
                throw fail("relationship '\(e.name).\(r.name)' cannot be its own inverse; declare two relationships")
            }
        }
    }

    private static func checkDefault(_ d: Value, of a: Attribute, in e: EntityDescription) throws {
        if d.isNull {
            guard a.isOptional else { throw fail("attribute '\(e.name).\(a.name)': default nil for a required attribute") }
            return
        }
        if let c = a.collection {
            let elements = d.listValue ?? d.mapValue.map { Array($0.values) }
            guard (c == .list) == (d.listValue != nil), let elements else {
                throw fail("attribute '\(e.name).\(a.name)': default \(d) is not a \(a.typeName)")
            }
            for x in elements { try checkDefault(x, of: Attribute(a.name, a.type), in: e) }
            return
        }
        guard let t = d.naturalType, t == a.type || (a.type == .double && t == .int64) else {
            throw fail("attribute '\(e.name).\(a.name)': default \(d) is not a \(a.type.rawValue)")
        }
        if case .double(let x) = d, !x.isFinite {
            throw fail("attribute '\(e.name).\(a.name)': default must be finite")
        }
    }

    private static func checkName(_ name: String, what: String) throws {
        guard !name.isEmpty else { throw fail("\(what): empty name") }
        guard name.utf8.count <= maxNameLength else { throw fail("\(what): name '\(name)' is longer than \(maxNameLength) bytes") }
        let ok = name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || $0 == "_")) || ("0"..."9").contains($0) }
        guard ok, let f = name.unicodeScalars.first, f == "_" || f.properties.isAlphabetic else {
            throw fail("\(what): name '\(name)' must start with a letter or '_' and hold only ASCII letters, digits and '_'")
        }
        guard !name.hasPrefix("sb_") else { throw fail("\(what): name '\(name)' uses the reserved prefix 'sb_'") }
    }

    static func fail(_ message: String) -> StoreError { StoreError(.invalidSchema, message) }
}

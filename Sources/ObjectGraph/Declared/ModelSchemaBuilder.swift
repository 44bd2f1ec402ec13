import StoreCore

/// Internal: the entity descriptions of declared models, inverses resolved and checked.
struct ModelSchemaBuilder {
    private let models: [any PersistentModel.Type]
    private let properties: [String: [ModelProperty]]
    private let embedded: Set<String>

    init(_ models: [any PersistentModel.Type]) {
        self.models = models
        properties = Dictionary(models.map { ($0.entityName, $0.persistentProperties) }, uniquingKeysWith: { a, _ in a })
        var embedded = Set<String>()
        for model in models where model.isEmbeddedModel { embedded.insert(model.entityName) }
        self.embedded = embedded
    }

    func descriptions() throws -> [EntityDescription] {
        guard properties.count == models.count else {
            throw StoreError(.invalidSchema, "a model type is listed twice: \(models.map { $0.entityName })")
        }
        return try models.map { try description(of: $0.entityName) }
    }

    private func description(of name: String) throws -> EntityDescription {
        var attributes: [Attribute] = []
        var indexes: [IndexDescription] = []
        var relationships: [Relationship] = []
        var keys: [String] = []
        for p in properties[name]! {
            switch p.kind {
            case .attribute(let type, let optional, let value, let options):
                attributes.append(Attribute(p.name, type, optional: optional, default: value))
                if options.contains(.primaryKey) { keys.append(p.name) }
                if options.contains(.unique), !options.contains(.primaryKey) { indexes.append(IndexDescription([p.name], unique: true)) }
                if options.contains(.indexed), !options.contains(.unique) { indexes.append(IndexDescription([p.name])) }
            case .relationship(let d, let toMany, _, let rule):
                let inverse = try self.inverse(of: p, in: name, to: d.entityName)
                relationships.append(Relationship(p.name, to: d.entityName, inverse: inverse, toMany ? .toMany : .toOne,
                                                  ordered: p.isOrdered, deleteRule: rule))
            }
        }
        return EntityDescription(name, primaryKey: try primaryKey(of: name, marked: keys, attributes),
                                 attributes: attributes, indexes: indexes, relationships: relationships,
                                 embedded: embedded.contains(name))
    }

    private func primaryKey(of name: String, marked: [String], _ attributes: [Attribute]) throws -> String {
        if marked.count > 1 {
            throw StoreError(.invalidSchema, "\(name) marks \(marked.count) attributes @Attribute(.primaryKey) (\(marked.joined(separator: ", "))); an entity has one primary key")
        }
        if let key = marked.first { return key }
        guard attributes.contains(where: { $0.name == "id" }) else {
            throw StoreError(.invalidSchema, "\(name) has no primary key: declare a property named id or mark one @Attribute(.primaryKey)")
        }
        return "id"
    }

    /// The inverse of relationship `p` of entity `source`: the one it names, else the one in
    /// the destination that names it, else the only unnamed pair between the two entities.
    private func inverse(of p: ModelProperty, in source: String, to destination: String) throws -> String {
        guard let other = properties[destination] else {
            throw StoreError(.invalidSchema, "\(source).\(p.name) leads to \(destination), which is not among the schema's models; add \(destination).self")
        }
        let back = other.filter { $0.leads(to: source) && !(destination == source && $0.name == p.name) }
        if let named = p.declaredInverse {
            guard let inv = back.first(where: { $0.name == named }) else {
                throw StoreError(.invalidSchema, "\(source).\(p.name) names the inverse \(destination).\(named), which is not a relationship to \(source)")
            }
            if let theirs = inv.declaredInverse, theirs != p.name {
                throw StoreError(.invalidSchema, "\(source).\(p.name) names the inverse \(destination).\(named), but that one names \(source).\(theirs)")
            }
            return named
        }
        let naming = back.filter { $0.declaredInverse == p.name }
        if naming.count == 1 { return naming[0].name }
        let unnamed = back.filter { $0.declaredInverse == nil }
        let ours = properties[source]!.filter { $0.leads(to: destination) && $0.declaredInverse == nil }
        if naming.isEmpty, unnamed.count == 1, ours.count == 1 { return unnamed[0].name }
        throw StoreError(.invalidSchema, "\(source).\(p.name) has no inverse: declare @Relationship(inverse: \\\(destination).<property>) on one side")
    }
}

extension ModelProperty {
    /// The inverse a relationship names, nil when none (or for an attribute).
    var declaredInverse: String? {
        if case .relationship(_, _, let inverse, _) = kind { inverse } else { nil }
    }

    func leads(to entity: String) -> Bool {
        if case .relationship(let d, _, _, _) = kind { d.entityName == entity } else { false }
    }
}

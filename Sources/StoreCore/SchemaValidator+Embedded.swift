/// The rules for embedded entities (`EntityDescription.isEmbedded`): an embedded entity is the
/// destination of exactly one owning relationship — a to-one or to-many of its owner with the
/// delete rule `cascade`, whose inverse on the embedded side is a to-one with the rule `nullify`
/// (the owner link). Nothing else leads to it, except the owner links of the embedded entities
/// it owns in turn; following owners from any embedded entity ends at a non-embedded one.
extension SchemaValidator {
    static func validateEmbedding(_ entities: [EntityDescription], all: [String: EntityDescription]) throws {
        for e in entities where e.isEmbedded {
            var owning: [String] = []
            for source in entities {
                for r in source.relationships where r.destination == e.name {
                    guard let inverse = e.relationships.first(where: { $0.name == r.inverse }) else { continue }
                    // The owner link of an embedded entity `e` owns in turn.
                    if inverse.deleteRule == .cascade, source.isEmbedded, r.deleteRule == .nullify, source.name != e.name { continue }
                    try checkOwning(r, from: source, inverse: inverse, embedded: e)
                    owning.append("\(source.name).\(r.name)")
                }
            }
            guard !owning.isEmpty else {
                throw fail("embedded entity '\(e.name)' has no owning relationship: declare a to-one or to-many from its owner with delete rule cascade")
            }
            guard owning.count == 1 else {
                throw fail("embedded entity '\(e.name)' has \(owning.count) owning relationships (\(owning.joined(separator: ", "))); it can have one owner")
            }
        }
        for e in entities where e.isEmbedded { try checkRootOwner(of: e, all: all) }
    }

    /// `source.r` leads to embedded `e`: it must be its owning relationship.
    private static func checkOwning(_ r: Relationship, from source: EntityDescription, inverse: Relationship,
                                    embedded e: EntityDescription) throws {
        let name = "relationship '\(source.name).\(r.name)' to embedded entity '\(e.name)'"
        guard source.name != e.name else { throw fail("\(name): an embedded entity cannot own records of itself") }
        guard r.deleteRule == .cascade else {
            throw fail("\(name) has delete rule \(r.deleteRule.rawValue): only its owner's relationship leads to an embedded entity, with delete rule cascade")
        }
        guard inverse.cardinality == .toOne else {
            throw fail("\(name): its inverse '\(e.name).\(inverse.name)' must be to-one (an embedded record has one owner)")
        }
        guard inverse.deleteRule == .nullify else {
            throw fail("\(name): its inverse '\(e.name).\(inverse.name)' must have delete rule nullify, not \(inverse.deleteRule.rawValue)")
        }
    }

    /// Following owners from `e` reaches a non-embedded entity (no cycle of embedded owners).
    private static func checkRootOwner(of e: EntityDescription, all: [String: EntityDescription]) throws {
        var current = e, path = [e.name]
        while current.isEmbedded {
            guard let link = current.relationships.first(where: { $0.deleteRule == .nullify }),
                  let owner = all[link.destination] else { return }
            guard !path.contains(owner.name) else {
                throw fail("embedded entity '\(e.name)' is owned in a cycle (\((path + [owner.name]).joined(separator: " → "))) and can never reach a non-embedded owner")
            }
            path.append(owner.name)
            current = owner
        }
    }
}

/// The embedded records a write transaction touched, checked for an owner when it commits.
///
/// A backend keeps one per write transaction: it notes every embedded record it inserts,
/// links or unlinks (`note`, `checkLink`, `noteUnlink`) and calls `requireOwners` just before
/// it commits. Only the touched records are looked at, never whole tables.
///
/// ```swift
/// var embedded = EmbeddedOwnership()
/// embedded.note(record.entity, record.id)                    // in insert
/// try embedded.requireOwners(in: tx)                         // before COMMIT
/// ```
public struct EmbeddedOwnership: Sendable {
    private struct Touched: Hashable, Sendable {
        let entity: String
        let id: Value
    }

    private var touched: [Touched] = []
    private var seen: Set<Touched> = []

    public init() {}

    /// Notes a record that must have an owner at commit; records of other entities are ignored.
    @inline(__always)
    public mutating func note(_ e: Entity, _ id: Value) {
        guard e.isEmbedded else { return }
        let t = Touched(entity: e.name, id: id)
        if seen.insert(t).inserted { touched.append(t) }
    }

    /// Before a link of `e` `id` through `r` to `target`: throws `constraintViolation` when it
    /// would give an embedded record a second owner, else notes the embedded records it
    /// touches (the linked one, and the one a to-one owning relationship drops).
    public mutating func checkLink(in tx: any ReadTransaction, _ e: Entity, _ id: Value, _ r: Relationship, _ target: Value) throws {
        guard let o = tx.schema.ownership(e, r) else { return }
        let (embeddedKey, ownerKey) = o.embeddedIsSource ? (id, target) : (target, id)
        let owner = try tx.schema.entity(o.ownerLink.destination)
        let owning = try owner.requireRelationship(o.ownerLink.inverse)
        if let current = try Self.keys(tx, o.embedded, embeddedKey, o.ownerLink).first, current != ownerKey {
            throw StoreError(.constraintViolation,
                             "\(o.embedded.name) \(embeddedKey) is embedded in \(owner.name) \(current); linking it to \(owner.name) \(ownerKey) through '\(owning.name)' would give it a second owner",
                             context: "\(o.embedded.name)(\(embeddedKey))")
        }
        note(o.embedded, embeddedKey)
        if !owning.isToMany {
            for old in try Self.keys(tx, owner, ownerKey, owning) where old != embeddedKey { note(o.embedded, old) }
        }
    }

    /// Before an unlink of `e` `id` through `r` from `target`: notes the embedded side.
    public mutating func noteUnlink(schema: Schema, _ e: Entity, _ id: Value, _ r: Relationship, _ target: Value) {
        guard let o = schema.ownership(e, r) else { return }
        note(o.embedded, o.embeddedIsSource ? id : target)
    }

    /// Throws `constraintViolation` naming the first touched embedded record that still exists
    /// and has no owner. The backend calls it before committing; the commit then does not happen.
    public func requireOwners(in tx: any ReadTransaction) throws {
        for t in touched {
            guard let e = tx.schema[t.entity], let link = e.ownerLink, try tx.fetch(e.name, id: t.id) != nil else { continue }
            if try Self.keys(tx, e, t.id, link).isEmpty {
                throw StoreError(.constraintViolation,
                                 "embedded \(e.name) \(t.id) has no owner when the transaction commits: link it through '\(link.destination).\(link.inverse)' or delete it; nothing was written",
                                 context: "\(e.name)(\(t.id))")
            }
        }
    }

    private static func keys(_ tx: any ReadTransaction, _ e: Entity, _ id: Value, _ r: Relationship) throws -> [Value] {
        try tx.related(e.name, id: id, via: r.name).map(\.id)
    }
}

import StoreCore

extension ObjectContext {
    /// Refuses a link that would give an embedded object a second owner (`constraintViolation`,
    /// nothing changed): `ownerOfA`/`ownerOfB` are the current partners of `a` through `r` and
    /// of `b` through its inverse, read by `link` before it edits anything.
    func checkSecondOwner(_ a: ManagedObject, _ r: RelationshipInfo, _ b: ManagedObject,
                          ownerOfA: Value?, ownerOfB: Value?) throws {
        guard let o = schema.ownership(a.entity, r.relationship) else { return }
        let (embedded, owner, current) = o.embeddedIsSource ? (a, b, ownerOfA) : (b, a, ownerOfB)
        guard let current, current != owner.id else { return }
        throw StoreError(.constraintViolation,
                         "\(embedded.objectID) is embedded in \(owner.entity.name) \(current); linking it to \(owner.objectID) would give it a second owner",
                         context: "\(embedded.objectID)")
    }
}

extension Entity {
    /// For an embedded entity, its to-one relationship back to its owner (the inverse of the
    /// owning relationship; the schema validator makes it the only one with delete rule
    /// `nullify`); `nil` for other entities.
    public var ownerLink: Relationship? {
        isEmbedded ? relationships.first { $0.deleteRule == .nullify } : nil
    }
}

extension Schema {
    /// How a link through `r` from a record of `e` touches ownership: the embedded entity, its
    /// owner link and whether the record of `e` is the embedded side; `nil` when `r` is neither
    /// an owning relationship nor an owner link.
    public func ownership(_ e: Entity, _ r: Relationship) -> (embedded: Entity, ownerLink: Relationship, embeddedIsSource: Bool)? {
        if let link = e.ownerLink, link.name == r.name { return (e, link, true) }
        guard r.deleteRule == .cascade, let d = self[r.destination], let link = d.ownerLink, link.name == r.inverse else { return nil }
        return (d, link, false)
    }
}

import StoreCore

extension SQLSchemaMapping {
    /// The text of `related(_:_:)`: a foreign key read through its index, or a join table's
    /// primary key `(src, dst)` joined to the destination and ordered by `dst`.
    /// `select` is the destination's own `SELECT … FROM` (`EntitySQL.select`).
    static func relatedText(_ e: Entity, _ r: Relationship, _ d: Entity, select: String, links: SQLLinkStorage) -> String {
        let dpk = q(d.primaryKey.name)
        switch links {
        case .foreignKey(_, let column, true):
            return "\(select) WHERE \(dpk) = (SELECT \(q(column)) FROM \(q(e.name)) WHERE \(q(e.primaryKey.name)) = ?)"
        case .foreignKey(_, let column, false):
            return "\(select) WHERE \(q(column)) = ? ORDER BY \(dpk)"
        case .joinTable(let table, let src, let dst):
            let cols = d.attributes.map { "t.\(q($0.name))" }.joined(separator: ", ")
            return "SELECT \(cols) FROM \(q(table)) j JOIN \(q(d.name)) t ON t.\(dpk) = j.\(q(dst)) WHERE j.\(q(src)) = ? ORDER BY j.\(q(dst))"
        }
    }
}

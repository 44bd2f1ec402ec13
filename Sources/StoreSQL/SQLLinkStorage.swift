import StoreCore

/// Where the links of one relationship live, seen from its source entity.
///
/// - to-one whose inverse is to-many: a foreign-key column on the source table;
/// - to-many whose inverse is to-one: the inverse's foreign-key column on the destination;
/// - one-to-one: a foreign-key column on the side whose `(entity, relationship)` name sorts first;
/// - many-to-many: a join table named after the side that sorts first, `src`/`dst` columns.
public enum SQLLinkStorage: Sendable {
    /// `holder` has a column `column` holding the key of the other side. `holderIsSource`
    /// says whether the holder is this relationship's source entity.
    case foreignKey(holder: Entity, column: String, holderIsSource: Bool)
    /// A join table; `sourceColumn` holds this side's keys.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String)

    public init(source: Entity, relationship r: Relationship, schema: Schema) {
        let (dest, inv) = schema.inverse(of: r)
        let sourceOwns = (source.name, r.name) < (dest.name, inv.name)
        switch (r.cardinality, inv.cardinality) {
        case (.toOne, .toMany):
            self = .foreignKey(holder: source, column: r.name, holderIsSource: true)
        case (.toMany, .toOne):
            self = .foreignKey(holder: dest, column: inv.name, holderIsSource: false)
        case (.toOne, .toOne):
            self = sourceOwns ? .foreignKey(holder: source, column: r.name, holderIsSource: true)
                : .foreignKey(holder: dest, column: inv.name, holderIsSource: false)
        case (.toMany, .toMany):
            let table = sourceOwns ? "sb_j_\(source.name)_\(r.name)" : "sb_j_\(dest.name)_\(inv.name)"
            self = sourceOwns ? .joinTable(table: table, sourceColumn: "src", destinationColumn: "dst")
                : .joinTable(table: table, sourceColumn: "dst", destinationColumn: "src")
        }
    }
}

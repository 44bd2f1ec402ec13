import StoreCore

/// Where the order of one ordered to-many relationship lives in SQL: a position column beside
/// its links, dense from 0 per owner.
///
/// - one-to-many: `sb_pos_<fk>` on the destination table, beside the foreign key `<fk>` that
///   names the owner (so `related` reads the owner's rows through the foreign-key index and
///   sorts those few by position);
/// - many-to-many: `sb_pos_src` / `sb_pos_dst` in the join table, for the side whose keys are
///   in `src` / `dst` (a join row carries the position of each ordered side).
///
/// A row whose owner column is NULL carries no meaningful position.
public struct SQLOrderedList: Sendable, Hashable {
    /// The table holding the links.
    public let table: String
    /// The column naming the list's owner.
    public let ownerColumn: String
    /// The column naming the member (the destination's key).
    public let memberColumn: String
    /// The position column.
    public let positionColumn: String
    /// A one-to-many list (the owner in a foreign key of the member's row): a member has one
    /// owner at most, and linking it elsewhere takes it out of its previous owner's list.
    public let isForeignKey: Bool

    /// The position column for links whose owner is in `ownerColumn`.
    public static func positionColumn(for ownerColumn: String) -> String { "sb_pos_\(ownerColumn)" }

    /// Numbers every owner's links 0, 1, … by member key: the order a list gets when a
    /// migration makes an existing relationship ordered.
    static func numberingByKey(table: String, ownerColumn: String, memberColumn: String) -> String {
        let t = q(table), owner = q(ownerColumn), member = q(memberColumn)
        return "UPDATE \(t) SET \(q(positionColumn(for: ownerColumn))) = (SELECT COUNT(*) FROM \(t) AS o WHERE o.\(owner) = \(t).\(owner) AND o.\(member) < \(t).\(member)) WHERE \(owner) IS NOT NULL"
    }

    /// The list of relationship `r` of `e`, or `nil` when `r` is not ordered.
    public init?(_ e: Entity, _ r: Relationship, storage: SQLLinkStorage) {
        guard r.isOrdered else { return nil }
        switch storage {
        case .foreignKey(let holder, let column, false):
            self.init(table: holder.name, ownerColumn: column, memberColumn: holder.primaryKey.name, isForeignKey: true)
        case .joinTable(let table, let source, let destination):
            self.init(table: table, ownerColumn: source, memberColumn: destination, isForeignKey: false)
        case .foreignKey(_, _, true):
            return nil
        }
    }

    private init(table: String, ownerColumn: String, memberColumn: String, isForeignKey: Bool) {
        self.table = table
        self.ownerColumn = ownerColumn
        self.memberColumn = memberColumn
        self.isForeignKey = isForeignKey
        self.positionColumn = Self.positionColumn(for: ownerColumn)
    }
}

extension SQLSchemaMapping {
    /// The ordered list of relationship `r` of `e`, or `nil` when it is not ordered.
    public func orderedList(_ e: Entity, _ r: Relationship) -> SQLOrderedList? {
        SQLOrderedList(e, r, storage: links(e, r))
    }

    /// Every ordered list of the schema.
    public var orderedLists: [(entity: Entity, relationship: Relationship, list: SQLOrderedList)] {
        schema.entities.flatMap { e in e.relationships.compactMap { r in orderedList(e, r).map { (e, r, $0) } } }
    }

    /// The position columns of `e`'s table (one-to-many lists whose members are `e`'s records).
    func positionColumns(_ e: Entity) -> [String] {
        foreignKeyColumns(e).filter { schema.inverse(of: $0.relationship).relationship.isOrdered }
            .map { SQLOrderedList.positionColumn(for: $0.column) }
    }

    /// The position columns `e`'s table has in this mapping and `source`'s in `old`: what a
    /// rebuilt table copies beside its foreign keys.
    func keptPositionColumns(_ e: Entity, from old: SQLSchemaMapping, _ source: Entity) -> [String] {
        let before = Set(old.positionColumns(source))
        return positionColumns(e).filter(before.contains)
    }

    /// The position columns a join table created from side `e.r` (its `src` side) carries.
    func joinPositionColumns(_ e: Entity, _ r: Relationship) -> [String] {
        var columns: [String] = []
        if r.isOrdered { columns.append(SQLOrderedList.positionColumn(for: "src")) }
        if schema.inverse(of: r).relationship.isOrdered { columns.append(SQLOrderedList.positionColumn(for: "dst")) }
        return columns
    }
}

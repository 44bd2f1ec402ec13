import StoreCore

/// The position columns of join tables through a migration (`SQLOrderedList`): kept when the
/// ordered side stays ordered, numbered by key when a side becomes ordered, dropped when it
/// no longer is.
extension SQLMigration {
    /// The position columns among a stored table's columns (`name TYPE notnull pk`).
    static func positionColumns(_ table: SQLSchemaMapping.SchemaObject?) -> Set<String> {
        let prefix = SQLOrderedList.positionColumn(for: "")
        return Set((table?.columns ?? []).compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0.hasPrefix(prefix) })
    }

    /// A rebuilt table's position columns its source lacked (a relationship made ordered),
    /// numbered by member key.
    func numberNewPositions(_ s: MigrationStage.EntityStep) throws {
        let e = s.entity, kept = Set(new.keptPositionColumns(e, from: old, s.source!))
        for (column, r) in new.foreignKeyColumns(e) where new.schema.inverse(of: r).relationship.isOrdered {
            guard !kept.contains(SQLOrderedList.positionColumn(for: column)) else { continue }
            try exec(SQLOrderedList.numberingByKey(table: e.name, ownerColumn: column, memberColumn: e.primaryKey.name))
        }
    }

    /// A join table kept as it was (maybe renamed): adds and numbers the position columns it
    /// lacks, drops those it no longer needs.
    func matchJoinPositions(_ table: String, had: Set<String>, needs: [String]) throws {
        for column in had where !needs.contains(column) { try exec("ALTER TABLE \(q(table)) DROP COLUMN \(q(column))") }
        for column in needs where !had.contains(column) {
            try exec("ALTER TABLE \(q(table)) ADD COLUMN \(q(column)) INTEGER")
            let owner = column == SQLOrderedList.positionColumn(for: "src") ? "src" : "dst"
            try exec(SQLOrderedList.numberingByKey(table: table, ownerColumn: owner, memberColumn: owner == "src" ? "dst" : "src"))
        }
    }

    /// A join table turned around: `src` and `dst` swap, and so do their position columns.
    func copyTurnedAround(_ oldTable: String, into table: String, had: Set<String>, needs: [String]) throws {
        func swapped(_ column: String) -> String {
            column == SQLOrderedList.positionColumn(for: "src") ? SQLOrderedList.positionColumn(for: "dst") : SQLOrderedList.positionColumn(for: "src")
        }
        let copied = needs.filter { had.contains(swapped($0)) }
        let columns = ["\"src\"", "\"dst\""] + copied.map(q), values = ["\"dst\"", "\"src\""] + copied.map { q(swapped($0)) }
        try exec("INSERT INTO \(q(table)) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(q(oldTable))")
        for column in needs where !copied.contains(column) {
            let owner = column == SQLOrderedList.positionColumn(for: "src") ? "src" : "dst"
            try exec(SQLOrderedList.numberingByKey(table: table, ownerColumn: owner, memberColumn: owner == "src" ? "dst" : "src"))
        }
    }
}

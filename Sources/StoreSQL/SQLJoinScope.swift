import StoreCore

/// The FROM clause of one statement being compiled: its root table, the `LEFT JOIN`s its
/// to-one key paths add (one per path prefix, shared by every condition and sort key that
/// crosses it), and the join table that may drive it (`SQLDrivingJoin`).
///
/// A to-one step joins at most one row, so a join never repeats a root row, and a missing link
/// reads as NULL, as the path's value is then. Where a condition of the whole WHERE clause is
/// false for a missing link, the join is an inner one, and SQLite picks the order of the tables
/// from their indexes: `post.author.username == ?` starts from the users' `username` index.
struct SQLJoinScope {
    let entity: Entity
    let alias: String
    /// The join table the statement starts from, when one condition picks its rows.
    var drive: SQLDrivingJoin?
    /// The path prefixes joined with an inner join: those a top-level condition false for a
    /// missing link crosses (`author.username == ?`), so SQLite may start from their table.
    var innerJoins: Set<String> = []
    private var joins: [(key: String, alias: String, sql: String)] = []

    init(_ entity: Entity, alias: String) {
        self.entity = entity
        self.alias = alias
    }

    /// The root's primary key: the driving join's column where there is one (equal on every
    /// row, and SQLite orders by it from the join table's index).
    var primaryKey: String { drive?.rootKey ?? "\(alias).\(q(entity.primaryKey.name))" }

    /// The alias of the join for a path prefix, when one was added.
    func alias(of key: String) -> String? { joins.first { $0.key == key }?.alias }

    /// The key of the path prefix `steps` (`/post/author`).
    static func key(_ steps: ArraySlice<PathStep>) -> String { steps.map { "/" + $0.relationship.name }.joined() }

    mutating func add(_ key: String, alias: String, sql: String) { joins.append((key, alias, sql)) }

    /// `FROM …`: the driving join table and the root, or the root alone, then the joins.
    var from: String {
        let root = "\(q(entity.name)) \(alias)"
        let start = drive.map { "\(q($0.table)) \($0.alias) JOIN \(root) ON \(alias).\(q(entity.primaryKey.name)) = \($0.rootKey)" } ?? root
        return "FROM " + ([start] + joins.map(\.sql)).joined(separator: " ")
    }
}

/// A many-to-many condition that picks the root's rows by one linked key, `ANY tags.name == ?`
/// on `Post`: the statement starts from the join table's index on that key, which holds at most
/// one row per root record (the pair is the join table's primary key) and yields the root's keys
/// in order, so a sort by key with a limit stops after the page.
struct SQLDrivingJoin {
    let table: String
    let alias: String
    /// The join table's column holding the root's keys.
    let sourceColumn: String
    /// The join table's column holding the linked keys.
    let destinationColumn: String

    var rootKey: String { "\(alias).\(q(sourceColumn))" }
    var linkedKey: String { "\(alias).\(q(destinationColumn))" }
}

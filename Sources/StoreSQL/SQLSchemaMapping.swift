import StoreCore

/// Quotes an identifier for SQL. Schema names are validated to `[A-Za-z_][A-Za-z0-9_]*`.
/// Internal helper.
@inline(__always) func q(_ name: String) -> String { "\"\(name)\"" }

/// The SQL shape of a schema in SQLite's dialect: tables, columns, where each relationship's
/// links live, the DDL and the fixed statements of each entity. Built once per store;
/// immutable.
///
/// ```swift
/// let mapping = SQLSchemaMapping(schema: schema)
/// for sql in mapping.ddl() { try db.execute(sql) }
/// let byID = mapping.sql(user).selectByID     // SELECT … FROM "User" WHERE "id" = ?
/// ```
///
/// Threading: `Sendable`, immutable.
public final class SQLSchemaMapping: Sendable {
    /// The fixed statements of one entity.
    public struct EntitySQL: Sendable {
        /// `SELECT <every attribute> FROM T` (no WHERE).
        public let select: String
        public let selectByID: SQLStatement
        public let insert: SQLStatement
        public let upsert: SQLStatement
        public let deleteByID: SQLStatement
        public let existsByID: SQLStatement
        let links: [String: SQLLinkStorage]
    }

    /// How many fixed statements carry a slot (`SQLStatement.slot` is below this).
    public let slotCount: Int
    public let schema: Schema
    private let entitySQL: [EntitySQL]
    /// Per entity, per relationship (in the entity's order): the statement of `related`.
    private let relatedSQL: [[SQLStatement]]
    /// Per entity: its attributes' names quoted, in attribute order.
    private let quotedNames: [[String]]
    /// Per entity: `t0."a", t0."b", …` and the same on `s0` (the compiler's select lists).
    private let selectLists: [(t0: String, s0: String)]
    /// The queries compiled on this schema, by shape.
    let queryCache = SQLQueryCache()

    /// `slotted: false` gives the fixed statements no slot, for a mapping used beside the
    /// store's own on one connection (a migration's old and new schemas): a driver caching by
    /// slot would otherwise mix their statements up.
    public init(schema: Schema, slotted: Bool = true) {
        self.schema = schema
        let entitySQL = schema.entities.map { Self.makeSQL($0, schema: schema, slotted: slotted) }
        self.entitySQL = entitySQL
        var next = schema.entities.count * Self.statementsPerEntity
        relatedSQL = schema.entities.map { e in
            e.relationships.map { r in
                defer { next += 1 }
                let d = schema[r.destination]!
                let text = Self.relatedText(e, r, d, select: entitySQL[d.index].select, links: entitySQL[e.index].links[r.name]!)
                return SQLStatement(text, slot: slotted ? next : nil)
            }
        }
        slotCount = slotted ? next : 0
        quotedNames = schema.entities.map { $0.attributes.map { q($0.name) } }
        selectLists = quotedNames.map { names in
            (names.map { "t0." + $0 }.joined(separator: ", "), names.map { "s0." + $0 }.joined(separator: ", "))
        }
    }

    /// Attribute `ordinal` of `e`, quoted.
    @inline(__always) public func quoted(_ e: Entity, _ ordinal: Int) -> String { quotedNames[e.index][ordinal] }

    /// Every attribute of `e` on the alias `t0` or `s0`, in attribute order; nil for another alias.
    public func selectList(_ e: Entity, alias: String) -> String? {
        alias == "t0" ? selectLists[e.index].t0 : alias == "s0" ? selectLists[e.index].s0 : nil
    }

    /// The statement reading the records linked to one record (bound to `?`) through `r`, in key
    /// order (`ReadTransaction.related` of an unordered relationship).
    public func related(_ e: Entity, _ r: Relationship) -> SQLStatement {
        relatedSQL[e.index][e.relationships.firstIndex { $0.name == r.name }!]
    }

    /// `UPDATE T SET a = ?1, …, sb_sum = sb_row_sum_replace(sb_sum, ordinal, "a", ?1, …)`: the
    /// changed attributes numbered ?1…?m in the order of `ordinals`, and the checksum's terms
    /// of those columns swapped, old value for new, without reading the other columns. Plain
    /// `?` placeholders after it take the numbers from m + 1.
    public func update(_ e: Entity, setting ordinals: [Int]) -> String {
        // Built once per entity and set of columns: a partial update runs this per call.
        if let known = updates.withLock({ $0[UpdateKey(entity: e.index, ordinals: ordinals)] }) { return known }
        let sql = makeUpdate(e, ordinals)
        updates.withLock { $0[UpdateKey(entity: e.index, ordinals: ordinals)] = sql }
        return sql
    }

    private struct UpdateKey: Hashable {
        let entity: Int
        let ordinals: [Int]
    }

    private let updates = Locked<[UpdateKey: String]>([:])

    private func makeUpdate(_ e: Entity, _ ordinals: [Int]) -> String {
        let sets = ordinals.enumerated().map { "\(q(e.attributes[$0.element].name)) = ?\($0.offset + 1)" }
        let sum = q(SQLFunctions.checksumColumn)
        // At most 42 columns per call (127 arguments); more chain.
        var expression = sum
        for chunk in stride(from: 0, to: ordinals.count, by: 42) {
            let terms = ordinals.enumerated().dropFirst(chunk).prefix(42).map { "\($0.element), \(q(e.attributes[$0.element].name)), ?\($0.offset + 1)" }
            expression = "\(SQLFunctions.rowChecksumReplace)(\(expression), \(terms.joined(separator: ", ")))"
        }
        return "UPDATE \(q(e.name)) SET \(sets.joined(separator: ", ")), \(sum) = \(expression)"
    }

    /// The checksum of values given as SQL expressions in attribute order:
    /// `sb_row_sum(0, a, b, …)`. SQLite takes at most 127 arguments per call, so longer rows
    /// add runs of 100: `sb_row_sum_add(sb_row_sum(0, a1…a100), sb_row_sum(100, a101…))`.
    /// `verify` and migrations that copy in SQL use this expression; the fixed inserts bind
    /// the same sum computed in Swift (`SQLRowChecksum`).
    public static func checksum(_ arguments: [String]) -> String {
        var expression: String?
        for first in stride(from: 0, to: arguments.count, by: 100) {
            let run = "\(SQLFunctions.rowChecksum)(\(([String(first)] + arguments.dropFirst(first).prefix(100)).joined(separator: ", ")))"
            expression = expression.map { "\(SQLFunctions.rowChecksumAdd)(\($0), \(run))" } ?? run
        }
        return expression ?? "\(SQLFunctions.rowChecksum)(0)"
    }

    /// The fixed statements of an entity of this schema.
    @inline(__always) public func sql(_ e: Entity) -> EntitySQL { entitySQL[e.index] }

    /// Where the links of relationship `r` of entity `e` are stored.
    public func links(_ e: Entity, _ r: Relationship) -> SQLLinkStorage { entitySQL[e.index].links[r.name]! }

    private static let statementsPerEntity = 5

    private static func makeSQL(_ e: Entity, schema: Schema, slotted: Bool) -> EntitySQL {
        func fixed(_ k: Int, _ text: String) -> SQLStatement {
            SQLStatement(text, slot: slotted ? e.index * statementsPerEntity + k : nil)
        }
        let cols = e.attributes.map { q($0.name) }.joined(separator: ", ")
        let pk = q(e.primaryKey.name)
        let t = q(e.name)
        // ?1…?n in attribute order, then their checksum, computed by the caller
        // (`SQLRowChecksum.sum`, equal to `SQLFunctions.rowChecksum` of them).
        let numbered = (1...e.attributes.count + 1).map { "?\($0)" }.joined(separator: ", ")
        let sum = q(SQLFunctions.checksumColumn)
        let values = "VALUES (\(numbered))"
        let nonKey = e.attributes.enumerated().filter { $0.offset != e.primaryKeyOrdinal }.map { q($0.element.name) } + [sum]
        let upsertTail = "DO UPDATE SET " + nonKey.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        var links: [String: SQLLinkStorage] = [:]
        for r in e.relationships { links[r.name] = SQLLinkStorage(source: e, relationship: r, schema: schema) }
        return EntitySQL(
            select: "SELECT \(cols) FROM \(t)",
            selectByID: fixed(0, "SELECT \(cols) FROM \(t) WHERE \(pk) = ?"),
            insert: fixed(1, "INSERT INTO \(t) (\(cols), \(sum)) \(values)"),
            upsert: fixed(2, "INSERT INTO \(t) (\(cols), \(sum)) \(values) ON CONFLICT(\(pk)) \(upsertTail)"),
            deleteByID: fixed(3, "DELETE FROM \(t) WHERE \(pk) = ?"),
            existsByID: fixed(4, "SELECT 1 FROM \(t) WHERE \(pk) = ?"),
            links: links)
    }

    /// The SQLite column type of an attribute type.
    public static func columnType(_ t: AttributeType) -> String {
        switch t {
        case .int64, .bool: "INTEGER"
        case .double, .date: "REAL"
        case .string: "TEXT"
        case .uuid, .bytes: "BLOB"
        }
    }

    /// The statements that create every table and index of the schema.
    public func ddl() -> [String] { objects().map(\.sql) }

    /// One table or index of the schema and the statement that creates it.
    public struct SchemaObject: Sendable, Hashable {
        public enum Kind: Sendable, Hashable { case table, index }
        public let kind: Kind
        public let name: String
        /// The table (for an index, the table it is on).
        public let table: String
        public let sql: String
        /// A table's columns as `PRAGMA table_info` shows them: `name TYPE notnull pk`, sorted
        /// (a table grown by `ALTER TABLE` keeps its columns in another order).
        public var columns: [String] = []
    }

    /// Every table and index of the schema, tables before their indexes.
    public func objects() -> [SchemaObject] {
        var out: [SchemaObject] = []
        func table(_ name: String, _ sql: String, _ columns: [String]) {
            out.append(SchemaObject(kind: .table, name: name, table: name, sql: sql, columns: columns.sorted()))
        }
        func index(_ name: String, on table: String, unique: Bool, _ columns: [String]) {
            out.append(SchemaObject(kind: .index, name: name, table: table,
                                    sql: "CREATE \(unique ? "UNIQUE " : "")INDEX \(q(name)) ON \(q(table)) (\(columns.map(q).joined(separator: ", ")))"))
        }
        var joinTables = Set<String>()
        for e in schema.entities {
            var cols: [String] = [], info: [String] = []
            for (i, a) in e.attributes.enumerated() {
                var c = "\(q(a.name)) \(Self.columnType(a.storageType))"
                if i == e.primaryKeyOrdinal { c += " PRIMARY KEY" }
                if !a.isOptional { c += " NOT NULL" }
                cols.append(c)
                // WITHOUT ROWID tables make their primary key NOT NULL; rowid tables do not.
                let notNull = !a.isOptional || (i == e.primaryKeyOrdinal && e.primaryKey.type != .int64)
                info.append("\(a.name) \(Self.columnType(a.storageType)) \(notNull ? 1 : 0) \(i == e.primaryKeyOrdinal ? 1 : 0)")
            }
            // Foreign-key columns this entity holds, and their indexes after the table.
            var fkIndexes: [(String, Bool, String)] = []
            for (column, r) in foreignKeyColumns(e) {
                cols.append("\(q(column)) \(Self.columnType(schema[r.destination]!.primaryKey.type))")
                info.append("\(column) \(Self.columnType(schema[r.destination]!.primaryKey.type)) 0 0")
                fkIndexes.append((Self.foreignKeyIndexName(e.name, column), schema.inverse(of: r).relationship.cardinality == .toOne, column))
                if schema.inverse(of: r).relationship.isOrdered {   // the owner's list order (SQLOrderedList)
                    cols.append("\(q(SQLOrderedList.positionColumn(for: column))) INTEGER")
                    info.append("\(SQLOrderedList.positionColumn(for: column)) INTEGER 0 0")
                }
            }
            cols.append("\(q(SQLFunctions.checksumColumn)) INTEGER")
            info.append("\(SQLFunctions.checksumColumn) INTEGER 0 0")
            let rowid = e.primaryKey.type == .int64 ? "" : " WITHOUT ROWID"
            table(e.name, "CREATE TABLE \(q(e.name)) (\(cols.joined(separator: ", ")))\(rowid)", info)
            for i in e.indexes { index(i.name(in: e.name), on: e.name, unique: i.isUnique, i.attributes) }
            for (name, unique, column) in fkIndexes { index(name, on: e.name, unique: unique, [column]) }
            for r in e.relationships {
                guard case .joinTable(let t, "src", "dst") = links(e, r), joinTables.insert(t).inserted else { continue }
                let srcType = Self.columnType(e.primaryKey.type)
                let dstType = Self.columnType(schema[r.destination]!.primaryKey.type)
                let positions = joinPositionColumns(e, r)
                table(t, "CREATE TABLE \(q(t)) (\"src\" \(srcType) NOT NULL, \"dst\" \(dstType) NOT NULL\(positions.map { ", \(q($0)) INTEGER" }.joined()), PRIMARY KEY (\"src\", \"dst\")) WITHOUT ROWID",
                      ["src \(srcType) 1 1", "dst \(dstType) 1 1"] + positions.map { "\($0) INTEGER 0 0" })
                index(t + "_dst", on: t, unique: false, ["dst", "src"])
            }
        }
        return out
    }

    /// The name of the index on the foreign-key column `column` of `table`.
    static func foreignKeyIndexName(_ table: String, _ column: String) -> String { "sb_fk_\(table)_\(column)" }

    /// The foreign-key columns `e`'s table holds, each with the relationship whose links it stores.
    public func foreignKeyColumns(_ e: Entity) -> [(column: String, relationship: Relationship)] {
        e.relationships.compactMap { r in
            if case .foreignKey(let holder, let column, true) = links(e, r), holder == e { return (column, r) }
            return nil
        }
    }
}

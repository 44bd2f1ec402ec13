import CSQLite
import StoreCore
import StoreSQL

extension SQLiteStore: QueryExplaining {
    /// SQLite's `EXPLAIN QUERY PLAN` for the SQL a query compiles to, preceded by the SQL.
    public func explain(_ query: Query) throws -> String {
        try read { tx in try Self.explain(query, on: (tx as! SQLTransaction).db as! SQLiteConnection, mapping: mapping) }
    }

    private static func explain(_ query: Query, on db: SQLiteConnection, mapping: SQLSchemaMapping) throws -> String {
        let rq = try mapping.schema.resolve(query)
        var c = SQLQueryCompiler(mapping: mapping)
        let sql = c.select(rq)
        let s = try db.statement("EXPLAIN QUERY PLAN " + sql)
        var lines = [sql]
        try s.run(c.bindings) {
            while try s.step() {
                lines.append("  " + String(cString: sqlite3_column_text(s.handle, 3)))
            }
        }
        return lines.joined(separator: "\n")
    }
}

import CSQLite
import StoreCore

extension SQLiteStore: QueryExplaining {
    /// SQLite's `EXPLAIN QUERY PLAN` for the SQL a query compiles to, preceded by the SQL.
    public func explain(_ query: Query) throws -> String {
        try read { tx in try (tx as! SQLiteTransaction).explain(query) }
    }
}

extension SQLiteTransaction {
    func explain(_ query: Query) throws -> String {
        let rq = try schema.resolve(query)
        var c = SQLiteQueryCompiler(mapping: mapping)
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

import StoreCore
import StoreSQL

extension SQLiteStore: QueryExplaining {
    /// The SQL a query compiles to, then SQLite's `EXPLAIN QUERY PLAN` for it (`SQLTransaction.explain`).
    public func explain(_ query: Query) throws -> String {
        try read { tx in try (tx as! SQLTransaction).explain(query) }
    }
}

import StoreCore
import StoreSQL

extension GRDBStore: QueryExplaining {
    /// The SQL a query compiles to, then SQLite's `EXPLAIN QUERY PLAN` for it, read through GRDB
    /// (`SQLTransaction.explain`).
    public func explain(_ query: Query) throws -> String {
        try read { tx in try (tx as! SQLTransaction).explain(query) }
    }
}

import StoreCore

extension LMDBStore: QueryExplaining {
    /// The planner's plan for a query (see `LMDBQueryPlan`).
    public func explain(_ query: Query) throws -> String { try plan(query).description }
}

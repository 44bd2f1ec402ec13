import StoreCore

extension ObjectGraph: QueryExplaining {
    /// The store's plan, under a line saying what the graph adds: a context runs the query on
    /// its store (merging its unsaved changes, when it has any, in memory) and turns each row into
    /// its object through the identity map.
    public func explain(_ query: Query) throws -> String {
        guard let explaining = store as? any QueryExplaining else { throw StoreError(.unsupported, "the graph's store explains no query plans") }
        let plan = try explaining.explain(query)
        return "the store's query; each row becomes the context's object (identity map)\n" + plan
    }
}

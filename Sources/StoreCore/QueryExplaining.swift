/// A repository that can say how it runs a query: which index or scan, what it filters, where
/// the order comes from. Backends adopt it optionally; `storebench explain` uses it.
///
/// ```swift
/// if let e = repo as? any QueryExplaining { print(try e.explain(Query("User", where: "age" > 30))) }
/// ```
public protocol QueryExplaining: Repository {
    /// A human-readable plan, one step per line.
    func explain(_ query: Query) throws -> String
}

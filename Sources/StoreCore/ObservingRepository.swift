/// A repository whose query results can be watched from a thread while other threads commit
/// (capability `observation`): how a UI keeps a list on screen up to date.
///
/// ```swift
/// let watched = try repo.observeResults(Query("User", predicate: "id <= 100", sort: [.asc("id")]))
/// // On the watching thread:
/// while let change = try watched.waitForChange(timeout: 1) {
///     for i in change.modificationsInNew { _ = try watched.value("bio", at: i) }
/// }
/// ```
///
/// Threading: `observeResults` and every call of the observation it returns belong to the
/// thread that called `observeResults`; commits may come from any thread.
public protocol ObservingRepository: Repository {
    /// Starts watching `query`'s results on the calling thread.
    func observeResults(_ query: Query) throws -> any ResultsObservation
}

/// Watched query results (see `ObservingRepository`). Stops when released or cancelled.
public protocol ResultsObservation: AnyObject {
    /// How many records the results hold now.
    var count: Int { get }

    /// Blocks until commits of other threads changed the results, brings the results up to
    /// date and returns how they changed; `nil` when `timeout` seconds passed without a change.
    /// Commits that leave the results as they were wake it but are not returned.
    func waitForChange(timeout: Double) throws -> CollectionChange?

    /// An attribute of the record at `index` of the current results, as the watching thread
    /// sees it.
    func value(_ attribute: String, at index: Int) throws -> Value

    /// Stops watching. Idempotent.
    func cancel()
}

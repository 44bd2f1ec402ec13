/// The migrations of this process, by store location: which stores are being migrated now and
/// the version each migrated store reached. A backend runs its migration inside
/// `run(at:to:_:)`; a layer that holds a store open (an object graph's contexts) calls
/// `check(_:version:)` before each use, so it refuses a store mid-migration and a store that
/// another open has since migrated past its schema, instead of reading or writing it with the
/// wrong shape.
///
/// ```swift
/// try StoreMigrations.run(at: path, to: schema.version) { try migrate() }
/// try StoreMigrations.check(path, version: schema.version)   // busy while it runs
/// ```
///
/// Threading: safe from any thread. Other processes are not seen here: their migrations are
/// serialized by the engine's write lock and are atomic.
public enum StoreMigrations {
    private struct State {
        var running: Set<String> = []
        var reached: [String: Int] = [:]
    }

    private static let state = Locked(State())

    /// Runs `body` (a migration of the store at `location` to `version`) with the store marked
    /// as migrating; when it returns, records `version` as the store's.
    public static func run<T>(at location: String, to version: Int, _ body: () throws -> T) throws -> T {
        try state.withLock { s in
            guard s.running.insert(location).inserted else {
                throw StoreError(.busy, "\(location) is being migrated by another open in this process")
            }
        }
        defer { state.withLock { _ = $0.running.remove(location) } }
        let result = try body()
        state.withLock { $0.reached[location] = version }
        return result
    }

    /// Throws `busy` while the store at `location` is being migrated in this process, and
    /// `schemaMismatch` when it was migrated past `version` since it was opened with it.
    public static func check(_ location: String, version: Int) throws {
        // The common case, no migration in this process, hashes nothing.
        let (running, reached) = state.withLock { s -> (Bool, Int?) in
            if s.running.isEmpty && s.reached.isEmpty { return (false, nil) }
            return (s.running.contains(location), s.reached[location])
        }
        if running { throw StoreError(.busy, "\(location) is being migrated; it can be used when the migration has finished") }
        if let reached, reached > version {
            throw StoreError(.schemaMismatch, "\(location) was migrated to schema version \(reached) while open with version \(version); open it again with the new schema")
        }
    }
}

/// A repository that can say where its store lives (a file or a directory): what
/// `StoreMigrations` keys stores by.
public protocol StoreLocating {
    /// The store's file or directory, as the backend opened it (standardized).
    var storeLocation: String { get }
}

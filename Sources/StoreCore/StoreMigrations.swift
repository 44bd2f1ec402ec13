/// The migrations of this process, by store location: which stores are being migrated now and
/// how many migrations of each have completed. A backend runs its migration inside
/// `run(at:to:_:)` and records `generation(of:)` when its open is done; a layer that holds a
/// store open (an object graph's contexts) calls `check(_:openedAt:version:)` before each use,
/// so it refuses a store mid-migration and a store that another open has migrated since this
/// one opened it, instead of reading or writing it with the wrong shape. A store deleted and
/// created again is not refused: only migrations after its open count.
///
/// ```swift
/// try StoreMigrations.run(at: path, to: schema.version) { try migrate() }
/// let opened = StoreMigrations.generation(of: path)
/// try StoreMigrations.check(path, openedAt: opened, version: schema.version)   // busy while one runs
/// ```
///
/// Threading: safe from any thread. Other processes are not seen here: their migrations are
/// serialized by the engine's write lock and are atomic.
public enum StoreMigrations {
    private struct State {
        var running: Set<String> = []
        /// Completed migrations per location, and the version the last one reached.
        var completed: [String: (count: Int, version: Int)] = [:]
    }

    private static let state = Locked(State())

    /// Runs `body` (a migration of the store at `location` to `version`) with the store marked
    /// as migrating; when it returns, counts a completed migration of the store.
    public static func run<T>(at location: String, to version: Int, _ body: () throws -> T) throws -> T {
        try state.withLock { s in
            guard s.running.insert(location).inserted else {
                throw StoreError(.busy, "\(location) is being migrated by another open in this process")
            }
        }
        defer { state.withLock { _ = $0.running.remove(location) } }
        let result = try body()
        state.withLock { s in s.completed[location] = ((s.completed[location]?.count ?? 0) + 1, version) }
        return result
    }

    /// How many migrations of the store at `location` this process has completed: what an
    /// open records once it is done (after its own migration, if it ran one).
    public static func generation(of location: String) -> Int {
        state.withLock { $0.completed.isEmpty ? 0 : $0.completed[location]?.count ?? 0 }
    }

    /// Throws `busy` while the store at `location` is being migrated in this process, and
    /// `schemaMismatch` when another open migrated it after the open that recorded `generation`
    /// (whose schema is `version`).
    public static func check(_ location: String, openedAt generation: Int, version: Int) throws {
        // The common case, no migration in this process, hashes nothing.
        let (running, completed) = state.withLock { s -> (Bool, (count: Int, version: Int)?) in
            if s.running.isEmpty && s.completed.isEmpty { return (false, nil) }
            return (s.running.contains(location), s.completed[location])
        }
        if running { throw StoreError(.busy, "\(location) is being migrated; it can be used when the migration has finished") }
        if let completed, completed.count != generation {
            throw StoreError(.schemaMismatch, "\(location) was migrated to schema version \(completed.version) by another open since this one opened it with version \(version); open it again with the new schema")
        }
    }
}

/// A repository that can say where its store lives (a file or a directory): what
/// `StoreMigrations` keys stores by.
public protocol StoreLocating {
    /// The store's file or directory, as the backend opened it (standardized).
    var storeLocation: String { get }
    /// `StoreMigrations.generation(of: storeLocation)` when the open was done.
    var migrationGeneration: Int { get }
}

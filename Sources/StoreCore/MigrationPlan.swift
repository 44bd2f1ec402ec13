/// How a store written with an older schema version reaches the version it is opened with:
/// the registered steps, and a progress callback. Given in `StoreOptions.migrations`.
///
/// ```swift
/// let plan = MigrationPlan([Migration(from: v1, to: v2), Migration(from: v2, to: v3)]) { p in
///     print("\(p.entity): \(p.done) of \(p.total)")
/// }
/// let store = try SQLiteStore(directory: dir, schema: v3, options: StoreOptions(migrations: plan))
/// ```
///
/// On open, a backend runs the steps from the stored version to the schema's, in order, in one
/// atomic unit: when a step throws (a transform's error, a unique index that existing records
/// break) the store stays at its old version. From each version the step reaching furthest
/// (without passing the schema's version) is taken, so `v1 → v3` is used over `v1 → v2 → v3`
/// when both are registered. A store newer than the schema is `schemaMismatch`.
///
/// Threading: `Sendable`; `progress` is called on the thread opening the store.
public struct MigrationPlan: Sendable {
    public var migrations: [Migration]
    /// Drop everything and start empty when the stored version differs, instead of migrating
    /// (for development, like Realm's `deleteRealmIfMigrationNeeded`). Done atomically too.
    public var deletesStoreIfMigrationNeeded: Bool
    /// Called as records are migrated (at least once per entity, and every few thousand records).
    public var progress: (@Sendable (MigrationProgress) -> Void)?

    public init(_ migrations: [Migration], progress: (@Sendable (MigrationProgress) -> Void)? = nil) {
        self.migrations = migrations
        self.deletesStoreIfMigrationNeeded = false
        self.progress = progress
    }

    /// A plan that empties a store of another version instead of migrating it.
    public static var deleteStoreIfMigrationNeeded: MigrationPlan {
        var p = MigrationPlan([])
        p.deletesStoreIfMigrationNeeded = true
        return p
    }

    /// What opening a store of `version` and `fingerprint` with `schema` requires.
    public enum Decision: Sendable {
        /// The store is at the schema's version.
        case current
        /// Drop all contents and create the schema's (delete-and-recreate).
        case recreate
        /// Run these stages in order.
        case migrate([MigrationStage])
    }

    /// Decides what opening a store that recorded `version` and `fingerprint` with `schema`
    /// requires; what every backend calls on open. Without a plan (`plan` nil) a different
    /// version is `schemaMismatch`. Throws `corrupted` for a missing version, `schemaMismatch`
    /// for a store newer than the schema or one no registered chain reaches, and
    /// `invalidSchema` for a step that cannot be applied.
    public static func decide(_ plan: MigrationPlan?, storedVersion: String?, fingerprint: String?,
                              schema: Schema, path: String) throws -> Decision {
        guard let storedVersion, let fingerprint else {
            throw StoreError(.corrupted, "\(path): the store lacks its schema version")
        }
        guard let stored = Int(storedVersion) else {
            throw StoreError(.corrupted, "\(path): the stored schema version '\(storedVersion)' is not a number")
        }
        if stored == schema.version {
            guard fingerprint == schema.fingerprint else {
                if plan?.deletesStoreIfMigrationNeeded == true { return .recreate }
                throw StoreError(.schemaMismatch,
                                 "\(path) was written with a different schema under the same version \(stored); bump the version and migrate")
            }
            return .current
        }
        if plan?.deletesStoreIfMigrationNeeded == true { return .recreate }
        if stored > schema.version {
            throw StoreError(.schemaMismatch,
                             "\(path) was written with schema version \(stored), newer than this schema's version \(schema.version); open it with the code that wrote it or a later one")
        }
        guard let plan, !plan.migrations.isEmpty else {
            throw StoreError(.schemaMismatch,
                             "\(path) was written with schema version \(stored); this schema is version \(schema.version) and no migration was given")
        }
        return .migrate(try plan.stages(from: stored, fingerprint: fingerprint, to: schema, path: path))
    }

    private func stages(from stored: Int, fingerprint: String, to schema: Schema, path: String) throws -> [MigrationStage] {
        var out: [MigrationStage] = []
        var version = stored
        while version != schema.version {
            let candidates = migrations.filter { $0.source.version == version && $0.destination.version <= schema.version }
            guard let step = candidates.max(by: { $0.destination.version < $1.destination.version }) else {
                throw StoreError(.schemaMismatch,
                                 "\(path) is at schema version \(version) and no registered migration leads from it towards version \(schema.version)")
            }
            guard step.destination.version > version else {
                throw StoreError(.invalidSchema, "a migration from version \(version) must lead to a higher version, not \(step.destination.version)")
            }
            if let previous = out.last {
                // A chain must hand each step the schema the previous one produced: otherwise
                // values would be read under the wrong attribute names.
                guard step.source.fingerprint == previous.destination.fingerprint else {
                    throw StoreError(.invalidSchema,
                                     "the migration from version \(version) starts from a schema other than the one the migration to version \(version) ends at")
                }
            } else if step.source.fingerprint != fingerprint {
                throw StoreError(.schemaMismatch,
                                 "\(path) was written with a schema of version \(version) other than the migration's source schema of that version")
            }
            out.append(try MigrationStage(step))
            version = step.destination.version
        }
        guard let last = out.last, last.destination.fingerprint == schema.fingerprint else {
            throw StoreError(.invalidSchema,
                             "the migration to version \(schema.version) ends at a schema other than the one the store is opened with")
        }
        return out
    }
}

/// How far a migration is: `done` of `total` records of `entity` in the step to `toVersion`.
public struct MigrationProgress: Sendable, Hashable {
    public var fromVersion: Int
    public var toVersion: Int
    public var entity: String
    public var done: Int
    public var total: Int
}

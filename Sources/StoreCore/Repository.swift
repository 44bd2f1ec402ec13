import Foundation

/// A persistent store of records of one `Schema`: the protocol every backend implements.
///
/// ```swift
/// let repo: any Repository = try SQLiteStore(directory: dir, schema: schema)
/// try repo.write { tx in
///     try tx.insert(try users.record(["id": 1, "username": "ann"]))
/// }
/// let ann = try repo.read { try $0.fetch("User", id: 1) }
/// ```
///
/// Threading: a repository is `Sendable`. Writes are serialized; reads may run in parallel
/// where the engine allows it (`Capabilities.concurrentReaders`). Transactions are scoped by
/// closures and must not escape them. After `close()`, every call throws `closed`.
public protocol Repository: AnyObject, Sendable {
    var schema: Schema { get }

    /// What this backend supports beyond the core protocol.
    var capabilities: Capabilities { get }

    /// Each capability this backend does not offer, with the reason (one capability per key).
    /// The kit fails a backend that neither offers a capability nor declares it here, and
    /// checks that a declared one is refused with `unsupported`. The default declares nothing.
    var unsupportedCapabilities: [Capabilities: String] { get }

    /// Runs `body` in a read transaction that sees one consistent snapshot.
    func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T

    /// Runs `body` in a write transaction: committed when `body` returns, rolled back when
    /// it throws (the error is rethrown). Reads inside see the writes before them.
    func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T

    /// Closes the store. Idempotent.
    func close() throws

    /// Checks the store for damage: the engine's own structure where the backend can check it
    /// (`Capabilities.integrityCheck`), then the logical checks of `LogicalVerifier`. Returns
    /// what it found; throws only when it cannot run (`closed`, `busy`). Reads the whole store.
    func verify() throws -> VerificationReport
}

extension Repository {
    public var unsupportedCapabilities: [Capabilities: String] { [:] }
}

/// How much a commit waits for the disk. Applied equally to every backend by the runner.
public enum Durability: String, Sendable, Hashable, CaseIterable, Codable {
    /// A commit survives power loss (fsync on every commit).
    case durable
    /// A commit survives a process crash but may be lost on power loss.
    case relaxed
}

/// Options every backend understands.
public struct StoreOptions: Sendable {
    public var durability: Durability
    /// How a store of an older schema version is brought to the schema's version on open;
    /// `nil`: opening one is `schemaMismatch`.
    public var migrations: MigrationPlan?
    /// Opens an existing store for reading only, on read-only media too: nothing in the
    /// store's files is written (no journal switch, checkpoint, migration or creation), and
    /// every `write` throws `readOnly`. A missing store is `notFound`; a store that would need
    /// a migration is `schemaMismatch`.
    public var readOnly: Bool
    public init(durability: Durability = .durable, migrations: MigrationPlan? = nil, readOnly: Bool = false) {
        self.durability = durability
        self.migrations = migrations
        self.readOnly = readOnly
    }
    /// Check the store's structure when it opens: a structurally damaged file opens as
    /// `corrupted` instead of crashing a read (liblmdb) or reading back wrong; a value changed
    /// inside a row is left to the checksums. Off by default: it reads the whole data file on
    /// every open (100k records: LMDB 0.5 → 64 ms, SQLite 0.4 → 15 ms). LMDB runs its page walk
    /// before liblmdb reads a tree page; SQLite stores run `PRAGMA quick_check`.
    public var verifyOnOpen = false
}

extension StoreOptions {
    /// These options with `readOnly` set: what checking a store opens it with.
    public var readingOnly: StoreOptions {
        var o = self
        o.readOnly = true
        return o
    }
}

/// A named backend: how to open it. Registries (the CLI's, the kit's harnesses) hold these.
///
/// ```swift
/// let sqlite = BackendDescriptor(name: "sqlite", summary: "SQLite through its C API") { schema, dir, options in
///     try SQLiteStore(directory: dir, schema: schema, options: options)
/// }
/// ```
public struct BackendDescriptor: Sendable {
    public var name: String
    public var summary: String
    /// The storage engine underneath (`sqlite`, `lmdb`, …): the runner measures each backend
    /// against the bare C-API floor of its engine. Defaults to `name`.
    public var engine: String
    public var open: @Sendable (Schema, URL, StoreOptions) throws -> any Repository
    /// Checks an existing store in a directory for damage (`storebench verify`). The default
    /// opens it and runs `Repository.verify()`, so it suits a backend whose `open` creates
    /// nothing in a directory that already holds a store; a backend whose engine may crash
    /// on a damaged file supplies one that checks the file before opening it.
    public var verify: @Sendable (Schema, URL, StoreOptions) throws -> VerificationReport
    /// Rewrites a *closed* store in a directory into the smallest files that hold its data,
    /// giving back the space of deleted and rewritten records; `nil` when the engine has no
    /// such operation (its stores then lack `Capabilities.compaction`). Throws `notFound`
    /// when the directory holds no store and `busy` when the store is in use (LMDB: open in
    /// any process; SQLite: another connection's transaction holds it). A crash during
    /// compaction leaves the store as it was before or as it is after, never in between.
    ///
    /// ```swift
    /// try LMDBStore.descriptor.compact?(schema, directory, StoreOptions())
    /// ```
    public var compact: (@Sendable (Schema, URL, StoreOptions) throws -> Void)?
    /// The schema the store in a directory records, read without writing anything (what
    /// `storebench verify` checks a store of unknown schema against); `nil` when the backend
    /// records none. Throws `notFound` for no store, `corrupted` for a damaged one.
    public var storedSchema: (@Sendable (URL) throws -> Schema)?

    public init(name: String, summary: String, engine: String? = nil,
                verify: (@Sendable (Schema, URL, StoreOptions) throws -> VerificationReport)? = nil,
                compact: (@Sendable (Schema, URL, StoreOptions) throws -> Void)? = nil,
                storedSchema: (@Sendable (URL) throws -> Schema)? = nil,
                open: @escaping @Sendable (Schema, URL, StoreOptions) throws -> any Repository) {
        self.name = name
        self.summary = summary
        self.engine = engine ?? name
        self.compact = compact
        self.storedSchema = storedSchema
        self.open = open
        // Opened read-only: checking a store writes nothing to it.
        self.verify = verify ?? { schema, directory, options in
            try VerificationReport.ofStore { try open(schema, directory, options.readingOnly) }
        }
    }
}

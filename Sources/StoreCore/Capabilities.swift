/// What a backend supports beyond the core protocol. The conformance kit skips a case only
/// when a capability it requires is missing, and reports the reason.
public struct Capabilities: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Data survives closing and reopening the store.
    public static let persistence = Capabilities(rawValue: 1 << 0)
    /// Read transactions see one consistent snapshot while writers commit.
    public static let snapshotReads = Capabilities(rawValue: 1 << 1)
    /// Read transactions may run on several threads at once.
    public static let concurrentReaders = Capabilities(rawValue: 1 << 2)
    /// The store records its schema version and refuses another one on open.
    public static let schemaVersioning = Capabilities(rawValue: 1 << 3)
    /// Changes can be observed (later issue).
    public static let observation = Capabilities(rawValue: 1 << 4)
    /// Migration between schema versions (later issue).
    public static let migrations = Capabilities(rawValue: 1 << 5)

    /// `verify()` checks the engine's own file structure (pages, b-trees, free space) before
    /// the logical checks every backend gets.
    public static let integrityCheck = Capabilities(rawValue: 1 << 6)

    /// A closed store can be rewritten without the space of deleted and rewritten records
    /// (`BackendDescriptor.compact`: SQLite's `VACUUM`, LMDB's compacting copy).
    public static let compaction = Capabilities(rawValue: 1 << 7)

    /// `StoreOptions.readOnly`: an existing store opens for reading without a byte of it
    /// written, on read-only media too, and every write throws `readOnly`.
    public static let readOnlyMode = Capabilities(rawValue: 1 << 8)

    /// Attributes holding ordered lists of primitives (`Attribute(..., collection: .list)`),
    /// stored and queried with `ANY`/`NONE` and `@count`.
    public static let primitiveLists = Capabilities(rawValue: 1 << 9)

    /// Attributes holding `[String: V]` maps of primitives (`Attribute(..., collection: .map)`),
    /// stored and queried by key (`prices.small`, `prices['small']`) and `@count`.
    public static let primitiveMaps = Capabilities(rawValue: 1 << 10)

    /// Ordered to-many relationships (`Relationship(..., .toMany, ordered: true)`): links keep
    /// the order given, with `link(..., at:)`, `move(...)` and `related` in list order.
    public static let orderedRelationships = Capabilities(rawValue: 1 << 11)
    /// Embedded entities (`EntityDescription(..., embedded: true)`): a record lives inside one
    /// owner, an orphan fails the commit, a second owner is refused, the owner's delete cascades.
    public static let embeddedObjects = Capabilities(rawValue: 1 << 12)
    /// Several processes may open one store's directory at once (an app and its extension, a
    /// CLI beside a daemon): each sees the others' commits, writers are serialized by the
    /// engine's file locks, and a reader never sees half a commit. A backend without it refuses
    /// a second open with `unsupported` while the store is open (`ExclusiveStoreLock`).
    public static let multiProcess = Capabilities(rawValue: 1 << 13)

    /// Every capability with its name, for reports.
    public static let named: [(Capabilities, String)] = [
        (.persistence, "persistence"), (.snapshotReads, "snapshotReads"),
        (.concurrentReaders, "concurrentReaders"), (.schemaVersioning, "schemaVersioning"),
        (.observation, "observation"), (.migrations, "migrations"),
        (.integrityCheck, "integrityCheck"), (.compaction, "compaction"), (.readOnlyMode, "readOnlyMode"),
        (.primitiveLists, "primitiveLists"), (.primitiveMaps, "primitiveMaps"),
        (.orderedRelationships, "orderedRelationships"),
        (.embeddedObjects, "embeddedObjects"), (.multiProcess, "multiProcess"),
    ]

    /// What the built-in stores declare unsupported (`Repository.unsupportedCapabilities`):
    /// observation is the object graph's, over any of them.
    public static let observedThroughObjectGraph: [Capabilities: String] = [
        .observation: "the store itself delivers no change notifications; observe it through ObjectGraph(store:)",
    ]

    /// The names of the capabilities in this set.
    public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }
}

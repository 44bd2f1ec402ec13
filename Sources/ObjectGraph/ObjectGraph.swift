import Foundation
import StoreCore

/// Core Data's and Realm's programming model over any `Repository`: live objects in contexts
/// (see `ObjectContext`), and a `Repository` itself, so the conformance kit and the workload
/// runner measure what the object graph costs above its store.
///
/// ```swift
/// let graph = ObjectGraph(store: try SQLiteStore(directory: dir, schema: schema))
/// let context = graph.newContext()
/// let ann = try context.insert("User", ["id": 1, "username": "ann"])
/// try context.save()
///
/// // The same graph as a Repository: each transaction runs through a fresh context.
/// let n = try graph.read { try $0.count(Query("User")) }
/// ```
///
/// As a `Repository`, each `read` and `write` gets its own context bound to one store
/// transaction: reads see one snapshot, every write operation goes through the graph (identity
/// map, inverses, delete rules, validation) and is saved into the store transaction at once,
/// so later reads in it see it and a failed operation leaves the transaction as it was.
///
/// Threading: `Sendable`. Contexts are not; make one per thread with `newContext()`. Saved
/// changes of one context reach the others of the same graph (see `ObjectContext.mergeChanges`).
/// Over a store that detects other processes' commits (`ExternalCommitDetecting`: the built-in
/// SQLite, GRDB and LMDB stores), long-lived contexts hear of them too, within about 20 ms:
/// their unchanged objects turn into faults and their observers re-read their results, with
/// the results whose attributes changed as modifications. Other writers to the same store in
/// this process are seen by new fetches and faults only.
public final class ObjectGraph: Repository {
    /// The store the graph persists through.
    public let store: any Repository
    let model: GraphModel
    private let inboxes = Locked<[WeakInbox]>([])

    /// Where the store lives, when it says (`StoreLocating`).
    private let storeLocation: (path: String, generation: Int)?

    /// Polls for other processes' commits while contexts listen; nil when the store cannot tell.
    let otherProcesses: OtherProcessWatch?

    public init(store: any Repository) {
        self.store = store
        model = GraphModel(store.schema)
        storeLocation = (store as? StoreLocating).map { ($0.storeLocation, $0.migrationGeneration) }
        otherProcesses = (store as? any ExternalCommitDetecting).map(OtherProcessWatch.init)
    }

    deinit { otherProcesses?.stop() }

    /// Refuses a store that is being migrated in this process (`busy`), or that another open
    /// migrated since this graph's store was opened (`schemaMismatch`): every transaction of the graph and
    /// of its contexts checks first (see `StoreMigrations`).
    func checkStoreVersion() throws {
        if let storeLocation { try StoreMigrations.check(storeLocation.path, openedAt: storeLocation.generation, version: store.schema.version) }
    }

    public var schema: Schema { store.schema }

    /// The store's capabilities, plus observation (through contexts).
    public var capabilities: Capabilities { store.capabilities.union(.observation) }

    /// The store's unsupported capabilities, less observation.
    public var unsupportedCapabilities: [Capabilities: String] { store.unsupportedCapabilities.filter { $0.key != .observation } }

    /// A new long-lived context. Use it on one thread at a time. By default a save over a
    /// concurrent change of the same attribute throws `conflict` (see `MergePolicy`).
    public func newContext(mergePolicy: MergePolicy = .reportConflicts) -> ObjectContext {
        ObjectContext(graph: self, binding: .repository, mergePolicy: mergePolicy)
    }

    public func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        try checkStoreVersion()
        return try store.read { tx in
            let context = ObjectContext(graph: self, binding: .read(tx), mergePolicy: .storeWins)
            // Lives as long as the transaction: repeated fetches are served by its identity map.
            context.retainsRegisteredObjects = true
            defer { context.endTransaction() }
            return try body(GraphReadTransaction(context: context))
        }
    }

    public func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        try checkStoreVersion()
        var saved = PendingChanges()
        let result = try store.write { tx in
            let context = ObjectContext(graph: self, binding: .write(tx), mergePolicy: .storeWins)
            context.retainsRegisteredObjects = true   // lives as long as the transaction
            defer { context.endTransaction() }
            let r = try body(GraphWriteTransaction(context: context))
            if let poison = context.poison { throw poison }
            saved = context.transactionChanges
            return r
        }
        broadcast(saved)
        return result
    }

    public func close() throws {
        otherProcesses?.stop()
        try store.close()
    }

    /// The store's own check: what the graph persists is the store's data.
    public func verify() throws -> VerificationReport { try store.verify() }

    // MARK: - Internal: contexts' inboxes

    struct WeakInbox: @unchecked Sendable {
        weak var inbox: ContextInbox?
    }

    func register(_ inbox: ContextInbox) {
        inboxes.withLock { list in
            list.removeAll { $0.inbox == nil }
            list.append(WeakInbox(inbox: inbox))
        }
        // `listening` holds the inbox list, not the graph: the graph's last reference must not go
        // away inside a poll that holds the watch's lock (its deinit stops the watch).
        otherProcesses?.start(listening: { [inboxes] in inboxes.withLock { $0.contains { $0.inbox != nil } } },
                              moved: { [weak self] in self?.broadcastOtherProcessCommits() })
    }

    /// Posts to every long-lived context that another process committed: what changed is
    /// unknown, so every unchanged object refreshes and observers compare values.
    private func broadcastOtherProcessCommits() {
        var c = SavedChanges()
        c.mayAffectUnlisted = true
        c.byAnotherProcess = true
        for t in listeners() { t.post(c) }
    }

    func unregister(_ inbox: ContextInbox) {
        inboxes.withLock { list in list.removeAll { $0.inbox == nil || $0.inbox === inbox } }
    }

    /// Posts saved changes to every long-lived context but the sender.
    func broadcast(_ changes: SavedChanges, except sender: ContextInbox) {
        guard !changes.isEmpty else { return }
        for t in listeners() where t !== sender { t.post(changes) }
    }

    /// Posts a graph write transaction's changes, after its commit, to every long-lived
    /// context. A context made after this look was made after the commit, so it reads the
    /// changes from the store. Push latency counts from the commit, so the time spent folding
    /// the inserts into a set is part of it.
    func broadcast(_ pending: PendingChanges) {
        guard !pending.isEmpty else { return }
        let committed = ContinuousClock.now
        let targets = listeners()
        guard !targets.isEmpty else { return }
        let changes = pending.resolved
        for t in targets { t.post(changes, committed: committed) }
    }

    private func listeners() -> [ContextInbox] { inboxes.withLock { list in list.compactMap(\.inbox) } }
}

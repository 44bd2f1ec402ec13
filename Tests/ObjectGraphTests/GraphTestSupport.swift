import Foundation
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore
import Synchronization
import Testing

/// What the graph asked of its store: a real SQLiteStore underneath, every call counted.
final class CountingStore: Repository {
    struct Counts: Sendable, Equatable {
        var fetchByID = 0, queries = 0, related = 0, writes = 0
        var reads: Int { fetchByID + queries + related }
    }

    let base: any Repository
    let counts = Mutex(Counts())
    /// Every `update(_:id:set:)` as entity, id and the attribute names it set.
    let updates = Mutex<[(String, Value, Set<String>)]>([])

    init(_ base: any Repository) { self.base = base }

    var schema: Schema { base.schema }
    var capabilities: Capabilities { base.capabilities }
    var current: Counts { counts.withLock { $0 } }

    func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        try base.read { try body(CountingTransaction(base: $0, store: self)) }
    }

    func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        counts.withLock { $0.writes += 1 }
        return try base.write { try body(CountingTransaction(base: $0, store: self)) }
    }

    func close() throws { try base.close() }
}

struct CountingTransaction: WriteTransaction {
    let base: any ReadTransaction
    let store: CountingStore
    var writer: any WriteTransaction { base as! any WriteTransaction }

    var schema: Schema { base.schema }
    func fetch(_ entity: String, id: Value) throws -> Record? {
        store.counts.withLock { $0.fetchByID += 1 }
        return try base.fetch(entity, id: id)
    }
    func fetch(_ query: Query) throws -> [Record] {
        store.counts.withLock { $0.queries += 1 }
        return try base.fetch(query)
    }
    func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws {
        store.counts.withLock { $0.queries += 1 }
        try base.forEach(query, body)
    }
    func count(_ query: Query) throws -> Int {
        store.counts.withLock { $0.queries += 1 }
        return try base.count(query)
    }
    func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
        store.counts.withLock { $0.related += 1 }
        return try base.related(entity, id: id, via: relationship)
    }
    func insert(_ record: Record) throws { try writer.insert(record) }
    func upsert(_ record: Record) throws { try writer.upsert(record) }
    func update(_ entity: String, id: Value, set changes: [String: Value]) throws {
        store.updates.withLock { $0.append((entity, id, Set(changes.keys))) }
        try writer.update(entity, id: id, set: changes)
    }
    func delete(_ entity: String, id: Value) throws { try writer.delete(entity, id: id) }
    func insert(contentsOf records: [Record]) throws { try writer.insert(contentsOf: records) }
    func update(_ entity: String, where predicate: StorePredicate, set changes: [String: Value]) throws -> Int {
        try writer.update(entity, where: predicate, set: changes)
    }
    func delete(_ entity: String, where predicate: StorePredicate) throws -> Int {
        try writer.delete(entity, where: predicate)
    }
    func link(_ entity: String, id: Value, _ relationship: String, to target: Value) throws {
        try writer.link(entity, id: id, relationship, to: target)
    }
    func unlink(_ entity: String, id: Value, _ relationship: String, from target: Value) throws {
        try writer.unlink(entity, id: id, relationship, from: target)
    }
    func link(_ entity: String, id: Value, _ relationship: String, to target: Value, at index: Int) throws {
        try writer.link(entity, id: id, relationship, to: target, at: index)
    }
    func move(_ entity: String, id: Value, _ relationship: String, from: Int, to: Int) throws {
        try writer.move(entity, id: id, relationship, from: from, to: to)
    }
}

/// An object graph over a counting SQLiteStore holding the social fixture.
final class GraphFixture {
    let directory: TemporaryDirectory
    let sqlite: SQLiteStore
    let store: CountingStore
    let graph: ObjectGraph

    init(_ label: String = "fixture", seeded: Bool = true) throws {
        directory = try TemporaryDirectory(label)
        sqlite = try SQLiteStore(directory: directory.url, schema: SocialSchema.make(), options: StoreOptions(durability: .relaxed))
        if seeded { try SocialFixture.load(into: sqlite) }
        store = CountingStore(sqlite)
        graph = ObjectGraph(store: store)
    }

    var schema: Schema { graph.schema }

    /// A record straight from SQLite, bypassing the graph.
    func stored(_ entity: String, _ id: Value) throws -> Record? {
        try sqlite.read { try $0.fetch(entity, id: id) }
    }

    /// Related primary keys straight from SQLite.
    func storedLinks(_ entity: String, _ id: Value, _ relationship: String) throws -> [Value] {
        try sqlite.read { try $0.related(entity, id: id, via: relationship).map(\.id) }
    }

    func storedCount(_ entity: String) throws -> Int {
        try sqlite.read { try $0.count(Query(entity)) }
    }
}

/// Runs `body` and checks it throws a `StoreError` of category `c`.
func expectCategory(_ c: StoreError.Category, _ body: () throws -> Void,
                    sourceLocation: SourceLocation = #_sourceLocation) {
    do { try body() } catch let e as StoreError {
        #expect(e.category == c, "\(e)", sourceLocation: sourceLocation)
        return
    } catch { Issue.record("not a StoreError: \(error)", sourceLocation: sourceLocation); return }
    Issue.record("expected a \(c) error", sourceLocation: sourceLocation)
}

func ids(_ objects: [ManagedObject]) -> [Value] { objects.map(\.id) }

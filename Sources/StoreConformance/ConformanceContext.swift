import Foundation
import StoreCore

/// The fixture of one case: a fresh temporary directory, the store opened there with the
/// social test schema, and expectation helpers that throw `ConformanceFailure`.
///
/// Not thread-safe: used by the thread running the case (a case may start its own threads
/// and use `repository` from them, which is `Sendable`).
public final class ConformanceContext {
    public let harness: any ConformanceHarness
    public let directory: URL
    public private(set) var schema: Schema
    private var current: (any Repository)?

    init(harness: any ConformanceHarness, directory: URL, schema: Schema) throws {
        self.harness = harness
        self.directory = directory
        self.schema = schema
        current = try harness.open(schema: schema, directory: directory)
    }

    /// The open store.
    public var repository: any Repository {
        get throws {
            guard let c = current else { throw ConformanceFailure("the store is not open") }
            return c
        }
    }

    /// Closes the store and opens it again from the same directory.
    public func reopen() throws {
        try current?.close()
        current = nil
        current = try harness.open(schema: schema, directory: directory)
    }

    /// Closes the store, then opens it read-only with `schema` (it stays closed when that
    /// throws); `reopen()` opens it writable again.
    public func reopenReadOnly(with schema: Schema? = nil) throws {
        try current?.close()
        current = nil
        current = try harness.openReadOnly(schema: schema ?? self.schema, directory: directory)
    }

    /// Closes the store, compacts it (`ConformanceHarness.compact`) and opens it again; it
    /// stays closed when compacting throws.
    public func compact() throws {
        try close()
        try harness.compact(schema: schema, directory: directory)
        current = try harness.open(schema: schema, directory: directory)
    }

    /// Closes the store (a later `reopen()` opens it again).
    public func close() throws {
        try current?.close()
        current = nil
    }

    /// Closes the store, then opens the directory with another schema (it stays closed when
    /// that throws). Returns the new store.
    @discardableResult
    public func reopen(with other: Schema) throws -> any Repository {
        try current?.close()
        current = nil
        let r = try harness.open(schema: other, directory: directory)
        schema = other
        current = r
        return r
    }

    /// Closes the store, then opens the directory with another schema and a migration plan
    /// (it stays closed when that throws). Returns the migrated store.
    @discardableResult
    public func migrate(to other: Schema, _ plan: MigrationPlan) throws -> any Repository {
        try current?.close()
        current = nil
        let r = try harness.open(schema: other, directory: directory, migrations: plan)
        schema = other
        current = r
        return r
    }

    /// Closes the store, removes everything in the directory and creates a fresh store of
    /// another schema there (what cases on schemas other than the social one start with).
    /// Returns the new store.
    @discardableResult
    public func startOver(with other: Schema) throws -> any Repository {
        try current?.close()
        current = nil
        try FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let r = try harness.open(schema: other, directory: directory)
        schema = other
        current = r
        return r
    }

    func tearDown() {
        try? current?.close()
        current = nil
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Shortcuts

    public func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T { try repository.write(body) }
    public func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T { try repository.read(body) }

    public func entity(_ name: String) throws -> Entity { try schema.entity(name) }

    /// A record of `entity` from named values (defaults filled in).
    public func record(_ entity: String, _ values: [String: Value]) throws -> Record {
        try self.entity(entity).record(values)
    }

    /// The primary keys a query returns, in order.
    public func ids(_ q: Query) throws -> [Value] {
        try read { try $0.fetch(q).map(\.id) }
    }

    /// The primary keys matching a predicate string, in primary-key order unless sorted.
    public func ids(_ entity: String, _ format: String, _ args: PredicateArgument..., sort: [SortKey] = []) throws -> [Value] {
        try ids(Query(entity, where: try StorePredicate(format: format, arguments: args), sort: sort))
    }

    /// Every record of every entity, with every relationship's keys: a full dump used to
    /// show that a failed operation left the store unchanged.
    public func dump() throws -> [String] { try Self.dump(try repository) }

    /// `dump()` of any store.
    public static func dump(_ repository: any Repository) throws -> [String] {
        let schema = repository.schema
        return try repository.read { tx in
            var out: [String] = []
            for e in schema.entities {
                for r in try tx.fetch(Query(e.name)) {
                    var line = exactDescription(r)
                    for rel in e.relationships {
                        line += " \(rel.name)=\(try tx.related(e.name, id: r.id, via: rel.name).map(\.id))"
                    }
                    out.append(line)
                }
            }
            return out
        }
    }

    /// A record as text that changes with any bit of it: bytes by length and FNV-1a hash (a
    /// `Record`'s description gives bytes by length alone).
    static func exactDescription(_ r: Record) -> String {
        let fields = zip(r.entity.attributes, r.values).map { a, v in
            guard case .bytes(let b) = v else { return "\(a.name): \(v)" }
            let hash = b.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            return "\(a.name): bytes(\(b.count) #\(String(hash, radix: 16)))"
        }
        return "\(r.entity.name)(\(fields.joined(separator: ", ")))"
    }

    // MARK: Expectations

    public func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ConformanceFailure(message()) }
    }

    public func expectEqual<T: Equatable>(_ actual: T, _ expected: T, _ what: @autoclosure () -> String) throws {
        if actual != expected { throw ConformanceFailure("\(what()): expected \(expected), got \(actual)") }
    }

    public func expectEqual<T: Equatable>(_ actual: T?, _ expected: T, _ what: @autoclosure () -> String) throws {
        if actual != expected {
            throw ConformanceFailure("\(what()): expected \(expected), got \(actual.map { "\($0)" } ?? "nil")")
        }
    }

    /// Expects `body` to throw a `StoreError` of `category`.
    @discardableResult
    public func expectError(_ category: StoreError.Category, _ what: @autoclosure () -> String,
                            _ body: () throws -> Void) throws -> StoreError {
        do {
            try body()
        } catch let e as StoreError {
            if e.category == category { return e }
            throw ConformanceFailure("\(what()): expected a \(category.rawValue) error, got \(e.category.rawValue): \(e.message)")
        } catch {
            throw ConformanceFailure("\(what()): expected a \(category.rawValue) StoreError, got \(error)")
        }
        throw ConformanceFailure("\(what()): expected a \(category.rawValue) error, but it succeeded")
    }

    /// Expects the query to return exactly these primary keys, in this order.
    public func expectIDs(_ q: Query, _ expected: [Value], _ what: @autoclosure () -> String = "") throws {
        let got = try ids(q)
        let label = what().isEmpty ? "\(q.entity) where \(q.predicate)" : what()
        if got != expected { throw ConformanceFailure("\(label): expected ids \(expected), got \(got)") }
    }

    /// Expects a predicate string to select exactly these keys (in primary-key order).
    public func expectIDs(_ entity: String, _ format: String, _ args: PredicateArgument..., are expected: [Value]) throws {
        try expectIDs(Query(entity, where: try StorePredicate(format: format, arguments: args)), expected, "\(entity) where \(format)")
    }
}

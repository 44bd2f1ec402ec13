import Foundation
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore

// A delegating `Repository` that injects one `HeldBackFault` into a correct backend. Every
// operation goes to the wrapped store unchanged unless the fault's data shape is present.

/// Opens SQLiteStore through its descriptor and wraps what it opens.
public struct HeldBackHarness: ConformanceHarness {
    public let fault: HeldBackFault?
    let base: DescriptorHarness

    /// `observing`: over the object graph on SQLite (for the observation mutations, which
    /// it takes by itself); over SQLiteStore otherwise.
    public init(_ fault: HeldBackFault?, observing: Bool = false) {
        self.fault = fault
        let graph = observing || fault?.needsObservation == true
        base = DescriptorHarness(graph ? ObjectGraph.descriptor(over: SQLiteStore.descriptor) : SQLiteStore.descriptor)
    }

    public var name: String { fault.map { "heldback-\($0.rawValue)" } ?? "heldback" }

    public func open(schema: Schema, directory: URL) throws -> any Repository {
        try wrap(schema, directory) { try base.open(schema: schema, directory: directory) }
    }

    public func open(schema: Schema, directory: URL, migrations: MigrationPlan) throws -> any Repository {
        let migrated = try? base.descriptor.storedSchema?(directory).version == schema.version
        let repo = try wrap(schema, directory) { try base.open(schema: schema, directory: directory, migrations: migrations) }
        if fault == .migrationPlanRerunOnEveryOpen, migrated == true {
            for m in migrations.migrations where m.destination.version == schema.version {
                for step in m.storeSteps { try repo.write(step) }
            }
        }
        return repo
    }

    public func compact(schema: Schema, directory: URL) throws {
        try base.compact(schema: schema, directory: directory)
        if fault == .compactionDropsLinks { try HeldBackMutations.dropManyToManyLinks(base.open(schema: schema, directory: directory)) }
    }

    public func openReadOnly(schema: Schema, directory: URL) throws -> any Repository {
        try wrap(schema, directory) { try base.openReadOnly(schema: schema, directory: directory) }
    }

    private func wrap(_ schema: Schema, _ directory: URL, _ open: () throws -> any Repository) throws -> any Repository {
        let repo: any Repository
        do {
            repo = try open()
        } catch let e as StoreError where fault == .schemaMismatchReportedCorrupted && e.category == .schemaMismatch {
            throw StoreError(.corrupted, "the store's header does not match: \(e.message)")
        }
        if fault == .deleteWhereReappearsAfterReopen {
            let back = heldBackTombstones.take(directory.standardizedFileURL.path)
            if !back.isEmpty {
                try? repo.write { tx in
                    for r in back {
                        guard let e = schema[r.entity.name] else { continue }
                        try? tx.insert(Record(e, values: r.values))
                    }
                }
            }
        }
        return HeldBackRepository(base: repo, fault: fault, directory: directory)
    }
}

/// Records deleted by `delete(where:)` under `deleteWhereReappearsAfterReopen`, by directory:
/// the "in-memory tombstones" that a reopen forgets.
final class HeldBackTombstoneStore: @unchecked Sendable {
    private let lock = NSLock()
    private var byDirectory: [String: [Record]] = [:]

    func add(_ path: String, _ records: [Record]) {
        lock.lock(); defer { lock.unlock() }
        byDirectory[path, default: []] += records
    }

    func take(_ path: String) -> [Record] {
        lock.lock(); defer { lock.unlock() }
        return byDirectory.removeValue(forKey: path) ?? []
    }
}

let heldBackTombstones = HeldBackTombstoneStore()

/// One side of a link: a record and one of its relationships.
struct HeldBackLinkKey: Hashable {
    var entity: String
    var id: Value
    var relationship: String
}

/// State a faulty backend keeps across transactions (stale links, join-table quirks, threads).
final class HeldBackState: @unchecked Sendable {
    let lock = NSLock()
    /// Targets that still show in `related` though the link is gone.
    var ghosts: [HeldBackLinkKey: [Value]] = [:]
    /// Extra copies of many-to-many links.
    var duplicates: [HeldBackLinkKey: [Value: Int]] = [:]
    /// Many-to-many targets in the order they were linked.
    var linkOrder: [HeldBackLinkKey: [Value]] = [:]
    /// Many-to-many join rows left behind by deleted records: (relationship, target) by record.
    var joinRowsOfDeleted: [HeldBackLinkKey: [(String, Value)]] = [:]
    /// Transactions open per thread.
    var depth: [ObjectIdentifier: Int] = [:]
    var closePending = false
    var writer: HeldBackWriteTransaction?

    func locked<T>(_ f: () throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try f()
    }
}

final class HeldBackRepository: Repository, @unchecked Sendable {
    let base: any Repository
    let fault: HeldBackFault?
    let directory: URL
    let state = HeldBackState()

    init(base: any Repository, fault: HeldBackFault?, directory: URL) {
        self.base = base
        self.fault = fault
        self.directory = directory
    }

    var schema: Schema { base.schema }
    var capabilities: Capabilities { base.capabilities }
    var unsupportedCapabilities: [Capabilities: String] { base.unsupportedCapabilities }

    private var thread: ObjectIdentifier { ObjectIdentifier(Thread.current) }

    private func enter() {
        let t = thread
        state.locked { state.depth[t, default: 0] += 1 }
    }

    private func leave() {
        let t = thread
        let closeNow: Bool = state.locked {
            let d = (state.depth[t] ?? 1) - 1
            state.depth[t] = d == 0 ? nil : d
            if d == 0 && state.closePending {
                state.closePending = false
                return true
            }
            return false
        }
        if closeNow { try? base.close() }
    }

    func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        enter()
        defer { leave() }
        switch fault {
        case .readsNotSnapshotted:
            try base.read { _ in () }   // still refuses a closed store
            return try body(HeldBackReadTransaction(repo: self, source: .autocommit))
        case .dirtyReadsFromActiveWriter:
            let t = thread
            if let w = state.locked({ state.writer }), w.thread != t {
                return try body(HeldBackReadTransaction(repo: self, source: .shared(w)))
            }
        default:
            break
        }
        return try base.read { tx in try body(HeldBackReadTransaction(repo: self, source: .direct(tx))) }
    }

    func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        enter()
        defer { leave() }
        var made: HeldBackWriteTransaction?
        do {
            let result = try base.write { tx -> T in
                let w = HeldBackWriteTransaction(repo: self, writer: tx, thread: thread)
                made = w
                state.locked { state.writer = w }
                defer {
                    w.lock.lock(); w.live = false; w.lock.unlock()
                    state.locked { if state.writer === w { state.writer = nil } }
                }
                do {
                    return try body(w)
                } catch {
                    if fault == .writeRethrowsRecordedError, let recorded = w.recordedError { throw recorded }
                    throw error
                }
            }
            if fault == .deleteWhereReappearsAfterReopen, let w = made, !w.tombstones.isEmpty {
                heldBackTombstones.add(directory.standardizedFileURL.path, w.tombstones)
            }
            return result
        } catch {
            if fault == .batchInsertSurvivesRollback, let w = made, !w.autocommittedBatches.isEmpty {
                try? base.write { tx in
                    for b in w.autocommittedBatches { try? tx.insert(contentsOf: b) }
                }
            }
            throw error
        }
    }

    func close() throws {
        if fault == .closeInsideTransactionDeferred {
            let t = thread
            let inside = state.locked { () -> Bool in
                if state.depth[t] != nil { state.closePending = true; return true }
                return false
            }
            if inside { return }
        }
        try base.close()
    }

    func verify() throws -> VerificationReport {
        if fault == .verifySkipsEngineCheck { return try HeldBackMutations.logicalChecksOnly(base) }
        var report = try base.verify()
        if fault == .verifyFlagsManyToManyLinks {
            let orphan: String? = try base.read { tx in
                for e in schema.entities {
                    for r in e.relationships where r.isToMany && schema.inverse(of: r).relationship.isToMany {
                        for rec in try tx.fetch(Query(e.name)) where try !tx.related(e.name, id: rec.id, via: r.name).isEmpty {
                            return "\(e.name).\(r.name) of \(rec.id)"
                        }
                    }
                }
                return nil
            }
            if let orphan { report.add("links", "join row without a foreign key: \(orphan)") }
        }
        return report
    }
}

/// Thrown inside a base `forEach` to end an outer iteration early.
private struct HeldBackStopIteration: Error {}

final class HeldBackForEachMark {
    let query: Query
    var stop = false
    init(_ query: Query) { self.query = query }
}

class HeldBackReadTransaction: ReadTransaction {
    enum Source {
        /// The base store's transaction.
        case direct(any ReadTransaction)
        /// No transaction: every call reads the latest commit.
        case autocommit
        /// Another thread's write transaction, used under its lock.
        case shared(HeldBackWriteTransaction)
    }

    let repo: HeldBackRepository
    let source: Source
    var fault: HeldBackFault? { repo.fault }
    var schema: Schema { repo.schema }
    var poisoned = false
    var recordedError: Error?
    var fetchCache: [HeldBackLinkKey: Record?] = [:]
    var activeForEach: [HeldBackForEachMark] = []

    init(repo: HeldBackRepository, source: Source) {
        self.repo = repo
        self.source = source
    }

    /// Runs `f` on the base transaction this one reads through.
    func withBase<T>(_ f: (any ReadTransaction) throws -> T) throws -> T {
        switch source {
        case .direct(let t):
            return try f(t)
        case .autocommit:
            return try repo.base.read(f)
        case .shared(let w):
            w.lock.lock()
            defer { w.lock.unlock() }
            if w.live { return try f(w.writer) }
            return try repo.base.read(f)
        }
    }

    /// Every operation: refused after an earlier error under `caughtErrorAbortsTransaction`,
    /// and its error remembered.
    func op<T>(_ f: () throws -> T) throws -> T {
        if fault == .caughtErrorAbortsTransaction && poisoned {
            throw StoreError(.busy, "the transaction was aborted by an earlier error")
        }
        do {
            return try f()
        } catch {
            poisoned = true
            recordedError = error
            throw error
        }
    }

    func key(_ entity: String, _ id: Value) -> Value {
        guard let e = schema[entity], let k = try? e.checkedKey(id) else { return id }
        return k
    }

    // MARK: ReadTransaction

    func fetch(_ entity: String, id: Value) throws -> Record? {
        try op {
            let k = HeldBackLinkKey(entity: entity, id: key(entity, id), relationship: "")
            if fault == .fetchCacheNotInvalidated, let cached = fetchCache[k] { return cached }
            let r = try withBase { try $0.fetch(entity, id: id) }
            if fault == .fetchCacheNotInvalidated { fetchCache[k] = .some(r) }
            return r
        }
    }

    func fetch(_ query: Query) throws -> [Record] {
        try op {
            let q = adjusted(query)
            markNestedRun(of: q)
            if let f = fault, HeldBackQueryEngine.applies(f, to: q, forCount: false) {
                return try withBase { try HeldBackQueryEngine(fault: f, tx: $0).run(q) }
            }
            return try withBase { try $0.fetch(q) }
        }
    }

    func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws {
        try op {
            let q = adjusted(query)
            if let f = fault, HeldBackQueryEngine.applies(f, to: q, forCount: false) {
                let rows = try withBase { try HeldBackQueryEngine(fault: f, tx: $0).run(q) }
                for r in rows { try body(r) }
                return
            }
            switch source {
            case .direct(let t):
                if fault == .nestedSameQueryEndsOuterIteration {
                    markNestedRun(of: q)
                    let mark = HeldBackForEachMark(q)
                    activeForEach.append(mark)
                    defer { activeForEach.removeAll { $0 === mark } }
                    do {
                        try t.forEach(q) { row in
                            try body(row)
                            if mark.stop { throw HeldBackStopIteration() }
                        }
                    } catch is HeldBackStopIteration {}
                    return
                }
                try t.forEach(q, body)
            case .autocommit, .shared:
                let rows = try withBase { try $0.fetch(q) }
                for r in rows { try body(r) }
            }
        }
    }

    func count(_ query: Query) throws -> Int {
        try op {
            let q = adjusted(query)
            if fault == .countAppliesLimitToAggregate && (q.limit != nil || q.offset > 0) {
                _ = try schema.resolve(q)
                if q.offset > 0 || q.limit == 0 { return 0 }
                return try withBase { try $0.count(Query(q.entity, where: q.predicate, sort: q.sort)) }
            }
            if let f = fault, HeldBackQueryEngine.applies(f, to: q, forCount: true) {
                return try withBase { try HeldBackQueryEngine(fault: f, tx: $0).run(q).count }
            }
            return try withBase { try $0.count(q) }
        }
    }

    func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
        try op {
            var rs: [Record]
            do {
                rs = try withBase { try $0.related(entity, id: id, via: relationship) }
            } catch let e as StoreError where e.category == .notFound && fault == .relatedOfMissingRecordIsEmpty {
                return []
            }
            let k = HeldBackLinkKey(entity: entity, id: key(entity, id), relationship: relationship)
            guard let f = fault, let e = schema[entity], let rel = e.relationship(relationship) else { return rs }
            if f == .relatedOrdersIdsAsText && !rel.isOrdered { return rs.sorted { "\($0.id)" < "\($1.id)" } }
            let dest = schema.inverse(of: rel).entity
            switch f {
            case .relinkToOneLeavesOldInverse, .oneToOneNotExclusive:
                let extra = repo.state.locked { repo.state.ghosts[k] ?? [] }
                for t in extra where !rs.contains(where: { $0.id == t }) {
                    if let r = try withBase({ try $0.fetch(dest.name, id: t) }) { rs.append(r) }
                }
                rs.sort { Value.compare($0.id, $1.id) == .orderedAscending }
            case .manyToManyDoubleLinkDuplicates:
                let dups = repo.state.locked { repo.state.duplicates[k] ?? [:] }
                if !dups.isEmpty {
                    rs = rs.flatMap { r in Array(repeating: r, count: 1 + (dups[r.id] ?? 0)) }
                }
            case .relatedInLinkOrder:
                let order = repo.state.locked { repo.state.linkOrder[k] ?? [] }
                if !order.isEmpty {
                    let pos = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
                    rs = rs.enumerated().sorted { a, b in
                        let pa = pos[a.element.id] ?? Int.max, pb = pos[b.element.id] ?? Int.max
                        return pa != pb ? pa < pb : a.offset < b.offset
                    }.map(\.element)
                }
            default:
                break
            }
            return rs
        }
    }

    // MARK: Helpers

    /// `unknownSortKeyIgnored`: drops sort keys that do not resolve.
    func adjusted(_ q: Query) -> Query {
        guard fault == .unknownSortKeyIgnored, !q.sort.isEmpty, schema[q.entity] != nil else { return q }
        var out = q
        out.sort = q.sort.filter { k in (try? schema.resolve(Query(q.entity, sort: [k]))) != nil }
        return out
    }

    /// `nestedSameQueryEndsOuterIteration`: a run of a query an outer `forEach` is stepping
    /// resets the shared statement, so the outer iteration ends.
    func markNestedRun(of q: Query) {
        guard fault == .nestedSameQueryEndsOuterIteration else { return }
        for m in activeForEach where m.query == q { m.stop = true }
    }
}

final class HeldBackWriteTransaction: HeldBackReadTransaction, WriteTransaction {
    let writer: any WriteTransaction
    let thread: ObjectIdentifier
    /// Guards `writer` when another thread reads through it (`dirtyReadsFromActiveWriter`).
    let lock = NSRecursiveLock()
    var live = true
    var autocommittedBatches: [[Record]] = []
    var tombstones: [Record] = []

    init(repo: HeldBackRepository, writer: any WriteTransaction, thread: ObjectIdentifier) {
        self.writer = writer
        self.thread = thread
        super.init(repo: repo, source: .direct(writer))
    }

    override func withBase<T>(_ f: (any ReadTransaction) throws -> T) throws -> T {
        try withWriter { try f($0) }
    }

    func withWriter<T>(_ f: (any WriteTransaction) throws -> T) throws -> T {
        if fault == .dirtyReadsFromActiveWriter {
            lock.lock()
            defer { lock.unlock() }
            return try f(writer)
        }
        return try f(writer)
    }

    var state: HeldBackState { repo.state }

    // MARK: Values on their way to storage

    func storedValue(_ v: Value, _ e: Entity, _ i: Int) throws -> Value {
        let a = e.attributes[i]
        let isKey = i == e.primaryKeyOrdinal
        switch (fault, v) {
        case (.nanStoredAsNull, .double(let d)) where d.isNaN:
            return .null
        case (.longValuesTruncatedAt64KiB, .string(let s)) where !isKey && s.utf8.count > 65_535 && s.utf8.count <= Limits.maxValueBytes:
            let utf8 = Array(s.utf8)
            var end = 65_535
            while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }   // not inside a character
            return .string(String(decoding: utf8[..<end], as: UTF8.self))
        case (.longValuesTruncatedAt64KiB, .bytes(let b)) where b.count > 65_535 && b.count <= Limits.maxValueBytes:
            return .bytes(Array(b[..<65_535]))
        case (.datesTruncatedToMilliseconds, .date(let d)):
            return .date(Date(timeIntervalSince1970: (d.timeIntervalSince1970 * 1000).rounded(.towardZero) / 1000))
        case (.largeIntegersRoundTripThroughDouble, .int64(let n)) where !isKey && n.magnitude > (1 << 53):
            let d = Double(n)
            return .int64(d >= 9.223372036854775807e18 ? Int64.max : Int64(d))
        case (.emptyBytesStoredAsNull, .bytes(let b)) where b.isEmpty:
            return .null
        case (.stringsTruncatedAtNul, .string(let s)):
            if let nul = s.unicodeScalars.firstIndex(of: "\0") { return .string(String(s.unicodeScalars[..<nul])) }
        case (.valueOfExactlyMaxBytesRefused, .string(let s)) where s.utf8.count == Limits.maxValueBytes:
            throw StoreError(.invalidValue, "\(e.name).\(a.name): value of \(s.utf8.count) bytes exceeds the limit")
        case (.valueOfExactlyMaxBytesRefused, .bytes(let b)) where b.count == Limits.maxValueBytes:
            throw StoreError(.invalidValue, "\(e.name).\(a.name): value of \(b.count) bytes exceeds the limit")
        case (.keyOfExactlyMaxBytesRefused, .string(let s)) where isKey && s.utf8.count == Limits.maxKeyBytes:
            throw StoreError(.invalidValue, "\(e.name).\(a.name): key of \(s.utf8.count) bytes exceeds the limit")
        case (.numericStringCoercedToInteger, .string(let s)) where a.type == .int64:
            if let n = Int64(s.trimmingCharacters(in: .whitespaces)) { return .int64(n) }
        default:
            break
        }
        return v
    }

    static let valueFaults: Set<HeldBackFault> = [
        .nanStoredAsNull, .longValuesTruncatedAt64KiB, .datesTruncatedToMilliseconds, .largeIntegersRoundTripThroughDouble,
        .emptyBytesStoredAsNull, .stringsTruncatedAtNul, .valueOfExactlyMaxBytesRefused, .keyOfExactlyMaxBytesRefused,
        .numericStringCoercedToInteger,
    ]

    func stored(_ r: Record) throws -> Record {
        guard let f = fault, Self.valueFaults.contains(f), let e = schema[r.entity.name],
              r.values.count == e.attributes.count else { return r }
        var out = r
        for i in out.values.indices { out.values[i] = try storedValue(out.values[i], e, i) }
        return out
    }

    func storedChanges(_ entity: String, _ changes: [String: Value]) throws -> [String: Value] {
        var out = changes
        if fault == .updateIgnoresNullAssignments { out = out.filter { !$0.value.isNull } }
        guard let f = fault, Self.valueFaults.contains(f), let e = schema[entity] else { return out }
        for (k, v) in out {
            if let i = e.ordinal(of: k) { out[k] = try storedValue(v, e, i) }
        }
        return out
    }

    // MARK: Error mapping

    /// Applies the error-category faults to an operation's error.
    func mapped<T>(entity: String, changes: [String: Value] = [:], isUnique: () -> Bool = { true },
                   _ f: () throws -> T) throws -> T {
        do {
            return try f()
        } catch let err as StoreError {
            switch fault {
            case .uniqueConflictIsConstraintViolation where err.category == .conflict && isUnique():
                throw StoreError(.constraintViolation, "UNIQUE constraint failed: \(err.message)", nativeCode: 19)
            case .unknownAttributeInUpdateIsInvalidQuery where err.category == .invalidValue:
                if let e = schema[entity], changes.keys.contains(where: { e.ordinal(of: $0) == nil }) {
                    throw StoreError(.invalidQuery, "no such column: \(err.message)", nativeCode: 1)
                }
            case .unknownEntityInWriteIsNotFound where err.category == .invalidValue && schema[entity] == nil:
                throw StoreError(.notFound, "no such table: \(entity)", nativeCode: 1)
            default:
                break
            }
            throw err
        }
    }

    func exists(_ entity: String, _ id: Value) -> Bool {
        ((try? writer.fetch(entity, id: id)) ?? nil) != nil
    }

    // MARK: Links kept by faults

    func isManyToMany(_ r: Relationship) -> Bool { r.isToMany && schema.inverse(of: r).relationship.isToMany }

    /// Many-to-many links of a record, as (relationship, target) pairs.
    func manyToManyLinks(_ e: Entity, _ id: Value) throws -> [(String, Value)] {
        var out: [(String, Value)] = []
        for r in e.relationships where isManyToMany(r) {
            for t in try writer.related(e.name, id: id, via: r.name) { out.append((r.name, t.id)) }
        }
        return out
    }

    /// `deleteLeavesManyToManyRowsForReinsert`: a reinserted record finds its old join rows.
    func afterInsert(_ records: [Record]) {
        guard fault == .deleteLeavesManyToManyRowsForReinsert else { return }
        for r in records {
            let k = HeldBackLinkKey(entity: r.entity.name, id: key(r.entity.name, r.id), relationship: "")
            guard let rows = state.locked({ state.joinRowsOfDeleted.removeValue(forKey: k) }) else { continue }
            for (rel, t) in rows { try? writer.link(r.entity.name, id: k.id, rel, to: t) }
        }
    }

    func rememberJoinRows(_ rows: [(String, Value)], of entity: String, _ id: Value) {
        guard !rows.isEmpty else { return }
        let k = HeldBackLinkKey(entity: entity, id: id, relationship: "")
        state.locked { state.joinRowsOfDeleted[k] = rows }
    }

    func forgetLink(_ k: HeldBackLinkKey, _ target: Value?) {
        state.locked {
            if let t = target {
                state.ghosts[k]?.removeAll { $0 == t }
                state.duplicates[k]?[t] = nil
                state.linkOrder[k]?.removeAll { $0 == t }
            } else {
                state.ghosts[k] = nil
                state.duplicates[k] = nil
                state.linkOrder[k] = nil
            }
        }
    }

    // MARK: Cascades

    /// Every record a delete of (e, id) cascades to, children before their parents.
    func cascadeDescendants(_ e: Entity, _ id: Value) throws -> [(Entity, Value)] {
        var out: [(Entity, Value)] = []
        var seen: Set<HeldBackLinkKey> = [HeldBackLinkKey(entity: e.name, id: id, relationship: "")]
        func visit(_ e: Entity, _ id: Value) throws {
            for r in e.relationships where r.deleteRule == .cascade {
                let dest = schema.inverse(of: r).entity
                for c in try writer.related(e.name, id: id, via: r.name) {
                    guard seen.insert(HeldBackLinkKey(entity: dest.name, id: c.id, relationship: "")).inserted else { continue }
                    try visit(dest, c.id)
                    out.append((dest, c.id))
                }
            }
        }
        try visit(e, id)
        return out
    }

    func denyLinks(_ e: Entity, _ id: Value) throws -> [(String, Value)] {
        var out: [(String, Value)] = []
        for r in e.relationships where r.deleteRule == .deny {
            for t in try writer.related(e.name, id: id, via: r.name) { out.append((r.name, t.id)) }
        }
        return out
    }

    /// Unlinks pairs, runs `f`, and relinks them when `f` throws.
    func withUnlinked<T>(_ pairs: [(String, Value, String, Value)], _ f: () throws -> T) throws -> T {
        var done: [(String, Value, String, Value)] = []
        do {
            for p in pairs {
                try writer.unlink(p.0, id: p.1, p.2, from: p.3)
                done.append(p)
            }
            return try f()
        } catch {
            for p in done.reversed() { try? writer.link(p.0, id: p.1, p.2, to: p.3) }
            throw error
        }
    }

    /// `cascadeOneLevelOnly`: the links from records a delete of (e, k) cascades to, to their
    /// own cascading children, which the faulty backend leaves in place (orphaned).
    func secondLevelCascadePairs(_ e: Entity, _ k: Value) throws -> [(String, Value, String, Value)] {
        var pairs: [(String, Value, String, Value)] = []
        for r in e.relationships where r.deleteRule == .cascade {
            let dest = schema.inverse(of: r).entity
            for child in try writer.related(e.name, id: k, via: r.name) {
                for r2 in dest.relationships where r2.deleteRule == .cascade {
                    for g in try writer.related(dest.name, id: child.id, via: r2.name)
                    where !(g.entity.name == e.name && g.id == k) {
                        pairs.append((dest.name, child.id, r2.name, g.id))
                    }
                }
            }
        }
        return pairs
    }

    /// `denyIgnoredThroughCascade`: the deny links of the records a delete of (e, k) cascades
    /// to, which the faulty backend drops; nil when (e, k) itself is denied (that one it checks).
    func cascadedDenyPairs(_ e: Entity, _ k: Value) throws -> [(String, Value, String, Value)]? {
        guard try denyLinks(e, k).isEmpty else { return nil }
        var pairs: [(String, Value, String, Value)] = []
        for (d, did) in try cascadeDescendants(e, k) {
            for (rel, t) in try denyLinks(d, did) { pairs.append((d.name, did, rel, t)) }
        }
        return pairs
    }

    /// `cascadeDenyNotAtomic`: after a denied delete of (e, k), what the depth-first cascade
    /// deleted before it met the deny stays deleted.
    func deletePartOfDeniedCascade(_ e: Entity, _ k: Value) throws {
        guard exists(e.name, k), try denyLinks(e, k).isEmpty else { return }
        for (d, did) in try cascadeDescendants(e, k) {
            if try !denyLinks(d, did).isEmpty { return }
            if exists(d.name, did) { try? writer.delete(d.name, id: did) }
        }
    }

    func faultyDelete(_ entity: String, id: Value) throws {
        guard let e = schema[entity], let k = try? e.checkedKey(id), exists(entity, k) else {
            try mapped(entity: entity) { try writer.delete(entity, id: id) }
            return
        }
        switch fault {
        case .cascadeOneLevelOnly:
            try withUnlinked(try secondLevelCascadePairs(e, k)) { try writer.delete(entity, id: k) }
        case .denyIgnoredThroughCascade:
            try withUnlinked(try cascadedDenyPairs(e, k) ?? []) { try writer.delete(entity, id: k) }
        case .cascadeDenyNotAtomic:
            do {
                try writer.delete(entity, id: k)
            } catch let err as StoreError where err.category == .constraintViolation {
                try deletePartOfDeniedCascade(e, k)
                throw err
            }
        default:
            try mapped(entity: entity) { try writer.delete(entity, id: id) }
        }
    }

    /// `delete(where:)` under the cascade faults: the same cascade code as a single delete.
    func faultyDelete(_ entity: String, where predicate: StorePredicate) throws -> Int {
        guard let e = schema[entity] else { return try mapped(entity: entity) { try writer.delete(entity, where: predicate) } }
        _ = try schema.resolve(Query(entity, where: predicate))
        let matches = try writer.fetch(Query(entity, where: predicate))
        switch fault {
        case .cascadeOneLevelOnly:
            let pairs = try matches.flatMap { try secondLevelCascadePairs(e, $0.id) }
            return try withUnlinked(pairs) { try writer.delete(entity, where: predicate) }
        case .denyIgnoredThroughCascade:
            var pairs: [(String, Value, String, Value)] = []
            for m in matches {
                guard let p = try cascadedDenyPairs(e, m.id) else { return try writer.delete(entity, where: predicate) }
                pairs += p
            }
            return try withUnlinked(pairs) { try writer.delete(entity, where: predicate) }
        default:
            do {
                return try writer.delete(entity, where: predicate)
            } catch let err as StoreError where err.category == .constraintViolation {
                for m in matches { try deletePartOfDeniedCascade(e, m.id) }
                throw err
            }
        }
    }

    // MARK: WriteTransaction

    func insert(_ record: Record) throws {
        try op {
            try withWriter { _ in
                let r = try stored(record)
                try HeldBackMutations.refuseUnique(r, fault, in: writer)
                try mapped(entity: r.entity.name, isUnique: { !exists(r.entity.name, r.id) }) { try writer.insert(r) }
                fetchCache = [:]
                afterInsert([r])
            }
        }
    }

    func upsert(_ record: Record) throws {
        try op {
            try withWriter { _ in
                let r = try stored(record)
                var pairs: [(String, Value, String, Value)] = []
                if fault == .upsertDropsRelationships, let e = schema[r.entity.name], (try? e.checkedRecord(r)) != nil,
                   let k = try? e.checkedKey(r.id), exists(e.name, k) {
                    for rel in e.relationships {
                        for t in try writer.related(e.name, id: k, via: rel.name) { pairs.append((e.name, k, rel.name, t.id)) }
                    }
                }
                try withUnlinked(pairs) {
                    try mapped(entity: r.entity.name) { try writer.upsert(r) }
                }
                fetchCache = [:]
                afterInsert([r])
            }
        }
    }

    func update(_ entity: String, id: Value, set changes: [String: Value]) throws {
        try op {
            try withWriter { _ in
                let ch = try storedChanges(entity, changes)
                if fault == .updateNotAtomicAcrossAttributes && ch.count >= 2 {
                    for name in ch.keys.sorted() {
                        try mapped(entity: entity, changes: [name: ch[name]!]) { try writer.update(entity, id: id, set: [name: ch[name]!]) }
                    }
                    return
                }
                try mapped(entity: entity, changes: ch) { try writer.update(entity, id: id, set: ch) }
            }
        }
    }

    func delete(_ entity: String, id: Value) throws {
        try op {
            try withWriter { _ in
                var rows: [(String, Value)] = []
                let k = key(entity, id)
                if fault == .deleteLeavesManyToManyRowsForReinsert, let e = schema[entity], exists(entity, k) {
                    rows = try manyToManyLinks(e, k)
                }
                try faultyDelete(entity, id: id)
                rememberJoinRows(rows, of: entity, k)
                for r in schema[entity]?.relationships ?? [] { forgetLink(HeldBackLinkKey(entity: entity, id: k, relationship: r.name), nil) }
            }
        }
    }

    func insert(contentsOf records: [Record]) throws {
        try op {
            try withWriter { _ in
                var rs = try records.map(stored)
                if fault == .batchInsertCommittedInChunks && rs.count > 256 { return try HeldBackMutations.insertInChunks(rs, writer) }
                for r in rs { try HeldBackMutations.refuseUnique(r, fault, in: writer) }
                switch fault {
                case .batchDuplicateKeysLastWins:
                    var last: [HeldBackLinkKey: Int] = [:]
                    for (i, r) in rs.enumerated() { last[HeldBackLinkKey(entity: r.entity.name, id: key(r.entity.name, r.id), relationship: "")] = i }
                    if last.count < rs.count {
                        rs = rs.enumerated().filter { i, r in
                            last[HeldBackLinkKey(entity: r.entity.name, id: key(r.entity.name, r.id), relationship: "")] == i
                        }.map(\.element)
                    }
                case .batchNullInheritsPreviousRow:
                    var bound: [String: [Value]] = [:]
                    for i in rs.indices {
                        let name = rs[i].entity.name
                        if let prev = bound[name], prev.count == rs[i].values.count {
                            for j in rs[i].values.indices where rs[i].values[j].isNull { rs[i].values[j] = prev[j] }
                        }
                        bound[name] = rs[i].values
                    }
                case .batchReportsLastError:
                    var errors: [Error] = []
                    for r in rs {
                        do { _ = try schema.checkedRecords([r]) } catch { errors.append(error) }
                    }
                    if errors.count >= 2 { throw errors[errors.count - 1] }
                default:
                    break
                }
                let pkConflict: () -> Bool = {
                    var seen = Set<HeldBackLinkKey>()
                    for r in rs {
                        let k = self.key(r.entity.name, r.id)
                        if !seen.insert(HeldBackLinkKey(entity: r.entity.name, id: k, relationship: "")).inserted { return true }
                        if self.exists(r.entity.name, k) { return true }
                    }
                    return false
                }
                do {
                    try mapped(entity: rs.first?.entity.name ?? "", isUnique: { !pkConflict() }) { try writer.insert(contentsOf: rs) }
                } catch let err as StoreError where fault == .batchUniqueConflictNotAtomic && err.category == .conflict && !pkConflict() {
                    for r in rs { try writer.insert(r) }
                    throw err
                }
                if fault == .batchInsertSurvivesRollback { autocommittedBatches.append(rs) }
                fetchCache = [:]
                afterInsert(rs)
            }
        }
    }

    func update(_ entity: String, where predicate: StorePredicate, set changes: [String: Value]) throws -> Int {
        try op {
            try withWriter { _ in
                let ch = try storedChanges(entity, changes)
                switch fault {
                case .updateWhereCountsChangedRowsOnly:
                    let matches = try writer.fetch(Query(entity, where: predicate))
                    let n = try mapped(entity: entity, changes: ch) { try writer.update(entity, where: predicate, set: ch) }
                    guard let e = schema[entity], let checked = try? e.checkedChanges(ch) else { return n }
                    return matches.filter { m in checked.contains { m[$0.ordinal] != $0.value } }.count
                case .updateWhereChunkedByOffset:
                    _ = try schema.resolve(Query(entity, where: predicate))
                    if let e = schema[entity] { _ = try e.checkedChanges(ch) }
                    var offset = 0, n = 0
                    while true {
                        let page = try writer.fetch(Query(entity, where: predicate, limit: 16, offset: offset))
                        if page.isEmpty { break }
                        for r in page { try writer.update(entity, id: r.id, set: ch) }
                        n += page.count
                        offset += 16
                    }
                    return n
                default:
                    return try mapped(entity: entity, changes: ch) { try writer.update(entity, where: predicate, set: ch) }
                }
            }
        }
    }

    func delete(_ entity: String, where predicate: StorePredicate) throws -> Int {
        try op {
            try withWriter { _ in
                if fault == .deleteWherePagedWithOffset { return try HeldBackMutations.deletePaged(entity, predicate, writer) }
                switch fault {
                case .deleteWhereCountIncludesCascade:
                    let before = try schema.entities.reduce(0) { $0 + (try writer.count(Query($1.name))) }
                    _ = try mapped(entity: entity) { try writer.delete(entity, where: predicate) }
                    return try before - schema.entities.reduce(0) { $0 + (try writer.count(Query($1.name))) }
                case .deleteWhereNotAtomicOnDeny:
                    _ = try schema.resolve(Query(entity, where: predicate))
                    let matches = try writer.fetch(Query(entity, where: predicate))
                    if matches.count < 2 { return try writer.delete(entity, where: predicate) }
                    for m in matches where exists(entity, m.id) { try writer.delete(entity, id: m.id) }
                    return matches.count
                case .deleteWhereReappearsAfterReopen:
                    let matches = (try? writer.fetch(Query(entity, where: predicate))) ?? []
                    let n = try writer.delete(entity, where: predicate)
                    tombstones += matches
                    return n
                case .cascadeOneLevelOnly, .denyIgnoredThroughCascade, .cascadeDenyNotAtomic:
                    return try faultyDelete(entity, where: predicate)
                case .deleteLeavesManyToManyRowsForReinsert:
                    let matches = (try? writer.fetch(Query(entity, where: predicate))) ?? []
                    var rows: [(Value, [(String, Value)])] = []
                    if let e = schema[entity] { for m in matches { rows.append((m.id, try manyToManyLinks(e, m.id))) } }
                    let n = try writer.delete(entity, where: predicate)
                    for (id, r) in rows { rememberJoinRows(r, of: entity, id) }
                    return n
                default:
                    return try mapped(entity: entity) { try writer.delete(entity, where: predicate) }
                }
            }
        }
    }

    func link(_ entity: String, id: Value, _ relationship: String, to target: Value) throws {
        try op {
            try withWriter { _ in
                guard let e = schema[entity], let r = e.relationship(relationship) else {
                    try mapped(entity: entity) { try writer.link(entity, id: id, relationship, to: target) }
                    return
                }
                let (dest, inv) = schema.inverse(of: r)
                let sid = key(entity, id), tid = key(dest.name, target)
                let k = HeldBackLinkKey(entity: entity, id: sid, relationship: relationship)
                let mirror = HeldBackLinkKey(entity: dest.name, id: tid, relationship: inv.name)
                switch fault {
                case .relinkToOneLeavesOldInverse where !r.isToMany && inv.isToMany:
                    // Post.author := user: the old author's posts keep the post.
                    let old = (try? writer.related(entity, id: sid, via: relationship))?.first?.id
                    try writer.link(entity, id: id, relationship, to: target)
                    forgetLink(k, nil)
                    if let old, old != tid {
                        state.locked { state.ghosts[HeldBackLinkKey(entity: dest.name, id: old, relationship: inv.name), default: []].append(sid) }
                    }
                case .relinkToOneLeavesOldInverse where r.isToMany && !inv.isToMany:
                    // User.posts += post: the post's old author keeps it.
                    let old = (try? writer.related(dest.name, id: tid, via: inv.name))?.first?.id
                    try writer.link(entity, id: id, relationship, to: target)
                    if let old, old != sid {
                        state.locked { state.ghosts[HeldBackLinkKey(entity: entity, id: old, relationship: relationship), default: []].append(tid) }
                    }
                case .oneToOneNotExclusive where !r.isToMany && !inv.isToMany:
                    let previous = (try? writer.related(dest.name, id: tid, via: inv.name))?.first?.id
                    try writer.link(entity, id: id, relationship, to: target)
                    forgetLink(k, nil)
                    if let previous, previous != sid {
                        state.locked { state.ghosts[HeldBackLinkKey(entity: entity, id: previous, relationship: relationship), default: []].append(tid) }
                    }
                case .manyToManyDoubleLinkDuplicates where r.isToMany && inv.isToMany:
                    let already = try writer.related(entity, id: id, via: relationship).contains { $0.id == tid }
                    try writer.link(entity, id: id, relationship, to: target)
                    if already {
                        state.locked {
                            state.duplicates[k, default: [:]][tid, default: 0] += 1
                            state.duplicates[mirror, default: [:]][sid, default: 0] += 1
                        }
                    }
                case .relatedInLinkOrder where r.isToMany && inv.isToMany:
                    try writer.link(entity, id: id, relationship, to: target)
                    state.locked {
                        if !(state.linkOrder[k]?.contains(tid) ?? false) { state.linkOrder[k, default: []].append(tid) }
                        if !(state.linkOrder[mirror]?.contains(sid) ?? false) { state.linkOrder[mirror, default: []].append(sid) }
                    }
                case .linkToMissingTargetIgnored:
                    do {
                        try writer.link(entity, id: id, relationship, to: target)
                    } catch let err as StoreError where err.category == .notFound {
                        if exists(entity, sid) && !exists(dest.name, tid) { return }
                        throw err
                    }
                default:
                    try mapped(entity: entity) { try writer.link(entity, id: id, relationship, to: target) }
                }
                fetchCache = [:]
            }
        }
    }

    func unlink(_ entity: String, id: Value, _ relationship: String, from target: Value) throws {
        try op {
            try withWriter { _ in
                guard let e = schema[entity], let r = e.relationship(relationship) else {
                    try mapped(entity: entity) { try writer.unlink(entity, id: id, relationship, from: target) }
                    return
                }
                let (dest, inv) = schema.inverse(of: r)
                let sid = key(entity, id), tid = key(dest.name, target)
                switch fault {
                case .unlinkManyToManyRemovesAll where isManyToMany(r):
                    let all = try writer.related(entity, id: id, via: relationship)
                    if all.contains(where: { $0.id == tid }) || exists(dest.name, tid) {
                        for t in all { try writer.unlink(entity, id: id, relationship, from: t.id) }
                    } else {
                        try writer.unlink(entity, id: id, relationship, from: target)
                    }
                case .unlinkFromMissingSourceIgnored:
                    do {
                        try writer.unlink(entity, id: id, relationship, from: target)
                    } catch let err as StoreError where err.category == .notFound && !exists(entity, sid) {
                        return
                    }
                default:
                    try mapped(entity: entity) { try writer.unlink(entity, id: id, relationship, from: target) }
                }
                forgetLink(HeldBackLinkKey(entity: entity, id: sid, relationship: relationship), tid)
                forgetLink(HeldBackLinkKey(entity: dest.name, id: tid, relationship: inv.name), sid)
                fetchCache = [:]
            }
        }
    }
}

import Foundation
import StoreCore

/// A transaction that forwards to a correct one, bending the behaviour its fault names.
final class FaultyTransaction: WriteTransaction {
    let fault: Fault?
    let state: FaultState
    private let reader: (any ReadTransaction)?
    private let writer: (any WriteTransaction)?
    private let autocommit: (any Repository)?
    /// Set by a failed update-where or delete-where under `failedBatchOperationPoisonsTransaction`.
    private var poisoned = false

    init(fault: Fault?, state: FaultState, read: any ReadTransaction) {
        self.fault = fault; self.state = state; reader = read; writer = nil; autocommit = nil
    }
    init(fault: Fault?, state: FaultState, write: any WriteTransaction) {
        self.fault = fault; self.state = state; reader = write; writer = write; autocommit = nil
    }
    init(fault: Fault?, state: FaultState, autocommitRepository: any Repository) {
        self.fault = fault; self.state = state; reader = nil; writer = nil; autocommit = autocommitRepository
    }

    var schema: Schema { reader?.schema ?? autocommit!.schema }

    /// Under `firstReadBeforeSnapshot`: the store the first read goes to, outside the transaction.
    var firstReadOutside: (any Repository)?

    /// Runs a read on the wrapped transaction, or in a fresh one (for `noSnapshot`, and the
    /// first read under `firstReadBeforeSnapshot`).
    private func onReader<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        if let outside = firstReadOutside {
            firstReadOutside = nil
            return try outside.read(body)
        }
        if let reader { return try body(reader) }
        return try autocommit!.read(body)
    }

    var w: any WriteTransaction {
        get throws {
            guard let writer else { throw StoreError(.unsupported, "write in a read transaction") }
            if poisoned { throw StoreError(.io, "the transaction was aborted by an earlier failed operation") }
            return writer
        }
    }

    /// A read transaction of a store whose readers see what an open write has done.
    private var readsDirty: Bool { writer == nil && fault?.isDirtyRead == true }

    // MARK: Query bending

    private func bend(_ q: Query) -> Query {
        var q = q
        q.predicate = bend(q.predicate)
        switch fault {
        case .ignoredSort: q.sort = []
        case .offsetOffByOne: q.offset = max(0, q.offset - 1)
        case .limitIgnored: q.limit = nil
        default: break
        }
        return q
    }

    private func bend(_ p: StorePredicate) -> StorePredicate {
        switch p {
        case .constant: return p
        case .and(let ps): return .and(ps.map(bend))
        case .or(let ps): return .or(ps.map(bend))
        case .not(let x): return .not(bend(x))
        case .condition(var c):
            if fault == .caseSensitiveC { c.options.remove(.caseInsensitive) }
            if fault == .diacriticSensitiveD { c.options.remove(.diacriticInsensitive) }
            if fault == .relationshipComparedAsOwnKey, c.keyPath.components.count == 1, !c.keyPath.isCount,
               schema.entities.contains(where: { $0.relationship(c.keyPath.components[0]) != nil }) {
                c.keyPath = "id"
                c.quantifier = .single
            }
            if fault == .orderedCountOffByOne { c = bendOrderedCount(c) }
            if fault == .embeddedKeyPathsMatchNothing, Fault.leadsThroughOwning(c.keyPath, schema) { return .constant(false) }
            return fault?.bendCollection(c, schema) ?? .condition(c)
        }
    }

    private func bend(_ changes: [String: Value], of entity: String, batch: Bool) throws -> [String: Value] {
        var changes = try changes.mapValues { try written($0, key: false) }
        switch fault {
        case .droppedFieldOnUpdate:
            guard let first = changes.keys.sorted().first else { return changes }
            return [first: changes[first]!]
        case .updateWhereIgnoresNil where batch:
            changes = changes.filter { !$0.value.isNull }
        case .requiredNilChangeSkipped where batch:
            let e = schema[entity]
            changes = changes.filter { k, v in !v.isNull || e?.attributes.first { $0.name == k }?.isOptional != false }
        default: break
        }
        return changes
    }

    // MARK: Values as a faulty store writes and reads them

    /// A value on its way into the store.
    private func written(_ v: Value, key: Bool) throws -> Value {
        switch (fault, v) {
        case (.valueLimitOffByOne, .string(let s)) where s.utf8.count == Limits.maxValueBytes:
            throw StoreError(.invalidValue, "a value of \(Limits.maxValueBytes) bytes reaches the limit")
        case (.valueLimitOffByOne, .bytes(let b)) where b.count == Limits.maxValueBytes:
            throw StoreError(.invalidValue, "a value of \(Limits.maxValueBytes) bytes reaches the limit")
        case (.keyLimitOffByOne, .string(let s)) where key && s.utf8.count == Limits.maxKeyBytes:
            throw StoreError(.invalidValue, "a key of \(Limits.maxKeyBytes) bytes reaches the limit")
        case (.longStringKeysTruncated, .string(let s)) where key && s.utf8.count > 255:
            return .string(String(decoding: s.utf8.prefix(255), as: UTF8.self))
        case (.largeValuesTruncated, .string(let s)) where s.utf8.count > 1 << 16 && s.utf8.count <= Limits.maxValueBytes:
            return .string(String(decoding: s.utf8.prefix(1 << 16), as: UTF8.self))
        case (.largeValuesTruncated, .bytes(let b)) where b.count > 1 << 16 && b.count <= Limits.maxValueBytes:
            return .bytes(Array(b.prefix(1 << 16)))
        case (.stringsNormalizedToNFC, .string(let s)):
            return .string(s.precomposedStringWithCanonicalMapping)
        case (.datesTruncatedToMilliseconds, .date(let d)):
            return .date(Date(timeIntervalSince1970: (d.timeIntervalSince1970 * 1000).rounded(.down) / 1000))
        default:
            return fault?.writtenCollection(v) ?? v
        }
    }

    private func written(_ r: Record) throws -> Record {
        var r = r
        for i in r.values.indices { r.values[i] = try written(r.values[i], key: i == r.entity.primaryKeyOrdinal) }
        return r
    }

    /// A primary key as the store looks it up.
    private func key(_ id: Value) -> Value {
        if fault == .longStringKeysTruncated, case .string(let s) = id, s.utf8.count > 255 {
            return .string(String(decoding: s.utf8.prefix(255), as: UTF8.self))
        }
        return id
    }

    /// A record on its way out of the store.
    private func read(_ stored: Record) -> Record {
        var r = fault?.readCollections(stored) ?? stored
        guard fault == .largeValuesLostOnReopen && state.reopened else { return r }
        for i in r.values.indices {
            switch r.values[i] {
            case .string(let s) where s.utf8.count > 1 << 16: r.values[i] = .string("")
            case .bytes(let b) where b.count > 1 << 16: r.values[i] = .bytes([])
            default: break
            }
        }
        return r
    }

    // MARK: Reads

    func fetch(_ entity: String, id: Value) throws -> Record? {
        let id = key(id)
        if readsDirty {
            let k = RecordKey(entity, id), p = state.pending
            if fault == .dirtyReadOfInserts, let r = p.records[k] { return r }
            if fault == .dirtyReadOfDeletes, p.deleted.contains(k) { return nil }
        }
        return try onReader { try $0.fetch(entity, id: id) }.map(read)
    }

    func fetch(_ query: Query) throws -> [Record] {
        var rows: [Record]
        if let fault, fault.bendsQueryEvaluation {
            rows = try onReader { try FaultyEvaluator(fault, state: state).fetch(query, in: $0) }
        } else {
            rows = try onReader { try $0.fetch(bend(query)) }
        }
        if readsDirty { rows = try dirty(rows, query) }
        return rows.map(read)
    }

    /// What a reader of dirty pages finds for `q`: the open write's versions of records, its
    /// new records that match, without its deleted ones.
    private func dirty(_ rows: [Record], _ q: Query) throws -> [Record] {
        let p = state.pending
        switch fault {
        case .dirtyReadOfInserts:
            var out = rows.map { p.records[RecordKey(q.entity, $0.id)] ?? $0 }
            let rq = try schema.resolve(q)
            for r in p.inserted[q.entity] ?? [] where try onReader({ try QueryEvaluator().matches(rq.predicate, r, in: $0) }) {
                out.append(r)
            }
            return out
        case .dirtyReadOfDeletes:
            return rows.filter { !p.deleted.contains(RecordKey(q.entity, $0.id)) }
        default:
            return rows
        }
    }

    private var iterating = 0
    func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws {
        if fault == .nestedIterationEmpty && iterating > 0 { return }
        iterating += 1
        defer { iterating -= 1 }
        if fault?.bendsQueryEvaluation == true || readsDirty || (fault == .largeValuesLostOnReopen && state.reopened) {
            for r in try fetch(query) { try body(r) }
            return
        }
        try onReader { try $0.forEach(bend(query), body) }
    }

    func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws {
        let query = fault == .packedIgnoresPaging ? Query(query.entity, where: query.predicate, sort: query.sort) : query
        try PackedRowBuilder.packEach({ emit in
            try forEach(query) { row in
                var r = Record(row)
                if fault == .packedEmptyStringIsNull || fault == .packedDatesCutToMilliseconds { r = Fault.bentPacked(r, fault) }
                if fault == .packedNullsReadAsZero {
                    for (i, t) in r.entity.attributeTypes.enumerated() where r.values[i] == .null {
                        if t == .int64 { r.values[i] = .int64(0) } else if t == .double { r.values[i] = .double(0) }
                    }
                }
                try emit(r)
            }
        }, body)
    }

    func count(_ query: Query) throws -> Int {
        if fault?.bendsQueryEvaluation == true || readsDirty { return try fetch(query).count }
        return try onReader { try $0.count(bend(query)) } + (fault == .wrongCount ? 1 : 0)
    }

    func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
        let id = key(id)
        var all = try onReader { try $0.related(entity, id: id, via: relationship) }.map(read)
        guard let e = schema[entity], let r = e.relationship(relationship) else { return all }
        let side = RecordKey(entity, id, relationship)
        if fault == .inverseNotUpdated && Self.isInverseSide(e, r) { return [] }
        if fault == .orderedRelatedInKeyOrder && r.isOrdered { all.sort { Value.compare($0.id, $1.id) == .orderedAscending } }
        if fault == .relatedOrderedAsText && !r.isOrdered { all.sort { $0.id.description < $1.id.description } }
        if fault == .embeddedLinksLostOnReopen && state.reopened && schema.ownership(e, r) != nil { return [] }
        if fault == .relatedInLinkOrder {
            all = all.enumerated().sorted { a, b in
                let (x, y) = (state.linkSequence(side, a.element.id), state.linkSequence(side, b.element.id))
                return x != y ? x < y : a.offset < b.offset
            }.map(\.element)
        }
        for extra in state.extraLinks(side) {
            if let d = try onReader({ try $0.fetch(r.destination, id: extra) }) { all.append(d) }
        }
        if all.isEmpty, let stale = state.staleLink(side), let d = try onReader({ try $0.fetch(r.destination, id: stale) }) {
            all = [d]
        }
        if readsDirty {
            let p = state.pending
            if fault == .dirtyReadOfLinks {
                let gone = Set((p.unlinked[side] ?? []).map { RecordKey("", $0) })
                all.removeAll { gone.contains(RecordKey("", $0.id)) }
                for t in p.linked[side] ?? [] where !all.contains(where: { RecordKey("", $0.id) == RecordKey("", t) }) {
                    if let d = try onReader({ try $0.fetch(r.destination, id: t) }) { all.append(d) }
                }
            }
            if fault == .dirtyReadOfDeletes { all.removeAll { p.deleted.contains(RecordKey(r.destination, $0.id)) } }
        }
        return all
    }

    /// Whether `r` is the side of its pair that comes second by entity, then relationship name
    /// (what `inverseNotUpdated` hides).
    static func isInverseSide(_ e: Entity, _ r: Relationship) -> Bool {
        (e.name, r.name) > (r.destination, r.inverse)
    }

    /// Whether `r` is the side of its pair declared second in the schema (by entity, then
    /// relationship): the one a store that keeps each link on its "owning", first-declared side
    /// handles as the inverse.
    func isDeclaredSecond(_ e: Entity, _ r: Relationship) -> Bool {
        guard let d = schema[r.destination] else { return false }
        let mine = e.relationships.firstIndex { $0.name == r.name } ?? 0, theirs = d.relationships.firstIndex { $0.name == r.inverse } ?? 0
        return (e.index, mine) > (d.index, theirs)
    }

    // MARK: Writes

    func insert(_ record: Record) throws {
        let record = try written(record)
        if fault == .duplicateKeyAccepted { return try upsert(record) }
        try refuseUniqueValues(record)
        try w.insert(record)
        noteWritten(record, new: true)
    }

    func upsert(_ record: Record) throws {
        let record = try written(record)
        if fault == .upsertReplacesConflictingRecord, let e = schema[record.entity.name] {
            for index in e.indexes where index.isUnique {
                let same = StorePredicate.and(index.attributes.map { .condition(Condition(KeyPathExpression($0), .equal(record[$0]))) })
                for other in try w.fetch(Query(e.name, where: same)) where RecordKey(e.name, other.id) != RecordKey(e.name, record.id) {
                    try w.delete(e.name, id: other.id)
                }
            }
        }
        let existed = fault?.isDirtyRead == true ? try w.fetch(record.entity.name, id: record.id) != nil : false
        try w.upsert(record)
        noteWritten(record, new: !existed)
    }

    func update(_ entity: String, id: Value, set changes: [String: Value]) throws {
        let id = key(id)
        if fault == .emptyUpdateOfMissingSucceeds && changes.isEmpty { return }
        if fault == .equivalentSpellingUpdateIgnored, let stored = try w.fetch(entity, id: id) {
            let changes = changes.filter { stored[$0.key] != $0.value }      // Swift's ==: "é" == "e\u{301}"
            return try w.update(entity, id: id, set: changes)
        }
        do {
            try w.update(entity, id: id, set: try bend(changes, of: entity, batch: false))
        } catch let e as StoreError where e.category == .notFound && fault == .updateOfMissingIgnored {}
        if fault == .dirtyReadOfInserts, let r = try w.fetch(entity, id: id) { noteWritten(r, new: false) }
    }

    func delete(_ entity: String, id: Value) throws {
        if fault == .orderedDeleteFillsGapWithLast { return try deleteFillingGapsWithLast(entity, id) }
        let id = key(id)
        try unlinkBeforeDelete(entity, [id])
        try noteFreedUniqueValues(entity, id)
        let doomed = fault == .dirtyReadOfDeletes ? try reachedByCascade(entity, [id], includingRoots: true) : []
        do {
            try w.delete(entity, id: id)
        } catch let e as StoreError where e.category == .constraintViolation && fault == .cascadeDeletesBeforeDenyCheck {
            try deleteCascadedChildren(entity, id)
            throw e
        }
        if !doomed.isEmpty { state.updatePending { $0.deleted.formUnion(doomed) } }
    }

    func insert(contentsOf records: [Record]) throws {
        var records = try records.map(written)
        switch fault {
        case .nonAtomicBatch:
            for r in records { try insert(r) }
            return
        case .batchDuplicateKeepsLast, .batchDuplicateKeepsFirst:
            var seen = Set<RecordKey>()
            let ordered = fault == .batchDuplicateKeepsLast ? records.reversed() : records
            records = ordered.filter { seen.insert(RecordKey($0.entity.name, $0.id)).inserted }
            if fault == .batchDuplicateKeepsLast { records.reverse() }
        case .batchUniqueValueKeepsFirst:
            var seen = Set<RecordKey>()
            records = records.filter { r in
                (schema[r.entity.name]?.indexes ?? []).filter(\.isUnique).allSatisfy { index in
                    seen.insert(RecordKey(r.entity.name, .string(index.attributes.map { "\(r[$0])" }.joined(separator: "\u{2}")))).inserted
                }
            }
        case .batchAssumesOneEntity:
            records = records.filter { $0.entity.name == records.first?.entity.name }
        case .batchSkipsUnknownEntities:
            records = records.filter { schema[$0.entity.name] != nil }
        case .uniqueCheckedPerChunk:
            records = Self.chunkedUniqueness(records, schema)
        case .batchCommittedInChunks where records.count > 256:
            for start in stride(from: 0, to: records.count, by: 256) {
                do { try w.insert(contentsOf: Array(records[start..<min(start + 256, records.count)])) } catch where start > 0 { return }
            }
            return
        default: break
        }
        for r in records { try refuseUniqueValues(r) }
        try w.insert(contentsOf: records)
        for r in records { noteWritten(r, new: true) }
    }

    func update(_ entity: String, where predicate: StorePredicate, set changes: [String: Value]) throws -> Int {
        do {
            let changes = try bend(changes, of: entity, batch: true)
            var unchanged = 0
            if fault == .updateWhereCountsChangedOnly, let e = schema[entity] {
                let stored = try e.checkedChanges(changes)
                unchanged = try w.fetch(Query(entity, where: predicate)).filter { r in stored.allSatisfy { r[$0.ordinal] == $0.value } }.count
            }
            let n = try w.update(entity, where: bend(predicate), set: changes)
            if fault == .dirtyReadOfInserts {
                for r in try w.fetch(Query(entity, where: predicate)) { noteWritten(r, new: false) }
            }
            return n - unchanged
        } catch {
            if fault == .failedBatchOperationPoisonsTransaction { poisoned = true }
            throw error
        }
    }

    func delete(_ entity: String, where predicate: StorePredicate) throws -> Int {
        if fault == .deleteWherePagedWithOffset { return try deletePagedWithOffset(entity, predicate) }
        do {
            let ids = try w.fetch(Query(entity, where: predicate)).map(\.id)
            try unlinkBeforeDelete(entity, ids)
            for id in ids { try noteFreedUniqueValues(entity, id) }
            var own = 0
            if fault == .deleteWhereCountsOwnDeletesOnly {
                var gone = Set<RecordKey>()
                for id in ids where !gone.contains(RecordKey(entity, id)) {
                    own += 1
                    gone.formUnion(try reachedByCascade(entity, [id], includingRoots: true))
                }
            }
            let doomed = fault == .dirtyReadOfDeletes ? try reachedByCascade(entity, ids, includingRoots: true) : []
            let n: Int
            do {
                n = try w.delete(entity, where: predicate)
            } catch let e as StoreError where e.category == .constraintViolation && fault == .cascadeDeletesBeforeDenyCheck {
                for id in ids { try deleteCascadedChildren(entity, id) }
                throw e
            }
            if !doomed.isEmpty { state.updatePending { $0.deleted.formUnion(doomed) } }
            return fault == .deleteWhereCountsOwnDeletesOnly ? own : n
        } catch {
            if fault == .failedBatchOperationPoisonsTransaction { poisoned = true }
            throw error
        }
    }

    func link(_ entity: String, id: Value, _ relationship: String, to target: Value) throws {
        if fault == .orderedInverseLinkPrepends { return try linkPrependingToOrderedInverse(entity, id, relationship, target) }
        let (id, target) = (key(id), key(target))
        guard let e = schema[entity], let r = e.relationship(relationship) else {
            return try w.link(entity, id: id, relationship, to: target)
        }
        let inverse = schema.inverse(of: r).relationship
        let side = RecordKey(entity, id, relationship), back = RecordKey(r.destination, target, r.inverse)
        let linked = { try self.w.related(entity, id: id, via: relationship).contains { RecordKey("", $0.id) == RecordKey("", target) } }
        var duplicate = false
        switch fault {
        case .toManyRelinkDuplicates where r.isToMany && !inverse.isToMany:
            duplicate = try linked()
        case .relinkFromInverseDuplicates where r.isToMany && inverse.isToMany && isDeclaredSecond(e, r):
            duplicate = try linked()
        default: break
        }
        if fault == .secondOwnerMovesEmbedded { try Fault.unlinkOtherOwner(e, id, r, target, in: try w) }
        var previous: Value?
        if fault == .oneToOneInverseSideKeepsOldPartner && !r.isToMany && !inverse.isToMany && isDeclaredSecond(e, r) {
            previous = try w.related(r.destination, id: target, via: r.inverse).first?.id
        }
        try w.link(entity, id: id, relationship, to: target)
        state.setStaleLink(side, nil)
        if let previous, RecordKey("", previous) != RecordKey("", id) {
            state.setStaleLink(RecordKey(entity, previous, relationship), target)
        }
        if duplicate {
            state.addExtraLink(side, target)
            if fault == .relinkFromInverseDuplicates { state.addExtraLink(back, id) }
        }
        if fault == .relatedInLinkOrder {
            state.noteLinked(side, target)
            state.noteLinked(back, id)
        }
        if fault == .dirtyReadOfLinks {
            state.updatePending { p in
                p.linked[side, default: []].append(target)
                p.linked[back, default: []].append(id)
            }
        }
    }

    func unlink(_ entity: String, id: Value, _ relationship: String, from target: Value) throws {
        if fault == .orderedUnlinkFillsGapWithLast { return try unlinkFillingGapWithLast(entity, id, relationship, target) }
        let (id, target) = (key(id), key(target))
        if fault == .unlinkOfAbsentLinkIsNotFound, try w.fetch(entity, id: id) != nil,
           !(try w.related(entity, id: id, via: relationship).contains { $0.id.isIdentical(to: target) }) {
            throw StoreError(.notFound, "\(entity) \(id) is not linked to \(target)")
        }
        if let e = schema[entity], let r = e.relationship(relationship) {
            if fault == .unlinkFromInverseSideIgnored && isDeclaredSecond(e, r) { return }
            if fault == .unlinkToOneIgnoresTarget && !r.isToMany {
                if let current = try w.related(entity, id: id, via: relationship).first {
                    try w.unlink(entity, id: id, relationship, from: current.id)
                }
                return
            }
            if fault == .dirtyReadOfLinks {
                state.updatePending { p in
                    p.unlinked[RecordKey(entity, id, relationship), default: []].append(target)
                    p.unlinked[RecordKey(r.destination, target, r.inverse), default: []].append(id)
                }
            }
        }
        do {
            try w.unlink(entity, id: id, relationship, from: target)
        } catch let e as StoreError where e.category == .notFound && fault == .unlinkOfMissingSourceIgnored {}
    }

    // MARK: Helpers

    /// Remembers a record written: its insertion order, and for readers of dirty pages, the
    /// record itself.
    private func noteWritten(_ r: Record, new: Bool) {
        if fault == .tiesBrokenByInsertionOrder && new { state.noteInserted(r.entity.name, r.id) }
        if fault == .dirtyReadOfInserts {
            state.updatePending { p in
                p.records[RecordKey(r.entity.name, r.id)] = r
                if new { p.inserted[r.entity.name, default: []].append(r) }
            }
        }
    }

    /// The records a delete of `ids` would reach through cascade rules (and the roots).
    private func reachedByCascade(_ entity: String, _ ids: [Value], includingRoots: Bool) throws -> Set<RecordKey> {
        var seen = Set(ids.map { RecordKey(entity, $0) })
        var queue = ids.map { (entity, $0) }
        var reached = includingRoots ? seen : []
        while let (name, id) = queue.popLast() {
            guard let e = schema[name] else { continue }
            for r in e.relationships where r.deleteRule == .cascade {
                for d in try w.related(name, id: id, via: r.name) where seen.insert(RecordKey(r.destination, d.id)).inserted {
                    reached.insert(RecordKey(r.destination, d.id))
                    queue.append((r.destination, d.id))
                }
            }
        }
        return reached
    }

    /// For `cascadeDeletesBeforeDenyCheck`: deletes what the record's cascade rules reach, one
    /// child at a time, each child that can go.
    private func deleteCascadedChildren(_ entity: String, _ id: Value) throws {
        guard let e = schema[entity] else { return }
        for r in e.relationships where r.deleteRule == .cascade {
            for d in (try? w.related(entity, id: id, via: r.name)) ?? [] {
                try? w.delete(r.destination, id: d.id)
            }
        }
    }

    /// For `cascadeNotApplied`, `denyIgnored` and `denyIgnoredInCascade`: removes the links the
    /// rule would act on.
    private func unlinkBeforeDelete(_ entity: String, _ ids: [Value]) throws {
        switch fault {
        case .cascadeNotApplied: try unlink(rule: .cascade, of: ids.map { (entity, $0) })
        case .denyIgnored: try unlink(rule: .deny, of: ids.map { (entity, $0) })
        case .denyIgnoredInCascade:
            let roots = Set(ids.map { RecordKey(entity, $0) })
            var reached: [(String, Value)] = []
            var queue = ids.map { (entity, $0) }
            var seen = roots
            while let (name, id) = queue.popLast() {
                guard let e = schema[name] else { continue }
                for r in e.relationships where r.deleteRule == .cascade {
                    for d in try w.related(name, id: id, via: r.name) where seen.insert(RecordKey(r.destination, d.id)).inserted {
                        reached.append((r.destination, d.id))
                        queue.append((r.destination, d.id))
                    }
                }
            }
            try unlink(rule: .deny, of: reached)
        case .embeddedCascadeSkipped: try Fault.unlinkEmbedded(of: ids.map { (entity, $0) }, in: try w)
        default: return
        }
    }

    private func unlink(rule: DeleteRule, of records: [(String, Value)]) throws {
        for (name, id) in records {
            guard let e = schema[name] else { continue }
            for r in e.relationships where r.deleteRule == rule {
                for d in (try? w.related(name, id: id, via: r.name)) ?? [] {
                    try w.unlink(name, id: id, r.name, from: d.id)
                }
            }
        }
    }
}

import Foundation
import StoreCore

// The uniqueness, verify and compaction faults' helpers.

extension Fault {
    /// `verifyWritesSomething`: rewrites the first record that has a non-key attribute.
    static func rewriteOneRecord(_ repo: any Repository) throws {
        try repo.write { tx in
            for e in tx.schema.entities {
                guard let r = try tx.fetch(Query(e.name, limit: 1)).first,
                      let a = e.attributes.first(where: { $0.name != e.attributes[e.primaryKeyOrdinal].name }) else { continue }
                try tx.update(e.name, id: r.id, set: [a.name: r[a.name]])
                return
            }
        }
    }

    /// `compactionDropsLinks`: unlinks every link of every many-to-many relationship.
    static func dropManyToManyLinks(_ repo: any Repository) throws {
        try repo.write { tx in
            for e in tx.schema.entities {
                for rel in e.relationships where rel.cardinality == .toMany && !rel.isOrdered {
                    guard let inverse = tx.schema[rel.destination]?.relationships.first(where: { $0.name == rel.inverse }),
                          inverse.cardinality == .toMany else { continue }
                    for owner in try tx.fetch(Query(e.name)).map(\.id) {
                        for t in try tx.related(e.name, id: owner, via: rel.name).map(\.id) { try tx.unlink(e.name, id: owner, rel.name, from: t) }
                    }
                }
            }
        }
    }
}

extension Fault {
    /// The packed-row faults: an empty string read as null, dates cut to milliseconds.
    static func bentPacked(_ r: Record, _ fault: Fault?) -> Record {
        var r = r
        for (i, v) in r.values.enumerated() {
            if fault == .packedEmptyStringIsNull, v == .string("") { r.values[i] = .null }
            if fault == .packedDatesCutToMilliseconds, case .date(let d) = v {
                r.values[i] = .date(Date(timeIntervalSince1970: (d.timeIntervalSince1970 * 1000).rounded(.down) / 1000))
            }
        }
        return r
    }
}

extension FaultyTransaction {
    /// `deleteWherePagedWithOffset`: pages of 100 matches with an offset that grows while the
    /// matches shrink, so every other page is skipped.
    func deletePagedWithOffset(_ entity: String, _ predicate: StorePredicate) throws -> Int {
        var deleted = 0, offset = 0
        while true {
            let page = try w.fetch(Query(entity, where: predicate, limit: 100, offset: offset)).map(\.id)
            if page.isEmpty { return deleted }
            for id in page { try w.delete(entity, id: id) }
            deleted += page.count
            offset += 100
        }
    }

    /// Before an insert: the unique-value faults refuse what a correct store accepts.
    func refuseUniqueValues(_ record: Record) throws {
        guard [.freedUniqueValueStaysTaken, .uniqueComparedCaseInsensitively, .uniqueNullsCollide].contains(fault),
              let e = schema[record.entity.name], e == record.entity, record.values.count == e.attributes.count else { return }
        for index in e.indexes where index.isUnique {
            let values = index.attributes.map { record[$0] }
            let key = RecordKey(e.name, .string(values.map(\.description).joined(separator: "\u{2}")), index.attributes.joined(separator: ","))
            if fault == .freedUniqueValueStaysTaken, state.isFreed(key) { throw StoreError(.conflict, "the value was taken once") }
            let folded = fault == .uniqueComparedCaseInsensitively && values.contains { $0.stringValue != nil }
            let nulls = fault == .uniqueNullsCollide && values.contains(.null)
            guard folded || nulls else { continue }
            let same = StorePredicate.and(zip(index.attributes, values).map { name, v in
                v.stringValue.map { s in .condition(Condition(KeyPathExpression(name), .equal(.string(s)), options: [.caseInsensitive])) }
                    ?? .condition(Condition(KeyPathExpression(name), .equal(v)))
            })
            if try w.count(Query(e.name, where: same)) > 0 { throw StoreError(.conflict, "a record holds that unique value") }
        }
    }

    /// Before a delete: `freedUniqueValueStaysTaken` remembers the record's unique values.
    func noteFreedUniqueValues(_ entity: String, _ id: Value) throws {
        guard fault == .freedUniqueValueStaysTaken, let e = schema[entity], let r = try w.fetch(entity, id: id) else { return }
        for index in e.indexes where index.isUnique {
            let values = index.attributes.map { r[$0] }
            state.free(RecordKey(e.name, .string(values.map(\.description).joined(separator: "\u{2}")), index.attributes.joined(separator: ",")))
        }
    }

    /// `uniqueCheckedPerChunk`: a batch over 256 records loses the records of later chunks whose
    /// unique values an earlier chunk holds.
    static func chunkedUniqueness(_ records: [Record], _ schema: Schema) -> [Record] {
        guard records.count > 256 else { return records }
        var taken = Set<RecordKey>()
        var kept: [Record] = []
        for (i, r) in records.enumerated() {
            let keys = (schema[r.entity.name]?.indexes ?? []).filter(\.isUnique).map { index in
                RecordKey(r.entity.name, .string(index.attributes.map { "\(r[$0])" }.joined(separator: "\u{2}")))
            }
            if i >= 256, keys.contains(where: taken.contains) { continue }
            if i < 256 { taken.formUnion(keys) }
            kept.append(r)
        }
        return kept
    }
}

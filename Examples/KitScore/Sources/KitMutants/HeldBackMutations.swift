import Foundation
import StoreCore

/// The mutations reported by the outside test (issue 36), where they need more than a line
/// in `HeldBackRepository`.
enum HeldBackMutations {
    /// `compactionDropsLinks`: unlinks every link of every many-to-many relationship, then
    /// closes the store.
    static func dropManyToManyLinks(_ repo: any Repository) throws {
        defer { try? repo.close() }
        try repo.write { tx in
            for e in tx.schema.entities {
                for r in e.relationships where r.isToMany && !r.isOrdered && tx.schema.inverse(of: r).relationship.isToMany {
                    for id in try tx.fetch(Query(e.name)).map(\.id) {
                        for t in try tx.related(e.name, id: id, via: r.name) { try tx.unlink(e.name, id: id, r.name, from: t.id) }
                    }
                }
            }
        }
    }

    /// `verifySkipsEngineCheck`: the logical checks alone.
    static func logicalChecksOnly(_ repo: any Repository) throws -> VerificationReport {
        try repo.read { tx in
            var report = VerificationReport()
            LogicalVerifier.check(tx, into: &report)
            return report
        }
    }

    /// `uniqueComparedCaseInsensitively` and `uniqueNullsConflict`: refuses a record whose
    /// unique values another holds, by those rules.
    static func refuseUnique(_ r: Record, _ fault: HeldBackFault?, in tx: any WriteTransaction) throws {
        guard fault == .uniqueComparedCaseInsensitively || fault == .uniqueNullsConflict,
              let e = tx.schema[r.entity.name], r.values.count == e.attributes.count else { return }
        for index in e.indexes where index.isUnique {
            let values = index.attributes.map { r[$0] }
            let folded = fault == .uniqueComparedCaseInsensitively && values.contains { $0.stringValue != nil }
            guard folded || (fault == .uniqueNullsConflict && values.contains(.null)) else { continue }
            let same = StorePredicate.and(zip(index.attributes, values).map { name, v in
                .condition(Condition(KeyPathExpression(name), .equal(v), options: v.stringValue == nil ? [] : [.caseInsensitive]))
            })
            if try tx.count(Query(e.name, where: same)) > 0 {
                throw StoreError(.conflict, "\(e.name) (\(index.attributes.joined(separator: ", "))) is taken")
            }
        }
    }

    /// `batchInsertCommittedInChunks`: chunks of 256, a failing one after the first dropped.
    static func insertInChunks(_ records: [Record], _ tx: any WriteTransaction) throws {
        for start in stride(from: 0, to: records.count, by: 256) {
            do { try tx.insert(contentsOf: Array(records[start..<min(start + 256, records.count)])) } catch where start > 0 { return }
        }
    }

    /// `deleteWherePagedWithOffset`: pages of 100 matches at a growing offset.
    static func deletePaged(_ entity: String, _ predicate: StorePredicate, _ tx: any WriteTransaction) throws -> Int {
        var deleted = 0
        var offset = 0
        while case let page = try tx.fetch(Query(entity, where: predicate, limit: 100, offset: offset)).map(\.id), !page.isEmpty {
            for id in page { try tx.delete(entity, id: id) }
            deleted += page.count
            offset += 100
        }
        return deleted
    }

    /// The packed-row mutations: an empty string read as null, dates cut to milliseconds.
    static func packed(_ r: Record, _ fault: HeldBackFault?) -> Record {
        var r = r
        for (i, v) in r.values.enumerated() {
            if fault == .packedReadsEmptyStringAsNull, v.stringValue == "" { r.values[i] = .null }
            if fault == .packedReadsDatesToMilliseconds, case .date(let d) = v {
                r.values[i] = .date(Date(timeIntervalSince1970: (d.timeIntervalSince1970 * 1000).rounded(.down) / 1000))
            }
        }
        return r
    }
}

extension HeldBackReadTransaction {
    /// Packed rows of `forEach` (as the protocol's default), bent by the packed-row mutations.
    func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws {
        let q = fault == .packedReadsIgnorePaging ? Query(query.entity, where: query.predicate, sort: query.sort) : query
        try PackedRowBuilder.packEach({ emit in try forEach(q) { try emit(HeldBackMutations.packed(Record($0), fault)) } }, body)
    }
}

import CLMDB
import StoreCore

extension LMDBTransaction {
    /// Cross-checks the store's own databases entry by entry, below the protocol: every record
    /// decodes and holds its key; every index entry points to a record whose values give that
    /// entry, and each index has one entry per record; every link starts at a record, reaches
    /// a record of the destination, and is stored on the inverse side too. Run only after the
    /// page walk found the structure sound (liblmdb trusts its pages).
    func crossCheck(into report: inout VerificationReport) {
        var records: [[Record]?] = []
        var keys: [Set<[UInt8]>] = []
        for e in schema.entities {
            let (r, k) = storedRecords(e, &report)
            records.append(r)
            keys.append(k)
        }
        report.checks.append("stored records: each matches its checksum, decodes and holds its own key")
        for e in schema.entities {
            guard let rs = records[e.index] else { continue }
            let byKey = Dictionary(rs.map { (primaryKey($0[e.primaryKeyOrdinal]), $0) }, uniquingKeysWith: { a, _ in a })
            for index in layout.indexes[e.index] { checkIndex(index, e, byKey, &report) }
            for (i, rel) in e.relationships.enumerated() {
                guard let dest = schema[rel.destination] else { continue }
                checkLinks(e, rel, dbi: layout.relationships[e.index][i], inverse: layout.inverses[e.index][i],
                           sources: keys[e.index], targets: keys[dest.index], &report)
            }
        }
        report.checks.append("index databases: every entry against its record, one entry per record")
        report.checks.append("relationship databases: every link between existing records, on both sides")
        checkOrders(into: &report)
    }

    // MARK: Internal helpers

    /// Every record of `e` decoded, or nil when its database cannot be read through.
    private func storedRecords(_ e: Entity, _ report: inout VerificationReport) -> ([Record]?, Set<[UInt8]>) {
        var out: [Record] = [], keys = Set<[UInt8]>()
        do {
            try LMDBCursor(txn, layout.primary[e.index]).forEachEntry { keyBytes, value in
                let key = Array(keyBytes)
                keys.insert(key)
                if !RecordCodec.checksumMatches(value) {
                    report.add(e.name, "the record at key \(KeyEncoding.describe(key)) does not match its checksum")
                }
                do {
                    let r = try decode(e, value)
                    if primaryKey(r[e.primaryKeyOrdinal]) != key {
                        report.add(e.name, "the record stored at key \(KeyEncoding.describe(key)) holds primary key \(r[e.primaryKeyOrdinal])")
                    }
                    out.append(r)
                } catch { report.add(e.name, "the record at key \(KeyEncoding.describe(key)): \(error)") }
            }
        } catch {
            report.add(e.name, "reading the records failed: \(error)")
            return (nil, keys)
        }
        return (out, keys)
    }

    private func checkIndex(_ index: LMDBLayout.Index, _ e: Entity, _ byKey: [[UInt8]: Record],
                            _ report: inout VerificationReport) {
        var entries = 0
        do {
            try LMDBCursor(txn, index.dbi).forEachEntry { keyBytes, value in
                entries += 1
                let key = Array(keyBytes), pk = Array(value)
                if let r = byKey[pk] {
                    if LMDBLayout.indexKey(index, r.values) != key {
                        report.add(index.name, "the entry \(KeyEncoding.describe(key)) points to record \(r[e.primaryKeyOrdinal]), whose values give another entry")
                    }
                } else {
                    report.add(index.name, "the entry \(KeyEncoding.describe(key)) points to \(KeyEncoding.describe(pk)), which is not a stored record")
                }
            }
        } catch {
            report.add(index.name, "reading the index failed: \(error)")
            return
        }
        report.indexEntries += entries
        if entries != byKey.count { report.add(index.name, "\(entries) entries for \(byKey.count) records") }
    }

    private func checkLinks(_ e: Entity, _ rel: Relationship, dbi: MDB_dbi, inverse: MDB_dbi,
                            sources: Set<[UInt8]>, targets: Set<[UInt8]>, _ report: inout VerificationReport) {
        let area = LMDBLayout.relationshipName(e, rel)
        do {
            let back = try LMDBCursor(txn, inverse)
            try LMDBCursor(txn, dbi).forEachEntry { keyBytes, value in
                let from = Array(keyBytes), to = Array(value)
                if !sources.contains(from) { report.add(area, "a link starts at \(KeyEncoding.describe(from)), which is not a stored \(e.name)") }
                if !targets.contains(to) { report.add(area, "a link reaches \(KeyEncoding.describe(to)), which is not a stored \(rel.destination)") }
                if !(try back.seek(to, value: from)) {
                    report.add(area, "the link \(KeyEncoding.describe(from)) → \(KeyEncoding.describe(to)) is missing on the inverse side \(rel.destination).\(rel.inverse)")
                }
            }
        } catch { report.add(area, "reading the links failed: \(error)") }
    }
}

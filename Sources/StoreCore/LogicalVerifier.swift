/// The checks of `Repository.verify()` that need nothing but the protocol: every record
/// read by a scan is valid for its entity and equal to what its primary-key lookup returns;
/// `count` agrees with the scan; unique indexes hold; an equality query on each index finds
/// every record with those values; every link reaches a record that exists, to-one
/// relationships hold at most one link, and every link is listed by its inverse.
///
/// A backend that checks its engine's structure runs this after that check, inside one read
/// transaction. Errors thrown by reads become problems (a damaged record read as `corrupted`
/// is a finding, not a failure of the check). Memory: the records of the store are held
/// while it runs.
///
/// ```swift
/// var report = VerificationReport()
/// try store.read { LogicalVerifier.check($0, into: &report) }
/// ```
public enum LogicalVerifier {
    /// Runs every logical check inside `tx`, adding what it finds to `report`.
    public static func check(_ tx: any ReadTransaction, into report: inout VerificationReport) {
        let schema = tx.schema
        var ids: [String: Set<Value>] = [:]
        var byEntity: [String: [Record]] = [:]
        for e in schema.entities {
            guard let records = scan(e, tx, &report) else { continue }
            byEntity[e.name] = records
            ids[e.name] = Set(records.map { $0[e.primaryKeyOrdinal] })
            for index in e.indexes { checkIndex(index, of: e, records, tx, &report) }
        }
        report.checks.append(checkNames[0])
        report.checks.append(checkNames[1])
        let links = checkLinks(schema, byEntity, ids, tx, &report)
        report.checks.append(checkNames[2])
        checkEmbeddedOwners(schema, byEntity, links, &report)
    }

    /// The lines `check` adds to `VerificationReport.checks` for every schema.
    public static let checkNames = [
        "records: valid, primary-key lookups agree with a scan, counts agree",
        "indexes: unique ones hold, an equality query finds every record",
        "relationships: every link reaches a record, to-one holds one, every inverse agrees",
    ]

    // MARK: Internal helpers

    /// Every record of `e` by a scan, each checked; nil when the scan itself fails.
    private static func scan(_ e: Entity, _ tx: any ReadTransaction, _ report: inout VerificationReport) -> [Record]? {
        let records: [Record]
        do { records = try tx.fetch(Query(e.name)) } catch {
            report.add(e.name, "reading every record failed: \(error)")
            return nil
        }
        report.records += records.count
        var seen = Set<Value>()
        for r in records {
            let id = r[e.primaryKeyOrdinal]
            if !seen.insert(id).inserted { report.add(e.name, "primary key \(id) appears twice in a scan") }
            do { _ = try e.checkedRecord(r) } catch { report.add(e.name, "record \(id) is not valid: \(error)") }
            do {
                let byKey = try tx.fetch(e.name, id: id)
                if byKey != r {
                    report.add(e.name, "record \(id): the primary-key lookup returns \(byKey.map { "\($0)" } ?? "nothing"), a scan \(r)")
                }
            } catch { report.add(e.name, "record \(id): the primary-key lookup failed: \(error)") }
        }
        do {
            let n = try tx.count(Query(e.name))
            if n != records.count { report.add(e.name, "count says \(n) records, a scan reads \(records.count)") }
        } catch { report.add(e.name, "count failed: \(error)") }
        return records
    }

    /// One equality query per distinct non-null values of the index: it must return exactly the
    /// records a scan found holding them.
    private static func checkIndex(_ index: IndexDescription, of e: Entity, _ records: [Record],
                                   _ tx: any ReadTransaction, _ report: inout VerificationReport) {
        let area = "\(e.name)#\(index.attributes.joined(separator: ","))"
        let ordinals = index.attributes.compactMap { e.ordinal(of: $0) }
        var holders: [ExactValues: [Value]] = [:], order: [[Value]] = []
        for r in records {
            let values = ordinals.map { r[$0] }
            if values.contains(.null) { continue }
            if holders[ExactValues(values)] == nil { order.append(values) }
            holders[ExactValues(values), default: []].append(r[e.primaryKeyOrdinal])
        }
        for values in order {
            let ids = holders[ExactValues(values)] ?? []
            if index.isUnique && ids.count > 1 { report.add(area, "unique values \(values) are held by records \(ids)") }
            let predicate = StorePredicate.and(zip(index.attributes, values).map { KeyPathExpression($0.0) == $0.1 })
            do {
                let found = Set(try tx.fetch(Query(e.name, where: predicate)).map { ExactValues([$0[e.primaryKeyOrdinal]]) })
                let missing = ids.filter { !found.contains(ExactValues([$0])) }
                let extra = found.subtracting(ids.map { ExactValues([$0]) }).map(\.values[0])
                if !missing.isEmpty { report.add(area, "a query for \(values) does not find records \(missing), which hold them") }
                if !extra.isEmpty { report.add(area, "a query for \(values) returns records \(extra.sorted { Value.compare($0, $1) == .orderedAscending }), which do not hold them") }
            } catch { report.add(area, "a query for \(values) failed: \(error)") }
        }
    }

    /// Returns the links read: `links["Entity.relationship"][source id]` = target ids.
    private static func checkLinks(_ schema: Schema, _ byEntity: [String: [Record]], _ ids: [String: Set<Value>],
                                   _ tx: any ReadTransaction, _ report: inout VerificationReport) -> [String: [Value: [Value]]] {
        // links["Entity.rel"][source id] = target ids
        var links: [String: [Value: [Value]]] = [:]
        for e in schema.entities {
            for rel in e.relationships {
                let area = "\(e.name).\(rel.name)"
                var out: [Value: [Value]] = [:]
                for r in byEntity[e.name] ?? [] {
                    let id = r[e.primaryKeyOrdinal]
                    do {
                        let targets = try tx.related(e.name, id: id, via: rel.name)
                        let keys = targets.map { $0[$0.entity.primaryKeyOrdinal] }
                        if !rel.isToMany && keys.count > 1 { report.add(area, "record \(id) has \(keys.count) links on a to-one relationship") }
                        for k in keys where ids[rel.destination].map({ !$0.contains(k) }) ?? false {
                            report.add(area, "record \(id) links to \(rel.destination) \(k), which a scan does not find")
                        }
                        report.links += keys.count
                        if !keys.isEmpty { out[id] = keys }
                    } catch { report.add(area, "reading the links of record \(id) failed: \(error)") }
                }
                links[area] = out
            }
        }
        for e in schema.entities {
            for rel in e.relationships {
                let area = "\(e.name).\(rel.name)"
                let inverse = links["\(rel.destination).\(rel.inverse)"] ?? [:]
                for (source, targets) in links[area] ?? [:] {
                    for t in targets where !(inverse[t]?.contains(source) ?? false) {
                        report.add(area, "record \(source) links to \(rel.destination) \(t), whose \(rel.inverse) does not list it")
                    }
                }
            }
        }
        return links
    }
}

/// Values as the stores compare them, for keys of sets and dictionaries: strings by their
/// scalars (Swift's `==` holds canonically equivalent strings, "é" and "e\u{301}", equal).
struct ExactValues: Hashable {
    let values: [Value]
    init(_ values: [Value]) { self.values = values }

    static func == (a: ExactValues, b: ExactValues) -> Bool {
        a.values.count == b.values.count && zip(a.values, b.values).allSatisfy { $0.isIdentical(to: $1) }
    }

    func hash(into hasher: inout Hasher) {
        for v in values {
            if case .string(let s) = v { hasher.combine(Array(s.utf8)) } else { hasher.combine(v) }
        }
    }
}

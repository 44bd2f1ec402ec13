import StoreCore
import StoreBenchKit

/// Everything a store holds, in a form two stores can be compared by: every record of every
/// entity by primary key, and every link of every relationship. Used by crash trials to
/// compare a store after a kill with the states its acknowledged commits allow.
public struct StoreSnapshot: Hashable, Sendable {
    /// Records by entity name, in primary-key order.
    public var records: [String: [Record]] = [:]
    /// Links by `Entity.relationship`: (source key, target key) pairs, in order.
    public var links: [String: [[Value]]] = [:]

    /// Reads the whole store in one read transaction.
    public init(_ repo: any Repository) throws {
        try repo.read { tx in
            for e in tx.schema.entities {
                let rs = try tx.fetch(Query(e.name))
                records[e.name] = rs
                for rel in e.relationships {
                    var pairs: [[Value]] = []
                    for r in rs {
                        let id = r[e.primaryKeyOrdinal]
                        for t in try tx.related(e.name, id: id, via: rel.name) { pairs.append([id, t[t.entity.primaryKeyOrdinal]]) }
                    }
                    links["\(e.name).\(rel.name)"] = pairs
                }
            }
        }
    }

    /// How many records and links.
    public var size: (records: Int, links: Int) {
        (records.values.reduce(0) { $0 + $1.count }, links.values.reduce(0) { $0 + $1.count })
    }

    /// The first difference from `other`, in words, or nil when equal.
    public func difference(from other: StoreSnapshot) -> String? {
        for (name, rs) in records.sorted(by: { $0.key < $1.key }) where rs != other.records[name] {
            let theirs = other.records[name] ?? []
            let mine = Set(rs), yours = Set(theirs)
            if let extra = mine.subtracting(yours).first { return "\(name): has \(extra), expected not" }
            if let missing = yours.subtracting(mine).first { return "\(name): lacks \(missing)" }
            return "\(name): \(rs.count) records, expected \(theirs.count)"
        }
        for (name, ps) in links.sorted(by: { $0.key < $1.key }) where ps != other.links[name] {
            let theirs = other.links[name] ?? []
            if let extra = Set(ps).subtracting(theirs).first { return "\(name): has link \(extra), expected not" }
            if let missing = Set(theirs).subtracting(ps).first { return "\(name): lacks link \(missing)" }
            return "\(name): \(ps.count) links, expected \(theirs.count)"
        }
        return nil
    }
}

import StoreCore

/// How LMDBStore answers one query: which keys it reads, what it still checks per record,
/// and where the order comes from. Made by the planner (`LMDBQueryPlanner`); printed by
/// `LMDBStore.explain(_:)` and `storebench explain`.
///
/// ```swift
/// let plan = try store.plan(Query("User", where: "username" == "ann"))
/// print(plan)   // User: index User#username (username == "ann") · filter: none · order: index
/// ```
public struct LMDBQueryPlan: Sendable, Equatable, CustomStringConvertible {
    /// Where candidates come from.
    public enum Access: Sendable, Equatable {
        /// Point reads of primary keys (`id == x`, `id IN {...}`).
        case primaryKeys(count: Int)
        /// A key range of the primary database (`id > x`, `BEGINSWITH` on a string key).
        case primaryRange
        /// Every record, in primary-key order (`reverse`: descending).
        case scan(reverse: Bool)
        /// A range of a secondary index, by its database name (e.g. `User#username`).
        case index(String)
        /// A secondary index walked from its last key down (a descending sort).
        case indexDescending(String)
        /// The records linked to another plan's matches through a relationship (e.g.
        /// `Post.author` for `author.username == x`, answered from the users' index).
        indirect case linked(through: String, from: LMDBQueryPlan)
        /// The owners of a to-many's links, by their number of links (`posts.@count > k`).
        case linkCounts(String)
    }

    /// Where the result order comes from.
    public enum Order: Sendable, Equatable {
        /// The access path already yields the requested order; a limit stops the scan early.
        case access
        /// Every match is collected and sorted.
        case memory
        /// Only the best `k` matches are kept while scanning (sort with a limit).
        case topK(Int)
    }

    public let entity: String
    public let access: Access
    /// The conditions the access path answers, e.g. `age == 30`, `score > 1.5`.
    public let accessConditions: [String]
    /// True when conditions remain to be checked on each candidate record.
    public let filtersRecords: Bool
    public let order: Order

    public var description: String {
        var s = "\(entity): "
        switch access {
        case .primaryKeys(let n): s += "primary key lookup (\(n) key\(n == 1 ? "" : "s"))"
        case .primaryRange: s += "primary key range"
        case .scan(let reverse): s += reverse ? "full scan, descending" : "full scan"
        case .index(let name): s += "index \(name)"
        case .indexDescending(let name): s += "index \(name), descending"
        case .linked(let through, let from): s += "linked through \(through) from [\(from)]"
        case .linkCounts(let name): s += "link counts of \(name)"
        }
        if !accessConditions.isEmpty { s += " (\(accessConditions.joined(separator: ", ")))" }
        s += " · filter: " + (filtersRecords ? "per record" : "none")
        switch order {
        case .access: s += " · order: " + (yieldsPrimaryKeyOrder ? "primary key" : "access path")
        case .memory: s += " · order: sort in memory"
        case .topK(let k): s += " · order: top-\(k) in memory"
        }
        return s
    }

    /// The access path hands out records in primary key order.
    private var yieldsPrimaryKeyOrder: Bool {
        switch access {
        case .scan(let reverse): !reverse
        case .primaryRange, .linked, .linkCounts: true
        case .primaryKeys, .index, .indexDescending: false
        }
    }
}

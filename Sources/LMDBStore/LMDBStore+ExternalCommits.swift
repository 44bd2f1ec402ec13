import CLMDB
import StoreCore

extension LMDBStore: ExternalCommitDetecting {
    /// The commits other processes made since the first call: LMDB numbers every commit that
    /// changed something (`me_last_txnid`); this store notes the numbers of its own from the
    /// first call on, and the rest are other processes'.
    public func externalCommitStamp() throws -> UInt64 {
        _ = try env.live()
        let last = Int(env.info.me_last_txnid)
        return ownCommits.withLock { own in own.external(upTo: last) }
    }

    /// Before a write transaction with id `id` commits: notes it when it changed something.
    func noteCommit(_ txn: LMDBTxn, id: Int) {
        guard txn.changedSomething else { return }
        ownCommits.withLock { $0.note(id) }
    }
}

/// This store's commits among all of the file's (internal): what `externalCommitStamp` subtracts.
struct OwnCommits {
    /// Nil until the first `external(upTo:)`.
    private var seenUpTo: Int?
    private var own: Set<Int> = []
    private var external: UInt64 = 0
    /// Before anyone asks, only the newest few, in a ring: enough for the commits that may be
    /// in flight when the first stamp is taken.
    private var recent = [Int](repeating: -1, count: 64)
    private var next = 0

    mutating func note(_ id: Int) {
        guard let seenUpTo else {
            recent[next] = id
            next = (next + 1) % recent.count
            return
        }
        // A write transaction's id is the last commit's plus one: all before it are settled,
        // so the set holds only commits in flight however long nobody asks.
        resolve(upTo: id - 1)
        own.insert(id)
    }

    /// A noted commit that failed.
    mutating func forget(_ id: Int) {
        // A poll may have settled `id` already, as ours; if another process committed it once
        // this one's failed, it was theirs.
        if own.remove(id) == nil, let seenUpTo, seenUpTo >= id, !recent.contains(id) { external += 1 }
        if let i = recent.firstIndex(of: id) { recent[i] = -1 }
    }

    /// The external commits counted up to transaction `last`.
    mutating func external(upTo last: Int) -> UInt64 {
        guard let seen = seenUpTo else {
            seenUpTo = last
            own = Set(recent.filter { $0 > last })
            return 0
        }
        resolve(upTo: max(seen, last))
        return external
    }

    /// Counts the commits up to `last` that are not this store's.
    private mutating func resolve(upTo last: Int) {
        guard let seen = seenUpTo, last > seen else { return }
        for id in (seen + 1)...last where own.remove(id) == nil { external += 1 }
        seenUpTo = last
    }
}

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
    /// Nil until the first `external(upTo:)`: nothing is noted before anyone asks.
    private var seenUpTo: Int?
    private var own: Set<Int> = []
    private var external: UInt64 = 0

    mutating func note(_ id: Int) {
        if let seenUpTo, id > seenUpTo { own.insert(id) }
    }

    /// A noted commit that failed.
    mutating func forget(_ id: Int) { own.remove(id) }

    /// The external commits counted up to transaction `last`.
    mutating func external(upTo last: Int) -> UInt64 {
        guard let seen = seenUpTo else {
            seenUpTo = last
            return 0
        }
        if last > seen {
            for id in (seen + 1)...last where own.remove(id) == nil { external += 1 }
            seenUpTo = last
        }
        return external
    }
}

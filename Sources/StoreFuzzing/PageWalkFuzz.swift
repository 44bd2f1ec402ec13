import LMDBStore

extension FuzzTarget {
    /// Any bytes, taken as a whole `data.mdb`, walk to a list of problems: never a crash, a
    /// trap or a hang (libFuzzer's `-timeout` catches a slow input). A walk that finds no
    /// problem has read at least the two meta pages and says so in its summary.
    static func pagewalk(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let outcome = LMDBPageWalk.check(bytes: Array(data))
        guard !outcome.problems.isEmpty || outcome.summary.hasPrefix("LMDB page walk: ") else {
            throw FuzzFailure("the walk found no problem but gave no summary: \(outcome.summary.debugDescription)")
        }
    }
}

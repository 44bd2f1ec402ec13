import Foundation
import StoreCore

extension LMDBStore {
    /// `StoreOptions.verifyOnOpen`: the page walk of `data.mdb` (see `LMDBPageWalk`) before
    /// liblmdb reads any page of a tree, inside a read transaction so that a writer in
    /// another process cannot reuse the pages being walked. Opening the environment and
    /// beginning the transaction read only the meta pages, which liblmdb checks itself.
    ///
    /// Throws `corrupted` naming the file and the first problem the walk found. A new
    /// environment (an empty file: liblmdb writes its meta pages at the first commit) has
    /// nothing to walk.
    static func walkBeforeReading(_ env: LMDBEnvironment) throws {
        let file = env.path + "/data.mdb"
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int, size > 0 else { return }
        let txn = try LMDBTxn(try env.live(), region: env.region, readOnly: true)
        defer { txn.abort() }
        let walk = LMDBPageWalk.check(dataFile: file)
        guard let first = walk.problems.first else { return }
        let more = walk.problems.count > 1 ? " (and \(walk.problems.count - 1) more problem(s); `storebench verify` lists them)" : ""
        throw StoreError(.corrupted, "\(file) is damaged: \(first)\(more)")
    }
}

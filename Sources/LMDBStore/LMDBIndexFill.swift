import CLMDB
import Foundation
import StoreCore

/// Fills new, empty index databases during a migration: a unique index is written entry by
/// entry (each is checked against those before it); the others' entries are gathered, sorted
/// and written in key order, appended (`MDB_APPENDDUP`) while the database holds only what
/// this fill wrote, which saves LMDB a search and most page splits per entry. At most
/// `batchLimit` entries are held at once. Internal helper of `LMDBMigration`.
final class LMDBIndexFill {
    static let batchLimit = 1 << 18

    private let txn: LMDBTxn
    private let gathered: [LMDBLayout.Index]
    let unique: [LMDBLayout.Index]
    /// Per gathered index, its entries not yet written.
    private var entries: [[(key: [UInt8], primary: [UInt8])]]
    private var held = 0
    private var wroteBefore = false

    init(_ txn: LMDBTxn, indexes: [LMDBLayout.Index]) {
        self.txn = txn
        unique = indexes.filter(\.description.isUnique)
        gathered = indexes.filter { !$0.description.isUnique }
        entries = Array(repeating: [], count: gathered.count)
    }

    /// Gathers the entries, in the non-unique indexes, of the record stored under `primary`
    /// whose value at each ordinal `value` gives (the unique ones are the caller's to write).
    func add(primary: [UInt8], _ value: (Int) -> Value) throws {
        guard !gathered.isEmpty else { return }
        for (n, index) in gathered.enumerated() { entries[n].append((LMDBLayout.indexKey(index, value), primary)) }
        held += gathered.count
        if held >= Self.batchLimit { try flush() }
    }

    /// LMDB's default order of keys, and of duplicates: bytes compared as unsigned, then the
    /// shorter first.
    @inline(__always)
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int32 {
        let c = a.withUnsafeBytes { x in b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, min(x.count, y.count)) } }
        return c != 0 ? c : Int32(a.count < b.count ? -1 : a.count > b.count ? 1 : 0)
    }

    /// Writes the gathered entries, index by index, in key order.
    func flush() throws {
        guard held > 0 else { return }
        for (n, index) in gathered.enumerated() {
            entries[n].sort { a, b in
                let c = Self.compare(a.key, b.key)
                return c != 0 ? c < 0 : Self.compare(a.primary, b.primary) < 0
            }
            let c = try LMDBCursor(txn, index.dbi)
            for e in entries[n] { try c.put(e.key, e.primary, flags: wroteBefore ? 0 : MDB_APPENDDUP) }
            entries[n].removeAll(keepingCapacity: true)
        }
        held = 0
        wroteBefore = true
    }
}

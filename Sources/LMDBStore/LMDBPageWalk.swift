import Foundation
import StoreCore

/// Validates an LMDB data file's structure without liblmdb, which trusts its pages (a bad page
/// type or offset is an `abort()` or a wild read there). The file is read with `pread`, page
/// by page, and nothing is followed before it is checked:
///
/// - both meta pages (magic, version, page size); the newer valid one is the snapshot;
/// - the file holds every page up to the snapshot's last page;
/// - every tree (free list, main database, each named database, each dupsort sub-database):
///   each page's number, type and free-space bounds, every node inside its page, keys in
///   order and inside the range their parent gave them, every leaf at the tree's depth,
///   overflow runs of the length their data needs, and the tree's own counts;
/// - every page from 2 to the last is used exactly once: by a tree or by the free list.
///
/// Follows LMDB 0.9's format (`mdb.c`): 16-byte page headers, 8-byte node headers, default
/// key order (bytes, then length). Package-internal (the fuzz target walks bytes in memory).
package final class LMDBPageWalk {
    /// What the walk found: problems (empty when the structure is sound) and a summary line.
    package struct Outcome {
        package var problems: [String] = []
        package var summary = ""
    }

    /// Where the file's bytes are read from: a descriptor (with `pread`) or memory.
    private enum Source {
        case file(Int32)
        case bytes([UInt8])
    }

    // Page flags and node flags of LMDB's format.
    private static let branch: UInt16 = 0x01, leaf: UInt16 = 0x02, overflow: UInt16 = 0x04, meta: UInt16 = 0x08
    private static let dirty: UInt16 = 0x10, leaf2: UInt16 = 0x20, subpage: UInt16 = 0x40
    private static let bigData: UInt16 = 0x01, subData: UInt16 = 0x02, dupData: UInt16 = 0x04
    private static let headerSize = 16, nodeHeaderSize = 8, dbRecordSize = 48
    private static let invalidPage = UInt64.max
    private static let dupSortFlag: UInt16 = 0x04, integerKeyFlag: UInt16 = 0x08
    /// `MDB_REVERSEKEY`, `MDB_DUPSORT`, `MDB_DUPFIXED`, `MDB_INTEGERDUP`, `MDB_REVERSEDUP`.
    private static let dupSortFamily: UInt16 = 0x02 | 0x04 | 0x10 | 0x20 | 0x40
    private static let problemLimit = 50

    private let source: Source
    private let fileSize: UInt64
    private var pageSize = 0
    private var lastPage: UInt64 = 0
    private var filePages: UInt64 = 0
    private var used: [Bool] = []
    private var outcome = Outcome()
    private var pagesRead = 0

    /// Checks the data file at `path` (`data.mdb`). Never throws: a file that cannot be read
    /// is a problem like any other.
    static func check(dataFile path: String) -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return Outcome(problems: ["cannot open \(path): \(String(cString: strerror(errno)))"]) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return Outcome(problems: ["cannot stat \(path)"]) }
        let walk = LMDBPageWalk(source: .file(fd), fileSize: UInt64(st.st_size))
        walk.run()
        return walk.outcome
    }

    /// Checks a data file's bytes held in memory, exactly as `check(dataFile:)` checks a file.
    package static func check(bytes: [UInt8]) -> Outcome {
        let walk = LMDBPageWalk(source: .bytes(bytes), fileSize: UInt64(bytes.count))
        walk.run()
        return walk.outcome
    }

    private init(source: Source, fileSize: UInt64) {
        self.source = source
        self.fileSize = fileSize
    }

    private var full: Bool { outcome.problems.count >= Self.problemLimit }

    private func problem(_ s: String) {
        if outcome.problems.count < Self.problemLimit { outcome.problems.append(s) }
    }

    // MARK: Meta pages

    private struct Database {
        var flags: UInt16, depth: UInt16
        var branchPages: UInt64, leafPages: UInt64, overflowPages: UInt64, entries: UInt64, root: UInt64
        var isDupSort: Bool { flags & LMDBPageWalk.dupSortFlag != 0 }
    }

    private struct Meta {
        var pageSize: Int, free: Database, main: Database, lastPage: UInt64, txnid: UInt64
    }

    private func run() {
        guard let metas = readMetas() else { return }
        guard let meta = metas.max(by: { $0.txnid < $1.txnid }) else {
            problem("neither meta page is valid: this is not an LMDB data file, or both its meta pages are damaged")
            return
        }
        // LMDB writes the meta pages in turn, transaction N to page N % 2: they hold N and N - 1
        // (both 0 before the first commit). Another pair is a damaged transaction id, which may
        // make liblmdb read an older snapshot as the newest.
        if metas.count == 2, metas[0].txnid | metas[1].txnid != 0, metas[0].txnid &+ 1 != metas[1].txnid && metas[1].txnid &+ 1 != metas[0].txnid {
            problem("the meta pages hold transactions \(metas[0].txnid) and \(metas[1].txnid); LMDB writes them in turn, one apart")
        }
        pageSize = meta.pageSize
        lastPage = meta.lastPage
        guard lastPage >= 1, lastPage < (1 << 40) else {
            problem("the meta page names page \(lastPage) as the last one")
            return
        }
        // A sound file may end before the last page: LMDB never writes a page that was freed
        // in the transaction that allocated it. Only pages a tree uses must lie in the file.
        filePages = fileSize / UInt64(pageSize)
        guard filePages >= 2 else {
            problem("the file holds \(filePages) page(s): too short for LMDB's meta pages")
            return
        }
        used = Array(repeating: false, count: Int(min(lastPage + 1, filePages)))
        used[0] = true
        used[1] = true
        var trees = 0
        walkTree(meta.main, name: "the main database", keyOrder: .bytes, flags: 0) { [self] key, data in
            // Named databases are the main database's F_SUBDATA nodes.
            guard data.flags & Self.subData != 0 else { return }
            trees += 1
            guard let db = parseDatabase(data.bytes, "the named database '\(printable(key))'") else { return }
            walkTree(db, name: "the database '\(printable(key))'", keyOrder: .bytes, flags: Self.dupSortFlag, leafVisitor: nil)
        }
        walkFreeList(meta.free)
        if !full {
            let unused = used.indices.filter { !used[$0] }
            if !unused.isEmpty {
                problem("\(unused.count) page(s) are neither in a database nor in the free list (first: \(unused.prefix(5).map(String.init).joined(separator: ", ")))")
            }
        }
        outcome.summary = "LMDB page walk: \(pagesRead) pages of \(pageSize) bytes, \(trees) named databases, meta txn \(meta.txnid)"
    }

    /// Both meta pages; a damaged one is a problem (LMDB may fall back to it after a crash).
    private func readMetas() -> [Meta]? {
        // Meta page 0 gives the page size, which places meta page 1; when it is damaged, try
        // the usual size.
        guard let first = read(at: 0, count: 512) else {
            problem("the file is \(fileSize) bytes: too short for LMDB's meta pages")
            return nil
        }
        var metas: [Meta] = []
        var psize = 4096
        if let m = parseMeta(first, 0) {
            metas.append(m)
            psize = m.pageSize
        }
        if let page = read(at: UInt64(psize), count: 512) {
            if let m = parseMeta(page, 1) {
                if metas.isEmpty || m.pageSize == psize { metas.append(m) } else {
                    problem("meta page 1 gives page size \(m.pageSize), meta page 0 \(psize)")
                }
            }
        } else {
            problem("the file ends before meta page 1")
        }
        return metas
    }

    private func parseMeta(_ page: [UInt8], _ i: Int) -> Meta? {
        let h = Self.headerSize
        guard page.count >= h + 152 else { return nil }
        let psize = Int(page.u32(h + 24))
        guard page.u16(10) & Self.meta != 0, page.u32(h) == 0xBEEF_C0DE, page.u32(h + 4) == 1,
              psize >= 512, psize <= 65536, psize & (psize - 1) == 0 else {
            problem("meta page \(i) is damaged (flags \(page.u16(10)), magic \(String(page.u32(h), radix: 16)), version \(page.u32(h + 4)), page size \(psize))")
            return nil
        }
        let free = database(page, h + 24), main = database(page, h + 72)
        return Meta(pageSize: Int(page.u32(h + 24)), free: free, main: main, lastPage: page.u64(h + 120), txnid: page.u64(h + 128))
    }

    private func database(_ b: [UInt8], _ o: Int) -> Database {
        Database(flags: b.u16(o + 4), depth: b.u16(o + 6), branchPages: b.u64(o + 8), leafPages: b.u64(o + 16),
                 overflowPages: b.u64(o + 24), entries: b.u64(o + 32), root: b.u64(o + 40))
    }

    private func parseDatabase(_ bytes: ArraySlice<UInt8>, _ what: String) -> Database? {
        guard bytes.count == Self.dbRecordSize else {
            problem("\(what): its record is \(bytes.count) bytes, not \(Self.dbRecordSize)")
            return nil
        }
        return database(Array(bytes), 0)
    }

    // MARK: Trees

    private enum KeyOrder { case bytes, integer }

    /// A leaf node's data as the visitor sees it.
    private struct LeafData {
        var flags: UInt16
        var bytes: ArraySlice<UInt8>
    }

    private struct Counts { var branch: UInt64 = 0, leaf: UInt64 = 0, overflow: UInt64 = 0, entries: UInt64 = 0 }

    /// Walks one tree from its root, checking every page before following it; `leafVisitor`
    /// sees each leaf node's key and (inline or overflow) data. The database may have no
    /// flags but `flags`: liblmdb orders keys by them (the walk checks byte order).
    private func walkTree(_ db: Database, name: String, keyOrder: KeyOrder, flags: UInt16,
                          leafVisitor: ((ArraySlice<UInt8>, LeafData) -> Void)?) {
        guard db.flags & ~flags == 0 else {
            problem("\(name) has flags 0x\(String(db.flags, radix: 16)), which this store never gives it")
            return
        }
        if db.root == Self.invalidPage {
            if db.entries != 0 || db.depth != 0 || db.branchPages | db.leafPages | db.overflowPages != 0 {
                problem("\(name) has no root page but claims \(db.entries) entries and \(db.branchPages)/\(db.leafPages)/\(db.overflowPages) branch/leaf/overflow pages")
            }
            return
        }
        // LMDB's cursors hold at most 32 levels; a deeper claim is damage (and bounds the walk).
        guard db.depth >= 1, db.depth <= 32 else {
            problem("\(name) claims a depth of \(db.depth)")
            return
        }
        var counts = Counts()
        walkPage(db.root, level: 1, db: db, name: name, order: keyOrder, low: nil, high: nil, counts: &counts, visitor: leafVisitor)
        guard !full else { return }
        if counts.branch != db.branchPages || counts.leaf != db.leafPages || counts.overflow != db.overflowPages {
            problem("\(name) claims \(db.branchPages)/\(db.leafPages)/\(db.overflowPages) branch/leaf/overflow pages, the walk finds \(counts.branch)/\(counts.leaf)/\(counts.overflow)")
        }
        if counts.entries != db.entries { problem("\(name) claims \(db.entries) entries, the walk finds \(counts.entries)") }
    }

    /// `inDuplicates`: the tree is a dupsort sub-database, whose leaves hold plain values.
    private func walkPage(_ pgno: UInt64, level: Int, db: Database, name: String, order: KeyOrder,
                          low: [UInt8]?, high: [UInt8]?, counts: inout Counts, inDuplicates: Bool = false,
                          visitor: ((ArraySlice<UInt8>, LeafData) -> Void)?) {
        guard !full, let page = claim(pgno, name) else { return }
        let flags = page.u16(10) & ~Self.dirty
        let isBranch = flags == Self.branch
        guard isBranch || flags == Self.leaf else {
            problem("\(name): page \(pgno) should be a branch or leaf page but has flags 0x\(String(flags, radix: 16))")
            return
        }
        guard isBranch || level == Int(db.depth) else {
            problem("\(name): leaf page \(pgno) is at depth \(level), the tree's depth is \(db.depth)")
            return
        }
        guard !isBranch || level < Int(db.depth) else {
            problem("\(name): branch page \(pgno) is at depth \(level), as deep as the tree (\(db.depth))")
            return
        }
        guard let nodes = nodeOffsets(page, 0, pageSize, "\(name): page \(pgno)") else { return }
        guard let keys = nodeKeys(page, nodes, pageSize, "\(name): page \(pgno)"),
              nodesPacked(page, nodes, keysOnly: isBranch, end: pageSize, "\(name): page \(pgno)") else { return }
        if isBranch { counts.branch += 1 } else { counts.leaf += 1 }
        // Keys ascend and stay in the parent's range; a branch page's first key is implicit.
        let first = isBranch ? 1 : 0
        guard ascending(keys, from: first, order, "\(name): page \(pgno)") else { return }
        for i in first..<keys.count {
            if let low, less(keys[i], low[...], order) { problem("\(name): page \(pgno) key \(i) is below its parent's range"); return }
            if let high, !less(keys[i], high[...], order) { problem("\(name): page \(pgno) key \(i) is above its parent's range"); return }
        }
        for (i, o) in nodes.enumerated() {
            let key = keys[i], keyStart = o + Self.nodeHeaderSize, ksize = key.count
            let lo = UInt64(page.u16(o)), hi = UInt64(page.u16(o + 2)), nflags = page.u16(o + 4)
            if isBranch {
                let child = lo | hi << 16 | UInt64(nflags) << 32
                let childLow = i == 0 ? low : Array(key)
                let childHigh = i + 1 < keys.count ? Array(keys[i + 1]) : high
                walkPage(child, level: level + 1, db: db, name: name, order: order, low: childLow, high: childHigh,
                         counts: &counts, inDuplicates: inDuplicates, visitor: visitor)
                if full { return }
            } else {
                guard let data = leafData(page, o, keyStart + ksize, dsize: Int(lo | hi << 16), flags: nflags,
                                          "\(name): page \(pgno) node \(i)", counts: &counts) else { return }
                // Duplicates only in a dupsort tree, never inside a sub-database (which bounds
                // the walk's recursion); a named database only in the main one.
                if nflags & Self.dupData != 0 && (inDuplicates || !db.isDupSort) || nflags & Self.subData != 0 && nflags & Self.dupData == 0 && db.isDupSort {
                    problem("\(name): page \(pgno) node \(i) has flags 0x\(String(nflags, radix: 16)), impossible in this database")
                    return
                }
                if nflags & Self.dupData != 0 {
                    counts.entries += countDuplicates(data, "\(name): the duplicates of page \(pgno) node \(i)")
                } else {
                    counts.entries += 1
                }
                visitor?(key, data)
            }
        }
    }

    /// The node offsets of a (sub-)page starting at `base` in `page`, each checked to lie
    /// inside it with its header.
    private func nodeOffsets(_ page: [UInt8], _ base: Int, _ size: Int, _ what: String) -> [Int]? {
        let lower = Int(page.u16(base + 12)), upper = Int(page.u16(base + 14))
        guard lower >= Self.headerSize, lower <= upper, upper <= size, (lower - Self.headerSize) % 2 == 0 else {
            problem("\(what) has impossible free-space bounds \(lower)…\(upper)")
            return nil
        }
        let n = (lower - Self.headerSize) / 2
        guard n > 0 else {
            problem("\(what) holds no entries")
            return nil
        }
        var out: [Int] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            let o = Int(page.u16(base + Self.headerSize + 2 * i))
            guard o >= upper, o + Self.nodeHeaderSize <= size else {
                problem("\(what): node \(i) at offset \(o) lies outside the page's used space \(upper)…\(size)")
                return nil
            }
            out.append(base + o)
        }
        return out
    }

    /// The key of each node (a duplicate's value, in a sub-page), each checked to end inside
    /// the first `size` bytes of `page`.
    private func nodeKeys(_ page: [UInt8], _ nodes: [Int], _ size: Int, _ what: String) -> [ArraySlice<UInt8>]? {
        var keys: [ArraySlice<UInt8>] = []
        keys.reserveCapacity(nodes.count)
        for (i, o) in nodes.enumerated() {
            let ksize = Int(page.u16(o + 6)), start = o + Self.nodeHeaderSize
            guard start + ksize <= size else {
                problem("\(what): node \(i) has a \(ksize)-byte key running past its page")
                return nil
            }
            keys.append(page[start..<start + ksize])
        }
        return keys
    }

    /// Whether the nodes (header, key, inline data, each rounded up to an even size) fill the
    /// (sub-)page from its upper bound to `end` without a gap or an overlap, as LMDB keeps
    /// them: it adds a node just below the upper bound and closes the gap a deleted one
    /// leaves. liblmdb takes each node's sizes as they are. `keysOnly`: branch and sub-page nodes.
    private func nodesPacked(_ page: [UInt8], _ nodes: [Int], keysOnly: Bool, end: Int, _ what: String) -> Bool {
        let extents = nodes.map { o -> (start: Int, end: Int) in
            let data = keysOnly ? 0 : page.u16(o + 4) & Self.bigData != 0 ? 8 : Int(page.u16(o)) | Int(page.u16(o + 2)) << 16
            let size = Self.nodeHeaderSize + Int(page.u16(o + 6)) + data
            return (o, o + size + size % 2)
        }.sorted { $0.start < $1.start }
        var next = Int(page.u16(14))
        for e in extents + [(start: end, end: end)] {
            guard e.start == next else {
                problem(e.start < next ? "\(what): a node runs into the node at offset \(e.start)"
                                       : "\(what): \(e.start - next) byte(s) at offset \(next) belong to no node")
                return false
            }
            next = e.end
        }
        return true
    }

    /// Whether `keys[first...]` strictly ascend.
    private func ascending(_ keys: [ArraySlice<UInt8>], from first: Int, _ order: KeyOrder, _ what: String) -> Bool {
        for i in (first + 1)..<max(keys.count, first + 1) where !less(keys[i - 1], keys[i], order) {
            problem("\(what): keys \(i - 1) and \(i) are out of order")
            return false
        }
        return true
    }

    /// A leaf node's data, inline or from its overflow pages, checked to fit.
    private func leafData(_ page: [UInt8], _ node: Int, _ dataStart: Int, dsize: Int, flags: UInt16, _ what: String,
                          counts: inout Counts) -> LeafData? {
        guard flags & ~(Self.bigData | Self.subData | Self.dupData) == 0 else {
            problem("\(what) has unknown flags 0x\(String(flags, radix: 16))")
            return nil
        }
        if flags & Self.bigData == 0 {
            guard dataStart + dsize <= pageSize else {
                problem("\(what) has \(dsize) bytes of data running past the page")
                return nil
            }
            return LeafData(flags: flags, bytes: page[dataStart..<dataStart + dsize])
        }
        guard dataStart + 8 <= pageSize else {
            problem("\(what) has an overflow page number running past the page")
            return nil
        }
        let first = page.u64(dataStart)
        let needed = (Self.headerSize - 1 + dsize) / pageSize + 1
        guard let head = claim(first, what) else { return nil }
        // LMDB keeps a longer run when a smaller value overwrites a larger one in the same
        // transaction: the run may exceed what the data needs, never fall short.
        let run = Int(head.u32(12))
        guard head.u16(10) & ~Self.dirty == Self.overflow, run >= needed else {
            problem("\(what): overflow page \(first) has flags 0x\(String(head.u16(10), radix: 16)) and \(run) pages; \(dsize) bytes need \(needed)")
            return nil
        }
        for p in first + 1..<first + UInt64(run) { guard markUsed(p, what) else { return nil } }
        counts.overflow += UInt64(run)
        guard let bytes = read(at: first * UInt64(pageSize), count: needed * pageSize) else {
            problem("\(what): overflow pages \(first)… lie past the end of the file")
            return nil
        }
        return LeafData(flags: flags, bytes: bytes[Self.headerSize..<Self.headerSize + dsize])
    }

    /// The duplicates of a dupsort node: a sub-page inline, or a sub-database.
    private func countDuplicates(_ data: LeafData, _ what: String) -> UInt64 {
        if data.flags & Self.subData != 0 {
            guard let db = parseDatabase(data.bytes, what) else { return 0 }
            var counts = Counts()
            guard db.depth <= 32, db.flags == 0 else {
                problem("\(what) claims a depth of \(db.depth) and flags 0x\(String(db.flags, radix: 16))")
                return 0
            }
            if db.root != Self.invalidPage {
                walkPage(db.root, level: 1, db: db, name: what, order: .bytes, low: nil, high: nil, counts: &counts,
                         inDuplicates: true, visitor: nil)
            }
            if db.entries != counts.entries { problem("\(what) claims \(db.entries) duplicates, the walk finds \(counts.entries)") }
            return counts.entries
        }
        // A sub-page: a small leaf page inside the node, offsets relative to its start.
        let sub = Array(data.bytes)
        guard sub.count >= Self.headerSize, sub.u16(10) & ~Self.dirty == Self.leaf | Self.subpage else {
            problem("\(what) is not a valid sub-page")
            return 0
        }
        guard let nodes = nodeOffsets(sub, 0, sub.count, what) else { return 0 }
        // A duplicate in a sub-page is a key alone: no flags, no data. liblmdb's cursor follows
        // whatever the flags say, so any other value must stop the walk before liblmdb reads it.
        for (i, o) in nodes.enumerated() where sub.u16(o + 4) != 0 || sub.u16(o) != 0 || sub.u16(o + 2) != 0 {
            problem("\(what): duplicate \(i) has flags 0x\(String(sub.u16(o + 4), radix: 16)) and \(Int(sub.u16(o)) | Int(sub.u16(o + 2)) << 16) data bytes, which LMDB never writes in a sub-page")
            return 0
        }
        guard let values = nodeKeys(sub, nodes, sub.count, what), nodesPacked(sub, nodes, keysOnly: true, end: sub.count, what),
              ascending(values, from: 0, .bytes, what) else { return 0 }
        return UInt64(nodes.count)
    }

    // MARK: Free list

    /// The free list: keys are transaction ids, values lists of page numbers (a count, then
    /// the numbers); every listed page must exist and be used by nothing else.
    private func walkFreeList(_ db: Database) {
        // Its flags hold the environment's persistent flags too (`MDB_NOSUBDIR`, …); liblmdb
        // compares its keys as integers whatever they say, but a dupsort flag would change how
        // it reads the leaves.
        walkTree(db, name: "the free list", keyOrder: .integer, flags: ~Self.dupSortFamily) { [self] _, data in
            let b = Array(data.bytes)
            guard b.count >= 8, b.count % 8 == 0 else {
                problem("the free list has a record of \(b.count) bytes")
                return
            }
            // A record may be reserved larger than the pages it lists.
            let n = Int(clamping: b.u64(0))
            guard n <= b.count / 8 - 1 else {
                problem("the free list has a record that claims \(n) pages in \(b.count) bytes")
                return
            }
            for i in 0..<n { _ = markUsed(b.u64(8 + 8 * i), "the free list", free: true) }
        }
    }

    // MARK: Pages

    /// Reads page `pgno` for a tree, checking its number and marking it used.
    private func claim(_ pgno: UInt64, _ what: String) -> [UInt8]? {
        guard markUsed(pgno, what) else { return nil }
        guard let page = read(at: pgno * UInt64(pageSize), count: pageSize) else {
            problem("\(what): page \(pgno) lies past the end of the file")
            return nil
        }
        pagesRead += 1
        guard page.u64(0) == pgno else {
            problem("\(what): page \(pgno) says it is page \(page.u64(0))")
            return nil
        }
        return page
    }

    private func markUsed(_ pgno: UInt64, _ what: String, free: Bool = false) -> Bool {
        guard pgno >= 2, pgno <= lastPage else {
            problem("\(what) refers to page \(pgno), outside 2…\(lastPage)")
            return false
        }
        guard pgno < used.count else {
            // A free page past the end was never written; a used one was cut off.
            if !free { problem("\(what) refers to page \(pgno), past the end of the file (\(filePages) pages): it was truncated") }
            return free
        }
        guard !used[Int(pgno)] else {
            problem("\(what) refers to page \(pgno), which something else already uses")
            return false
        }
        used[Int(pgno)] = true
        return true
    }

    private func read(at offset: UInt64, count: Int) -> [UInt8]? {
        guard offset + UInt64(count) <= fileSize else { return nil }
        switch source {
        case .bytes(let bytes):
            return Array(bytes[Int(offset)..<Int(offset) + count])
        case .file(let fd):
            var buffer = [UInt8](repeating: 0, count: count)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return n == count ? buffer : nil
        }
    }

    // MARK: Keys

    private func less(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>, _ order: KeyOrder) -> Bool {
        switch order {
        case .integer:
            guard a.count == 8, b.count == 8 else { return a.count < b.count }
            return Array(a).u64(0) < Array(b).u64(0)
        case .bytes:
            return a.lexicographicallyPrecedes(b)
        }
    }

    private func printable(_ key: ArraySlice<UInt8>) -> String {
        String(decoding: key.prefix { $0 != 0 }, as: UTF8.self)
    }
}

// MARK: Internal helpers: little-endian reads at byte offsets

private extension Array where Element == UInt8 {
    func u16(_ o: Int) -> UInt16 { o + 2 <= count ? UInt16(self[o]) | UInt16(self[o + 1]) << 8 : 0 }
    func u32(_ o: Int) -> UInt32 { o + 4 <= count ? UInt32(u16(o)) | UInt32(u16(o + 2)) << 16 : 0 }
    func u64(_ o: Int) -> UInt64 { o + 8 <= count ? UInt64(u32(o)) | UInt64(u32(o + 4)) << 32 : 0 }
}

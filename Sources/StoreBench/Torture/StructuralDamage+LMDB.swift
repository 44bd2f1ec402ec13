extension StructuralDamage {
    /// The structural fields of a sound LMDB data file (LMDB 0.9, 64-bit): the newest meta
    /// page's fields, and for every page its trees use (free list, main database, each named
    /// database, each dupsort sub-database) the page header, node pointers and node headers,
    /// the database records in the main database, inline sub-pages and overflow pages.
    static func lmdbFields(_ file: [UInt8]) -> [Field] {
        var finder = LMDBFields(b: file)
        finder.run()
        return finder.fields
    }
}

/// Walks a sound LMDB file from its newest meta page (bounds checked all the same). Internal.
private struct LMDBFields {
    enum Tree { case free, main, named, duplicates }

    let b: [UInt8]
    var fields: [StructuralDamage.Field] = []
    private var pageSize = 4096
    private var seen = Set<Int>()

    init(b: [UInt8]) { self.b = b }

    private mutating func add(_ group: String, _ name: String, _ offset: Int, _ size: Int) {
        fields.append(.init(group: group, name: name, offset: offset, size: size))
    }

    mutating func run() {
        pageSize = b.uint(16 + 24, 4)
        guard [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536].contains(pageSize), b.count >= 2 * pageSize else { return }
        let m = b.uint(16 + 128, 8) >= b.uint(pageSize + 16 + 128, 8) ? 0 : pageSize
        let meta = "meta page \(m / pageSize)"
        add("meta page", "\(meta) page size", m + 40, 4)
        add("meta page", "\(meta) last page", m + 136, 8)
        add("meta page", "\(meta) transaction id", m + 144, 8)
        database(m + 40, "\(meta) free list", group: "meta page", tree: .free)
        database(m + 88, "\(meta) main database", group: "meta page", tree: .main)
    }

    /// A database record (`MDB_db`, 48 bytes at `o`) and the tree it roots.
    private mutating func database(_ o: Int, _ name: String, group: String, tree: Tree) {
        for (field, at, size) in [("flags", 4, 2), ("depth", 6, 2), ("branch pages", 8, 8), ("leaf pages", 16, 8),
                                  ("overflow pages", 24, 8), ("entries", 32, 8), ("root", 40, 8)] {
            add(group, "\(name) \(field)", o + at, size)
        }
        walk(b.uint(o + 40, 8), tree, level: 1)
    }

    private mutating func walk(_ pgno: Int, _ tree: Tree, level: Int) {
        let p = pgno &* pageSize
        guard level <= 32, pgno >= 2, p > 0, p + pageSize <= b.count, seen.insert(p).inserted else { return }
        let flags = b.uint(p + 10, 2) & ~0x10
        guard flags == 1 || flags == 2 else { return }
        let what = "\(flags == 1 ? "branch" : "leaf") page \(pgno)"
        add("page header", "\(what) number", p, 8)
        add("page header", "\(what) flags", p + 10, 2)
        add("page header", "\(what) lower bound", p + 12, 2)
        add("page header", "\(what) upper bound", p + 14, 2)
        for (i, node) in nodes(p, pageSize, what, group: "node").enumerated() {
            if flags == 1 {
                walk(b.uint(node, 2) | b.uint(node + 2, 2) << 16 | b.uint(node + 4, 2) << 32, tree, level: level + 1)
            } else {
                leafData(node, tree, "\(what) node \(i)", level: level)
            }
        }
    }

    /// The nodes of a (sub-)page at `p` of `size` bytes: each pointer and node header added.
    private mutating func nodes(_ p: Int, _ size: Int, _ what: String, group: String) -> [Int] {
        let lower = b.uint(p + 12, 2), upper = b.uint(p + 14, 2)
        guard lower >= 16, lower <= upper, upper <= size else { return [] }
        return (0..<(lower - 16) / 2).compactMap { i in
            add("\(group) pointer", "\(what) node \(i) pointer", p + 16 + 2 * i, 2)
            let node = p + b.uint(p + 16 + 2 * i, 2)
            guard node >= p + upper, node + 8 <= p + size else { return nil }
            for (field, at) in [("size (low)", 0), ("size (high)", 2), ("flags", 4), ("key size", 6)] {
                add("\(group) header", "\(what) node \(i) \(field)", node + at, 2)
            }
            return node
        }
    }

    /// A leaf node's data: a database record, an inline sub-page or an overflow page.
    private mutating func leafData(_ node: Int, _ tree: Tree, _ what: String, level: Int) {
        let flags = b.uint(node + 4, 2), data = node + 8 + b.uint(node + 6, 2)
        let size = b.uint(node, 2) | b.uint(node + 2, 2) << 16
        if flags & 0x01 != 0 {
            add("overflow page", "\(what) overflow page number", data, 8)
            let p = b.uint(data, 8) &* pageSize
            guard p > 0, p + 16 <= b.count else { return }
            add("overflow page", "\(what): its overflow page's number", p, 8)
            add("overflow page", "\(what): its overflow page's flags", p + 10, 2)
            add("overflow page", "\(what): its overflow page's run length", p + 12, 4)
        } else if flags & 0x02 != 0, size == 48 {
            database(data, what, group: tree == .main ? "database record" : "sub-database record",
                     tree: tree == .main ? .named : .duplicates)
        } else if flags & 0x04 != 0, size >= 16 {
            for (field, at) in [("flags", 10), ("lower bound", 12), ("upper bound", 14)] { add("sub-page", "\(what) sub-page \(field)", data + at, 2) }
            _ = nodes(data, size, "\(what) sub-page", group: "sub-page node")
        } else if tree == .free, size >= 8 {
            add("free list record", "\(what) page count", data, 8)
        }
    }
}

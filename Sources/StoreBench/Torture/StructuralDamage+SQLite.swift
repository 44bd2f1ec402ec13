extension StructuralDamage {
    /// The structural fields of a sound SQLite database file (file format 4): the header's
    /// fields a reader relies on (page size, versions, page count, free list, schema format,
    /// text encoding), the free list's trunk pages, and for every b-tree page not on the free
    /// list its header, its cell pointers and each cell's child page or payload size.
    static func sqliteFields(_ b: [UInt8]) -> [Field] {
        var fields: [Field] = []
        func add(_ group: String, _ name: String, _ offset: Int, _ size: Int) {
            fields.append(Field(group: group, name: name, offset: offset, size: size, bigEndian: true))
        }
        for (name, at, size) in [("page size", 16, 2), ("write version", 18, 1), ("read version", 19, 1), ("reserved bytes", 20, 1),
                                 ("page count", 28, 4), ("first free-list trunk page", 32, 4), ("free-list pages", 36, 4),
                                 ("schema format", 44, 4), ("text encoding", 56, 4), ("version-valid-for", 92, 4)] {
            add("header", name, at, size)
        }
        let raw = b.uint(16, 2, bigEndian: true), pageSize = raw == 1 ? 65536 : raw
        guard pageSize >= 512, pageSize <= 65536, b.count >= pageSize else { return fields }
        var free = Set<Int>(), trunk = b.uint(32, 4, bigEndian: true)
        while trunk >= 2, (trunk - 1) * pageSize + 8 <= b.count, free.insert(trunk).inserted {
            let t = (trunk - 1) * pageSize
            add("free list", "trunk page \(trunk) next trunk", t, 4)
            add("free list", "trunk page \(trunk) leaf count", t + 4, 4)
            let leaves = min(b.uint(t + 4, 4, bigEndian: true), pageSize / 4 - 2)
            for i in 0..<leaves { free.insert(b.uint(t + 8 + 4 * i, 4, bigEndian: true)) }
            trunk = b.uint(t, 4, bigEndian: true)
        }
        for page in 1...(b.count / pageSize) where !free.contains(page) {
            sqliteBTreePage(b, page, pageSize, add)
        }
        return fields
    }

    /// One b-tree page's header, cell pointers and cells; nothing for a page of another kind.
    private static func sqliteBTreePage(_ b: [UInt8], _ page: Int, _ pageSize: Int, _ add: (String, String, Int, Int) -> Void) {
        let o = (page - 1) * pageSize, h = page == 1 ? 100 : o
        let type = b.uint(h, 1, bigEndian: true), interior = type == 2 || type == 5
        let header = interior ? 12 : 8, cells = b.uint(h + 3, 2, bigEndian: true)
        guard [2, 5, 10, 13].contains(type), cells > 0, h + header + 2 * cells <= o + pageSize else { return }
        let what = "\(["", "", "interior index", "", "", "interior table", "", "", "", "", "leaf index", "", "", "leaf table"][type]) page \(page)"
        for (name, at, size) in [("type", 0, 1), ("first freeblock", 1, 2), ("cell count", 3, 2), ("cell content start", 5, 2),
                                 ("fragmented bytes", 7, 1)] + (interior ? [("right-most child", 8, 4)] : []) {
            add("page header", "\(what) \(name)", h + at, size)
        }
        for i in 0..<cells {
            add("cell pointer", "\(what) cell \(i) pointer", h + header + 2 * i, 2)
            let cell = o + b.uint(h + header + 2 * i, 2, bigEndian: true)
            guard cell >= h + header, cell + 5 <= o + pageSize else { continue }
            if interior { add("cell", "\(what) cell \(i) left child", cell, 4) }
            if type != 5 { add("cell", "\(what) cell \(i) payload size", cell + (interior ? 4 : 0), 1) }
        }
    }
}

import StoreCore

/// Reads every field of what a workload fetched and folds it into an integer the runner keeps,
/// so lazy loading cannot pass for speed and no read is optimized away (internal).
enum Touch {
    static func row(_ r: some RowView) -> Int {
        var sink = 0
        for i in 0..<r.entity.attributes.count { sink &+= value(r[i]) }
        return sink
    }

    static func records(_ rs: [Record]) -> Int { rs.reduce(0) { $0 &+ row($1) } }

    static func value(_ v: Value) -> Int {
        switch v {
        case .null: 0
        case .int64(let x): Int(truncatingIfNeeded: x)
        case .double(let x): Int(x)
        case .bool(let x): x ? 1 : 0
        case .string(let s): s.utf8.count
        case .date(let d): Int(d.timeIntervalSince1970)
        case .uuid(let u): Int(u.uuid.0)
        case .bytes(let b): b.count
        }
    }
}


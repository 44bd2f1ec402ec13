import StoreCore

extension SocialGenerator {
    /// The checksum of every record and link, in the order `load` writes them.
    public func checksum() -> DatasetChecksum {
        var sum = DatasetChecksum()
        walk(records: { sum.add($0) }, link: { sum.addLink("\($0).\($1)", $2, $3) })
        return sum
    }

    /// Writes the dataset into `repo`: tags, users, posts, comments, then follows, `chunk`
    /// records per write transaction. `progress` gets the records written so far.
    public func load(into repo: any Repository, chunk: Int = 2_000, progress: (Int) -> Void = { _ in }) throws {
        var pendingRecords: [Record] = []
        var pendingLinks: [(String, String, Value, Value)] = []
        var written = 0
        func flush() throws {
            guard !pendingRecords.isEmpty || !pendingLinks.isEmpty else { return }
            try repo.write { tx in
                var start = 0
                while start < pendingRecords.count {
                    // One insert(contentsOf:) per run of records of the same entity.
                    var end = start + 1
                    while end < pendingRecords.count && pendingRecords[end].entity == pendingRecords[start].entity { end += 1 }
                    try tx.insert(contentsOf: Array(pendingRecords[start..<end]))
                    start = end
                }
                for (entity, relationship, source, target) in pendingLinks {
                    try tx.link(entity, id: source, relationship, to: target)
                }
            }
            written += pendingRecords.count
            progress(written)
            pendingRecords.removeAll(keepingCapacity: true)
            pendingLinks.removeAll(keepingCapacity: true)
        }
        try walk(records: { r in
            pendingRecords.append(r)
            if pendingRecords.count >= chunk { try flush() }
        }, link: { entity, relationship, source, target in
            pendingLinks.append((entity, relationship, source, target))
        })
        try flush()
    }

    /// Visits every record, then its links (whose targets were visited earlier), in load order.
    /// Links are (entity, relationship, source key, target key): Post `author` and `tags`,
    /// Comment `post`, `author` and `parent`, User `following`.
    func walk(records: (Record) throws -> Void, link: (String, String, Value, Value) throws -> Void) rethrows {
        for n in 1...tags { try records(tag(n)) }
        for id in 1...Int64(users) { try records(user(id)) }
        for id in 1...Int64(posts) {
            let p = post(id)
            try records(p.record)
            try link("Post", "author", .int64(id), .int64(p.author))
            for t in p.tags { try link("Post", "tags", .int64(id), .string(t)) }
        }
        for id in 1...Int64(comments) {
            let c = comment(id)
            try records(c.record)
            try link("Comment", "post", .int64(id), .int64(c.post))
            try link("Comment", "author", .int64(id), .int64(c.author))
            if let parent = c.parent { try link("Comment", "parent", .int64(id), .int64(parent)) }
        }
        for id in 1...Int64(users) {
            for other in follows(id) { try link("User", "following", .int64(id), .int64(other)) }
        }
    }

    /// Writes `count` rows of the 10-integer shape with ids `1…count`.
    public func loadRows(into repo: any Repository, count: Int, chunk: Int = 10_000, progress: (Int) -> Void = { _ in }) throws {
        var next: Int64 = 1
        while next <= Int64(count) {
            let end = min(Int64(count), next + Int64(chunk) - 1)
            let batch = (next...end).map(row)
            try repo.write { tx in try tx.insert(contentsOf: batch) }
            progress(Int(end))
            next = end + 1
        }
    }
}

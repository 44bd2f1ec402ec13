import StoreCore

extension SocialGenerator {
    /// The checksum of every record and link, in the order `load` writes them.
    public func checksum() -> DatasetChecksum {
        var sum = DatasetChecksum()
        walk(records: { sum.add($0) }, link: { sum.addLink("\($0).\($1)", $2, $3) })
        return sum
    }

    /// Records per write transaction of `load` (and of `memory.load`, on backends and floors).
    public static let loadChunk = 2_000
    /// Rows per write transaction of `loadRows` (and of `rows.load`).
    public static let rowsChunk = 10_000

    /// Writes the dataset into `repo`: tags, users, posts, comments, then follows, `chunk`
    /// records per write transaction. `progress` gets the records written so far.
    public func load(into repo: any Repository, chunk: Int = loadChunk, progress: (Int) -> Void = { _ in }) throws {
        var written = 0
        try loadChunks(chunk: chunk) { records, links in
            try write(records, links, into: repo)
            written += records.count
            progress(written)
        }
    }

    /// The dataset in the transactions `load` writes: every record in load order, cut after
    /// each `chunk` records, each piece with the links visited since the previous cut (links
    /// of the last records of a piece may come in the next). `write` gets each piece once.
    public func loadChunks(chunk: Int = loadChunk, _ write: (_ records: [Record], _ links: [SocialLink]) throws -> Void) throws {
        var pendingRecords: [Record] = []
        var pendingLinks: [SocialLink] = []
        func flush() throws {
            guard !pendingRecords.isEmpty || !pendingLinks.isEmpty else { return }
            try write(pendingRecords, pendingLinks)
            pendingRecords.removeAll(keepingCapacity: true)
            pendingLinks.removeAll(keepingCapacity: true)
        }
        try walk(records: { r in
            pendingRecords.append(r)
            if pendingRecords.count >= chunk { try flush() }
        }, link: { entity, relationship, source, target in
            pendingLinks.append(SocialLink(entity: entity, relationship: relationship, source: source, target: target))
        })
        try flush()
    }

    /// One write transaction of `load`: the records (one insert(contentsOf:) per run of the
    /// same entity), then the links.
    public func write(_ records: [Record], _ links: [SocialLink], into repo: any Repository) throws {
        try repo.write { tx in
            var start = 0
            while start < records.count {
                var end = start + 1
                while end < records.count && records[end].entity == records[start].entity { end += 1 }
                try tx.insert(contentsOf: Array(records[start..<end]))
                start = end
            }
            for l in links { try tx.link(l.entity, id: l.source, l.relationship, to: l.target) }
        }
    }

    /// Visits every record, then its links (whose targets were visited earlier), in load order.
    /// Links are (entity, relationship, source key, target key): Post `author` and `tags`,
    /// Comment `post`, `author` and `parent`, User `following`.
    package func walk(records: (Record) throws -> Void, link: (String, String, Value, Value) throws -> Void) rethrows {
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
    public func loadRows(into repo: any Repository, count: Int, chunk: Int = rowsChunk, progress: (Int) -> Void = { _ in }) throws {
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

/// A link of the social dataset: `source` of `entity` linked through `relationship` to `target`.
public struct SocialLink: Sendable, Hashable {
    public var entity: String
    public var relationship: String
    public var source: Value
    public var target: Value

    public init(entity: String, relationship: String, source: Value, target: Value) {
        self.entity = entity
        self.relationship = relationship
        self.source = source
        self.target = target
    }
}

import Foundation
import StoreCore

/// The shape of a generated dataset at one named scale, read from `Fixtures/<scale>.json`.
///
/// ```swift
/// let spec = try DatasetSpec.load(scale: "quick", fixtures: URL(fileURLWithPath: "Fixtures"))
/// let generator = SocialGenerator(spec)
/// ```
public struct DatasetSpec: Codable, Sendable, Hashable {
    /// A count drawn with a skew: `⌊n·u^skew⌋` over uniform `u`, so 1 is uniform.
    public struct Skewed: Codable, Sendable, Hashable {
        public var mean: Double
        public var skew: Double
    }
    public struct TagsPerPost: Codable, Sendable, Hashable { public var max: Int }
    /// `[min, max]` lengths in characters, and the share of non-ASCII words.
    public struct Text: Codable, Sendable, Hashable {
        public var nonASCIIShare: Double
        public var displayName: [Int]
        public var title: [Int]
        public var body: [Int]
        public var comment: [Int]
    }
    /// The 10-integer row shape: rows stored for the fetch, rows added by the insert.
    public struct Rows: Codable, Sendable, Hashable {
        public var fetch: Int
        public var insert: Int
    }
    /// Operations per repetition of each kind of workload.
    public struct Operations: Codable, Sendable, Hashable {
        public var single: Int
        public var batched: Int
        public var batchSize: Int
        public var bulk: Int
        public var chunk: Int
        public var queries: Int
        /// Queries per repetition for those that scan a whole entity (no usable index on some backends).
        public var slowQueries: Int
        public var scans: Int
    }

    /// The sizes of the registered YCSB workloads (`ycsb.a` … `f`) at this scale; absent: the
    /// property files' own.
    public struct YCSBSizes: Codable, Sendable, Hashable {
        public var recordCount: Int
        public var operationCount: Int
    }

    /// How far the growth sweeps go at this scale (`growth.*`): at most `maxRecords` records
    /// and `maxBytes` of values per store; absent: 100,000 records and 64 MiB.
    public struct GrowthLimits: Codable, Sendable, Hashable {
        public var maxRecords: Int
        public var maxBytes: Int
        public init(maxRecords: Int, maxBytes: Int) { (self.maxRecords, self.maxBytes) = (maxRecords, maxBytes) }
        public static let standard = GrowthLimits(maxRecords: 100_000, maxBytes: 64 << 20)
    }

    public var name: String
    public var seed: UInt64
    public var users: Int
    public var tags: Int
    public var postsPerUser: Skewed
    public var commentsPerPost: Skewed
    public var replyShare: Double
    public var tagsPerPost: TagsPerPost
    public var followsPerUser: Skewed
    public var text: Text
    public var rows: Rows
    public var operations: Operations
    public var ycsb: YCSBSizes?
    public var growth: GrowthLimits?

    public var posts: Int { Int((Double(users) * postsPerUser.mean).rounded()) }
    public var comments: Int { Int((Double(posts) * commentsPerPost.mean).rounded()) }

    /// Reads and checks `<fixtures>/<scale>.json`.
    public static func load(scale: String, fixtures: URL) throws -> DatasetSpec {
        let url = fixtures.appendingPathComponent("\(scale).json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            let known = available(in: fixtures)
            throw BenchError("no fixture file \(url.path) for scale '\(scale)'"
                + (known.isEmpty ? "; pass --fixtures DIR" : "; scales there: \(known.joined(separator: ", "))"))
        }
        let spec: DatasetSpec
        do {
            spec = try JSONDecoder().decode(DatasetSpec.self, from: data)
        } catch {
            throw BenchError("\(url.path) is not a dataset specification: \(error)")
        }
        try spec.validate(file: url.path)
        return spec
    }

    /// The scale names with a file in `fixtures`, sorted by size.
    public static func available(in fixtures: URL) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        let names = files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        let order = ["tiny", "quick", "standard", "large"]
        return names.sorted { (order.firstIndex(of: $0) ?? 99, $0) < (order.firstIndex(of: $1) ?? 99, $1) }
    }

    package func validate(file: String) throws {
        func check(_ ok: Bool, _ what: String) throws {
            if !ok { throw BenchError("\(file): \(what)") }
        }
        try check(users >= 2, "users must be at least 2")
        try check(tags >= 1, "tags must be at least 1")
        for (n, s) in [("postsPerUser", postsPerUser), ("commentsPerPost", commentsPerPost), ("followsPerUser", followsPerUser)] {
            try check(s.mean > 0 && s.skew >= 1, "\(n) needs mean > 0 and skew ≥ 1")
        }
        try check((0...1).contains(replyShare) && (0...1).contains(text.nonASCIIShare), "shares must lie in 0…1")
        for (n, r) in [("displayName", text.displayName), ("title", text.title), ("body", text.body), ("comment", text.comment)] {
            try check(r.count == 2 && r[0] >= 1 && r[0] <= r[1] && r[1] <= 4000, "text.\(n) must be [min, max] with 1 ≤ min ≤ max ≤ 4000")
        }
        let o = operations
        try check([o.single, o.batched, o.batchSize, o.bulk, o.chunk, o.queries, o.slowQueries, o.scans, rows.fetch, rows.insert].allSatisfy { $0 > 0 },
                  "operation and row counts must be positive")
        if let g = growth { try check(g.maxRecords >= 64 && g.maxBytes >= 1 << 20, "the growth block needs maxRecords ≥ 64 and maxBytes ≥ 1 MiB") }
        if let y = ycsb { try check(y.recordCount >= 1 && y.operationCount >= 0, "the ycsb block's recordCount must be positive and its operationCount not negative") }
        try check(o.single <= comments / 4 && o.batched <= comments / 4, "operations.single and .batched must not exceed a quarter of the comments")
    }
}

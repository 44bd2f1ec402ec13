import Foundation
import StoreConformance
import StoreCore

/// Deterministic records of the social domain: users, posts, comments with reply trees, tags
/// on posts and follows between users, all drawn from `spec.seed`.
///
/// Every record comes from its own random stream (seed, entity, id), so a workload can build
/// any record or key on its own without holding the dataset: memory measured in a cell is the
/// backend's, not the generator's. Ids are dense: users `1…users`, posts `1…posts`,
/// comments `1…comments`; tags are named `tag-0001`….
///
/// ```swift
/// let g = SocialGenerator(spec)
/// let post = g.post(42)          // record, author id and tag names
/// ```
/// Thread safety: a value type without state; share freely.
public struct SocialGenerator: Sendable {
    public let spec: DatasetSpec
    public let users: Int
    public let posts: Int
    public let comments: Int
    public let tags: Int

    /// The first moment of the dataset; posts are ten minutes apart after it.
    public static let epoch = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01

    public init(_ spec: DatasetSpec) {
        self.spec = spec
        users = spec.users
        posts = spec.posts
        comments = spec.comments
        tags = spec.tags
    }

    public var recordCount: Int { users + posts + comments + tags }

    // MARK: Records

    /// User `id` (1…users); ids past `users` give new users for insert workloads.
    public func user(_ id: Int64) -> Record {
        var r = stream(.user, id)
        let name = TextMaker.word(&r)
        let display = TextMaker.text(&r, spec.text.displayName, nonASCII: spec.text.nonASCIIShare)
        let email: Value = r.chance(0.8) ? .string("\(name)\(id)@example.org") : .null
        let age: Value = r.chance(0.9) ? .int64(Int64(16 + r.below(60))) : .null
        let score = Double(r.below(1_000_000)) / 100
        let joined = Self.epoch.addingTimeInterval(-Double(r.below(3 * 365 * 86_400)))
        let avatar: Value = r.chance(0.1) ? .bytes((0..<(16 + r.below(48))).map { _ in UInt8(truncatingIfNeeded: r.next()) }) : .null
        let external: Value = r.chance(0.5) ? .uuid(Self.uuid(&r)) : .null
        return Record(BenchSchema.user, values: [
            .int64(id), .string("\(name)\(id)"), .string(display), email, age, .double(score),
            .bool(r.chance(0.85)), .date(joined), avatar, external,
        ])
    }

    /// Post `id` (1…posts) with its author and its tags (sorted names).
    public func post(_ id: Int64) -> (record: Record, author: Int64, tags: [String]) {
        var r = stream(.post, id)
        let author = Int64(Self.skewed(&r, users, spec.postsPerUser.skew) + 1)
        let title = TextMaker.text(&r, spec.text.title, nonASCII: spec.text.nonASCIIShare)
        let body = TextMaker.text(&r, spec.text.body, nonASCII: spec.text.nonASCIIShare)
        let score = Int64(Self.skewed(&r, 1000, 2.0))
        let rating: Value = r.chance(0.7) ? .double(Double(r.below(51)) / 10) : .null
        let published = r.chance(0.75)
        var tagSet = Set<Int>()
        for _ in 0..<r.below(spec.tagsPerPost.max + 1) { tagSet.insert(Self.skewed(&r, tags, 1.5) + 1) }
        let record = Record(BenchSchema.post, values: [
            .int64(id), .string(title), .string(body), .int64(score), .date(postDate(id)), rating, .bool(published),
        ])
        return (record, author, tagSet.sorted().map(Self.tagName))
    }

    /// Comment `id` (1…comments) with its post, author and the comment it answers, if any.
    public func comment(_ id: Int64) -> (record: Record, post: Int64, author: Int64, parent: Int64?) {
        var r = stream(.comment, id)
        let parent = replyParent(&r, of: id)
        let author = Int64(Self.skewed(&r, users, spec.postsPerUser.skew) + 1)
        let text = TextMaker.text(&r, spec.text.comment, nonASCII: spec.text.nonASCIIShare)
        let post = parent.map(postOfComment) ?? rootPost(ofComment: id)
        let created = postDate(post).addingTimeInterval(Double(60 + r.below(7 * 86_400)))
        let record = Record(BenchSchema.comment, values: [.int64(id), .string(text), .date(created)])
        return (record, post, author, parent)
    }

    /// Tag `n` (1…tags).
    public func tag(_ n: Int) -> Record {
        var r = stream(.tag, Int64(n))
        let color: Value = r.chance(0.6) ? .string(["red", "green", "blue", "amber", "violet", "teal"][r.below(6)]) : .null
        return Record(BenchSchema.tag, values: [.string(Self.tagName(n)), color])
    }

    public static func tagName(_ n: Int) -> String {
        let s = String(n)
        return "tag-" + String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    /// The users `id` follows, sorted, without itself.
    public func follows(_ id: Int64) -> [Int64] {
        var r = stream(.follow, id)
        var out = Set<Int64>()
        let n = r.below(Int(2 * spec.followsPerUser.mean) + 1)
        for _ in 0..<n {
            let other = Int64(Self.skewed(&r, users, spec.followsPerUser.skew) + 1)
            if other != id { out.insert(other) }
        }
        return out.sorted()
    }

    /// Row `id` of the 10-integer shape.
    public func row(_ id: Int64) -> Record {
        Record(BenchSchema.rowEntity, values: [.int64(id)] + (0..<10).map { .int64(id &* 10 &+ Int64($0)) })
    }

    // MARK: Derived values workloads use

    /// When post `id` was created: ten minutes after the previous one, plus jitter.
    public func postDate(_ id: Int64) -> Date {
        var r = stream(.postDate, id)
        return Self.epoch.addingTimeInterval(Double(id) * 600 + Double(r.below(600)))
    }

    /// The post a comment belongs to; a reply belongs to its parent's post.
    public func postOfComment(_ id: Int64) -> Int64 {
        var current = id
        while true {
            var r = stream(.comment, current)
            guard let parent = replyParent(&r, of: current) else { return rootPost(ofComment: current) }
            current = parent
        }
    }

    /// The comment that comment `id` answers, if any: the first draws of its stream.
    package func replyParent(_ r: inout SplitMix64, of id: Int64) -> Int64? {
        id > 1 && r.chance(spec.replyShare) ? id - 1 - Int64(r.below(min(Int(id) - 1, 64))) : nil
    }

    /// The post of a comment that answers no other: drawn skewed, popular posts get more.
    package func rootPost(ofComment id: Int64) -> Int64 {
        var p = stream(.commentPost, id)
        return Int64(Self.skewed(&p, posts, spec.commentsPerPost.skew) + 1)
    }

    // MARK: Randomness (internal)

    package enum Stream: UInt64 { case user = 1, post, comment, tag, follow, postDate, commentPost, workload }

    /// The random stream of one record: seed, entity and id mixed through SplitMix64.
    package func stream(_ s: Stream, _ id: Int64) -> SplitMix64 {
        var mix = SplitMix64(seed: spec.seed ^ (s.rawValue &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(bitPattern: id) &* 0xD1B5_4A32_D192_ED03))
        return SplitMix64(seed: mix.next())
    }

    /// A random stream for a workload's choices (keys, values), by name and repetition.
    public func workloadStream(_ name: String, repetition: Int) -> SplitMix64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return stream(.workload, Int64(bitPattern: h ^ UInt64(repetition)))
    }

    /// An index in `0..<n`, skewed towards 0 as `skew` grows (1 is uniform).
    package static func skewed(_ r: inout SplitMix64, _ n: Int, _ skew: Double) -> Int {
        let u = Double(r.next() >> 11) / Double(1 << 53)
        return min(n - 1, Int(Double(n) * pow(u, skew)))
    }

    package static func uuid(_ r: inout SplitMix64) -> UUID {
        let a = r.next(), b = r.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: a >> UInt64(8 * i)); bytes[8 + i] = UInt8(truncatingIfNeeded: b >> UInt64(8 * i)) }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

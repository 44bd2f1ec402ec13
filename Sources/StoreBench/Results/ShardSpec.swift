import Foundation

/// One part of a run split across machines (`storebench run --shard 2/4`): the plan's
/// workloads are dealt to `count` shards, each workload whole (every target, floor and scale),
/// so every ratio compares cells of one machine; `storebench merge` joins the parts.
public struct ShardSpec: Codable, Sendable, Hashable, CustomStringConvertible {
    /// 1-based.
    public let index: Int
    public let count: Int

    /// The most shards a run may be split into.
    public static let maxCount = 256

    public init(index: Int, count: Int) throws {
        guard (1...Self.maxCount).contains(count) else {
            throw BenchError("a run splits into 1…\(Self.maxCount) shards, not \(count)")
        }
        guard (1...count).contains(index) else {
            throw BenchError("shard \(index) of \(count) does not exist: shards are numbered 1…\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `i/n`, e.g. `2/4`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw BenchError("'\(text)' is not a shard: write INDEX/COUNT, e.g. 2/4 for the second of four")
        }
        try self.init(index: i, count: n)
    }

    public var description: String { "\(index)/\(count)" }
}

import Foundation
import StoreBenchKit

/// Joins the results of `run --shard 1/n … n/n` into the results of the whole plan, after
/// checking that they are the shards of one plan and one build and that every planned cell
/// appears exactly once. Each cell comes whole from the one shard that ran it, with its
/// latency histogram's percentiles, rounds and ratios as measured there: no figure is averaged
/// across machines. The loads that several shards ran are kept from the lowest shard.
public enum ShardMerge {
    /// A shard's results and the file they came from (for messages).
    public typealias Part = (path: String, results: RunResults)

    /// The merged results, or an error listing every problem found.
    public static func merge(_ parts: [Part]) throws -> RunResults {
        let shards = try parts.map { p -> (Part, ShardInfo) in
            guard let s = p.results.shard else {
                throw BenchError("\(p.path) is not a shard's results: it was written by a run without --shard")
            }
            return (p, s)
        }
        guard let (first, info) = shards.first else { throw BenchError("merge needs the results files of a run's shards") }
        var problems = belonging(shards, to: first.path, info)
        problems += coverage(shards, info)
        guard problems.isEmpty else {
            throw BenchError("cannot merge \(parts.count) file(s):\n" + problems.map { "  - \($0)" }.joined(separator: "\n"))
        }
        return joined(shards.sorted { $0.1.shard.index < $1.1.shard.index }, info)
    }

    /// Problems of files that are not shards of the first file's plan and build, or repeat or miss a shard.
    static func belonging(_ shards: [(Part, ShardInfo)], to firstPath: String, _ info: ShardInfo) -> [String] {
        var problems: [String] = []
        for (p, s) in shards.dropFirst() {
            if s.shard.count != info.shard.count || s.planFingerprint != info.planFingerprint {
                problems.append("\(p.path) is shard \(s.shard) of another plan (fingerprint \(s.planFingerprint), not \(info.planFingerprint) of \(firstPath)): run every shard with the same options and profile")
            } else if s.assignment != info.assignment {
                problems.append("\(p.path) dealt the workloads differently (balanced by \(s.balancedBy), \(firstPath) by \(info.balancedBy)): give every shard the same --balance file")
            }
            if p.results.datasets != shards[0].0.results.datasets {
                problems.append("\(p.path) measured other datasets than \(firstPath) (seeds or checksums differ): give every shard the same --fixtures")
            }
            let differences = s.build.differences(from: info.build)
            if !differences.isEmpty { problems.append("\(p.path) comes from another build than \(firstPath): \(differences.joined(separator: ", "))") }
        }
        for (p, _) in shards where p.results.interrupted == true {
            problems.append("\(p.path) is an interrupted run (\(p.results.interruptedBy ?? "stopped")): run that shard again")
        }
        let byIndex = Dictionary(grouping: shards, by: \.1.shard.index)
        for (i, group) in byIndex.sorted(by: { $0.key < $1.key }) where group.count > 1 {
            problems.append("shard \(i)/\(info.shard.count) is given \(group.count) times: \(group.map(\.0.path).joined(separator: ", "))")
        }
        let missing = (1...info.shard.count).filter { byIndex[$0] == nil }
        if !missing.isEmpty { problems.append("missing shard(s) \(missing.map { "\($0)/\(info.shard.count)" }.joined(separator: ", "))") }
        return problems
    }
}

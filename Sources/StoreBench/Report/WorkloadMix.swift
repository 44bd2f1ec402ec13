import Foundation
import StoreBenchKit

/// An application's operation mix: shares of `MixClass`es, normalized to sum to 1, from
/// `reads=80,writes=15,scans=5` or from a YCSB workload property file.
///
/// ```swift
/// let mix = try WorkloadMix("reads=80,writes=15,scans=5")
/// mix.shares.map(\.share)     // [0.8, 0.15, 0.05]
/// let e = try WorkloadMix(properties: text, source: "Fixtures/ycsb/workloade")   // scans 95%, inserts 5%
/// ```
public struct WorkloadMix: Sendable, CustomStringConvertible {
    public struct Share: Sendable, Hashable {
        public let mixClass: MixClass
        /// Its part of the mix, 0…1.
        public let share: Double
    }

    /// The classes with a positive share, in the order given.
    public let shares: [Share]
    /// What reading the mix ignored or assumed (a property file's other keys, YCSB's defaults).
    public let notes: [String]

    /// From shares in any unit (they are normalized); an error for an unknown class, a share that
    /// is negative or not a number, a class named twice, or shares that sum to 0.
    public init(_ shares: [(String, Double)], notes: [String] = []) throws {
        var seen = Set<String>()
        var parts: [(MixClass, Double)] = []
        for (id, share) in shares {
            guard let c = MixClass.named(id) else { throw BenchError("unknown class '\(id)' in the mix; known: \(Self.knownList)") }
            guard seen.insert(c.id).inserted else { throw BenchError("class '\(c.id)' appears twice in the mix") }
            guard share.isFinite, share >= 0 else { throw BenchError("the share of '\(c.id)' must be a number ≥ 0, not \(share)") }
            parts.append((c, share))
        }
        let total = parts.map(\.1).reduce(0, +)
        guard total > 0 else { throw BenchError("the mix's shares sum to 0; give at least one class a positive share") }
        self.shares = parts.filter { $0.1 > 0 }.map { Share(mixClass: $0.0, share: $0.1 / total) }
        self.notes = notes
    }

    /// From `class=share,…` (`reads=80,writes=15,scans=5`; a share may end in `%`).
    public init(_ spec: String) throws {
        let items = spec.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var shares: [(String, Double)] = []
        for item in items {
            let kv = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, !kv[0].isEmpty else {
                throw BenchError("'\(item)' is not CLASS=SHARE; write e.g. reads=80,writes=15,scans=5 (classes: \(Self.knownList))")
            }
            let number = kv[1].hasSuffix("%") ? String(kv[1].dropLast()) : kv[1]
            guard let share = Double(number), share.isFinite, share >= 0 else {
                throw BenchError("the share of '\(kv[0])' must be a number ≥ 0, not '\(kv[1])'")
            }
            shares.append((kv[0], share))
        }
        try self.init(shares)
    }

    /// The classes a mix may name, with what each stands for.
    public static var knownList: String { MixClass.all.map(\.id).joined(separator: ", ") }

    /// `reads 80%, writes 15%, scans 5%`.
    public var description: String {
        shares.map { "\($0.mixClass.id) \(Self.percent($0.share))" }.joined(separator: ", ")
    }

    static func percent(_ share: Double) -> String {
        let p = share * 100
        return abs(p - p.rounded()) < 0.05 ? String(format: "%.0f%%", p) : String(format: "%.1f%%", p)
    }
}

extension WorkloadMix {
    /// YCSB's operation proportions and the classes each stands for (a read-modify-write is a
    /// read and an update, half each).
    static let proportions: [(key: String, classes: [String])] = [
        ("readproportion", ["reads"]), ("updateproportion", ["updates"]), ("insertproportion", ["inserts"]),
        ("scanproportion", ["scans"]), ("readmodifywriteproportion", ["reads", "updates"]),
    ]

    /// From a YCSB workload property file's text (`source` names it in errors): its proportions
    /// mapped to classes, YCSB's default for a proportion it does not set, every other key ignored
    /// with a note. A line that is not a property, or a proportion that is not a number ≥ 0, is an
    /// error naming its line.
    public init(properties text: String, source: String) throws {
        let p = try YCSBProperties.parse(text, source: source)
        let defaults = YCSBWorkloadSpec(name: source)
        let fallback = [defaults.readProportion, defaults.updateProportion, defaults.insertProportion,
                        defaults.scanProportion, defaults.readModifyWriteProportion]
        var byClass: [String: Double] = [:], order: [String] = [], notes: [String] = []
        for ((key, classes), byDefault) in zip(Self.proportions, fallback) {
            let value = try Self.proportion(p, key, source: source) ?? byDefault
            if p.values[key] == nil, byDefault > 0 { notes.append("\(key) not set: YCSB's default, \(byDefault)") }
            for c in classes {
                if byClass[c] == nil { order.append(c) }
                byClass[c, default: 0] += value / Double(classes.count)
            }
        }
        notes += Self.ignoredKeys(p)
        try self.init(order.map { ($0, byClass[$0]!) }, notes: notes)
    }

    /// Reads a proportion; nil when the file does not set it.
    private static func proportion(_ p: YCSBProperties, _ key: String, source: String) throws -> Double? {
        guard let text = p.values[key] else { return nil }
        guard let v = Double(text), v.isFinite, v >= 0 else {
            throw BenchError("\(source):\(p.lines[key] ?? 0): \(key) must be a number ≥ 0, not '\(text)'")
        }
        return v
    }

    /// Notes of the keys that do not shape the mix: YCSB's others, then any YCSB does not have.
    private static func ignoredKeys(_ p: YCSBProperties) -> [String] {
        let mixKeys = Set(proportions.map(\.key))
        let others = p.values.keys.filter { !mixKeys.contains($0) }.sorted { (p.lines[$0] ?? 0) < (p.lines[$1] ?? 0) }
        let known = others.filter { YCSBWorkloadSpec.known.contains($0) }, unknown = others.filter { !YCSBWorkloadSpec.known.contains($0) }
        var notes: [String] = []
        if !known.isEmpty { notes.append("ignored, as they do not change the mix: " + known.joined(separator: ", ")) }
        if !unknown.isEmpty {
            notes.append("ignored, not properties of YCSB's core workload: " + unknown.map { "\($0) (line \(p.lines[$0] ?? 0))" }.joined(separator: ", "))
        }
        return notes
    }
}

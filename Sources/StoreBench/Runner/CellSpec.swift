import Foundation
import StoreCore

/// One (target, workload, scale) cell as the parent hands it to a child process.
public struct CellSpec: Codable, Sendable, Hashable {
    /// A backend name, or `floor:<engine>` for a bare C-API floor.
    public var target: String
    public var workload: String
    public var scale: String
    public var fixtures: String
    /// The loaded store this cell copies; a load cell writes it.
    public var template: String
    /// A scratch directory that belongs to this cell.
    public var work: String
    public var repetitions: Int
    public var warmup: Int
    public var durability: Durability
    /// Spans shorter than this many nanoseconds are timed in groups.
    public var minimumSpan: UInt64
    /// Where the child writes its `CellOutcome` as JSON.
    public var outcome: String

    public static let floorPrefix = "floor:"

    /// The engine when the target is a floor.
    public var floorEngine: String? {
        target.hasPrefix(Self.floorPrefix) ? String(target.dropFirst(Self.floorPrefix.count)) : nil
    }
}

/// What a cell measured, written by the child and read by the parent.
public struct CellOutcome: Codable, Sendable, Hashable {
    /// Seconds of timed work in each measured repetition.
    public var samples: [Double]
    /// Operations in one repetition.
    public var operations: Int
    /// Timed spans in one repetition (each costs one clock reading).
    public var spans: Int
    public var latency: LatencySummary
    public var peakResidentBytes: UInt64?
    public var diskBytes: UInt64?
    public var metrics: [String: Double]
}

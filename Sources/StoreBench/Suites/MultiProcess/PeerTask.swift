import Foundation
import Histogram
import StoreBenchKit
import StoreCore

/// What one process of a multi-process repetition does (`storebench peer --task FILE`): read
/// posts by key, or commit small updates, on the shared store, each operation timed.
public struct PeerTask: Codable, Sendable {
    public enum Role: String, Codable, Sendable {
        /// Reads each key once in its own read transaction, or, with a stop file, goes round
        /// the keys until the file exists.
        case reader
        /// Changes two attributes of each key's post, one write transaction each, then
        /// creates the stop file.
        case writer
    }

    public var backend: String
    public var store: String
    public var durability: Durability
    public var role: Role
    public var keys: [Int64]
    public var stopFile: String?
    /// Where the process writes its `PeerResult` as JSON.
    public var result: String
}

/// What one process measured: its operations, each one's latency, and when it started and
/// ended on the machine's monotonic clock (the same in every process), so the parent takes
/// the wall time of all of them together.
public struct PeerResult: Codable, Sendable {
    public var operations: Int
    public var latency: Histogram<UInt64>
    public var started: UInt64
    public var ended: UInt64
    public var sink: Int
}

import Foundation
import Histogram
import StoreConformance
import StoreCore
import StoreBenchKit

/// One moment of a soak run (`run --soak`): what the interval ending at `seconds` did, and the
/// store's file size and the process's resident memory at its end.
public struct SoakSample: Codable, Sendable, Hashable {
    public var seconds: Double
    public var operations: Int
    public var operationsPerSecond: Double
    /// Latency percentiles of the interval's operations, nanoseconds.
    public var latency: LatencySummary
    public var fileBytes: UInt64
    public var residentBytes: UInt64
    /// Users in the store at the interval's end.
    public var records: Int
}

/// A backend's soak run: its samples, or why it stopped.
public struct SoakSeries: Codable, Sendable, Hashable {
    public var backend: String
    public var samples: [SoakSample] = []
    public var failure: String?

    public init(backend: String) { self.backend = backend }
}

/// The mixed workload a soak repeats on one store, in the process that runs it: a sliding
/// window of users (keys `low..<high`, 2,000 at the start), each operation 50% a read of a
/// random key in the window, 30% an update of one, and 20% an insert at its top or a delete at
/// its bottom, in turn (10% each), so the record count stays at 2,000–2,001 and any growth of the file or of memory
/// over time is the backend's own.
public enum SoakRun {
    public static func run(_ backend: BackendDescriptor, directory: URL, seconds: Double, interval: Double,
                           durability: Durability, seed: UInt64 = 1) throws -> SoakSeries {
        let repo = try backend.open(SocialSchema.make(), directory, StoreOptions(durability: durability))
        defer { try? repo.close() }
        var window = (low: 1, high: 2_001), rng = SplitMix64(seed: seed)
        try repo.write { tx in for id in window.low..<window.high { try tx.insert(try user(tx.schema, id, 0)) } }
        var series = SoakSeries(backend: backend.name)
        let started = MonotonicClock.now(), end = started + UInt64(seconds * 1e9)
        var histogram = OperationTimer.emptyHistogram(), count = 0, intervalStart = started
        while true {
            let t0 = MonotonicClock.now()
            try operation(repo, &window, &rng)
            let t1 = MonotonicClock.now()
            histogram.record(t1 - t0)
            count += 1
            guard t1 - intervalStart >= UInt64(interval * 1e9) || t1 >= end else { continue }
            let span = Double(t1 - intervalStart) / 1e9
            series.samples.append(SoakSample(seconds: Double(t1 - started) / 1e9, operations: count, operationsPerSecond: Double(count) / span,
                                             latency: LatencySummary(histogram), fileBytes: CellExecutor.allocatedBytes(directory) ?? 0,
                                             residentBytes: ResidentMemory.current() ?? 0, records: window.high - window.low))
            if t1 >= end { return series }
            histogram = OperationTimer.emptyHistogram()
            count = 0
            intervalStart = MonotonicClock.now()
        }
    }

    private static func operation(_ repo: any Repository, _ window: inout (low: Int, high: Int), _ rng: inout SplitMix64) throws {
        let roll = rng.below(10), key = window.low + rng.below(window.high - window.low)
        switch roll {
        case 0..<5: _ = try repo.read { try $0.fetch("User", id: .int64(Int64(key))) }
        case 5..<8: try repo.write { tx in try tx.update("User", id: .int64(Int64(key)), set: ["score": .double(Double(rng.below(1_000)))]) }
        case 8...9 where window.high - window.low <= 2_000:     // inserts and deletes alternate: the count stays 2,000–2,001
            let id = window.high
            try repo.write { tx in try tx.insert(try user(tx.schema, id, rng.below(400))) }
            window.high += 1
        default:
            let id = window.low
            try repo.write { tx in try tx.delete("User", id: .int64(Int64(id))) }
            window.low += 1
        }
    }

    private static func user(_ schema: Schema, _ id: Int, _ extra: Int) throws -> Record {
        try schema.entity("User").record(["id": .int64(Int64(id)), "username": .string("soak\(id)"),
                                          "displayName": .string(String(repeating: "s", count: 20 + extra)),
                                          "joinedAt": .date(Date(timeIntervalSince1970: Double(id)))])
    }
}

import CBenchSupport
import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// The child side of a crash trial: opens (creating) the store and commits the seed's
/// transactions one after another until it is killed, appending `ack N` to the acknowledgement
/// file after each commit returned. The line is written with one `write(2)` on a file opened
/// with `O_APPEND`, so a kill leaves whole lines only.
public enum TortureWriter {
    /// Runs until killed or `limit` transactions are committed. Throws what the store throws
    /// beyond the errors the workload tolerates.
    public static func run(_ backend: BackendDescriptor, directory: URL, seed: UInt64, acknowledgements: URL,
                           durability: Durability, limit: Int = 1_000_000) throws {
        // Ends with the trial's runner, even when that is killed.
        _ = sb_die_with_parent(getppid())
        let acks = try AppendLog(acknowledgements)
        let store = try backend.open(SocialSchema.make(), directory, StoreOptions(durability: durability))
        defer { try? store.close() }
        for i in 1...limit {
            try store.write { tx in try TortureWorkload.run(seed: seed, index: i, in: tx) }
            try acks.append("ack \(i)")
        }
    }

    /// The last acknowledged transaction in an acknowledgement file (0 when none).
    public static func lastAcknowledged(_ url: URL) -> Int {
        guard let data = FileManager.default.contents(atPath: url.path) else { return 0 }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        return lines.last.flatMap { Int($0.dropFirst(4)) } ?? 0
    }
}

import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

extension GrowthWorkloads {
    /// Grows the store through every point, reporting each point's figures; the reads at the
    /// last point are the cell's timed operations.
    static func grow(_ s: State, _ timer: OperationTimer) throws -> Int {
        typealias F = GrowthSuite.Figures
        var rng = SplitMix64(seed: s.seed), have = 0, sink = 0
        for (i, n) in s.points.enumerated() {
            timer.report(F.records(i), Double(n))
            timer.report(F.insert(i), Double(try insert(s, from: have, to: n, &rng)) / Double(max(1, n - have)))
            have = n
            let keys = (0..<reads).map { _ in Int64(rng.below(n)) + 1 }
            let start = MonotonicClock.now()
            if i == s.points.count - 1 {
                try timer.unit(operations: keys.count) { for k in keys { sink &+= try s.repo.readByKey("Item", k) } }
            } else {
                for k in keys { sink &+= try s.repo.readByKey("Item", k) }
            }
            timer.report(F.read(i), Double(MonotonicClock.now() &- start) / Double(keys.count))
            let pageStart = MonotonicClock.now()
            for _ in 0..<pages { sink &+= try s.repo.read { tx in Touch.records(try tx.fetch(page)) } }
            timer.report(F.query(i), Double(MonotonicClock.now() &- pageStart) / Double(pages))
            let resident = Double(ResidentMemory.current() ?? 0) - Double(s.residentAtStart)
            timer.report(F.resident(i), max(0, resident))
        }
        return sink
    }

    /// Inserts records `from+1…to` in chunks, each chunk built before its transaction; the
    /// nanoseconds the transactions took.
    static func insert(_ s: State, from: Int, to: Int, _ rng: inout SplitMix64) throws -> UInt64 {
        let entity = schema["Item"]!
        var elapsed: UInt64 = 0
        for first in stride(from: from + 1, through: to, by: chunk) {
            let records = (first...min(to, first + chunk - 1)).map { id in
                Record(entity, values: [.int64(Int64(id)), .int64(Int64(rng.below(1 << 40))), .bytes(payload(s.valueBytes, &rng))])
            }
            let start = MonotonicClock.now()
            try s.repo.write { tx in try tx.insert(contentsOf: records) }
            elapsed &+= MonotonicClock.now() &- start
        }
        return elapsed
    }

    static func payload(_ bytes: Int, _ rng: inout SplitMix64) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bytes)
        var i = 0
        while i < bytes {
            var word = rng.next()
            for _ in 0..<min(8, bytes - i) {
                out[i] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                i += 1
            }
        }
        return out
    }
}

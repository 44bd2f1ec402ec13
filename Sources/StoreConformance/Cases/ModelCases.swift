import Foundation
import StoreCore

/// Property-based: seeded random sequences of every kind of write, query and rolled-back
/// transaction, run on the backend and on an in-memory model (`ReferenceModel`) and compared
/// after each operation (`ModelRun`). A difference is shrunk to a short sequence and reported
/// with its seed. `STOREBENCH_KIT_SEED` and `STOREBENCH_KIT_OPS` (default 10,000) change the run.
enum ModelCases {
    static let defaultSeed: UInt64 = 0x5B_2026
    static var seed: UInt64 { ProcessInfo.processInfo.environment["STOREBENCH_KIT_SEED"].flatMap { UInt64($0) } ?? defaultSeed }
    static var operations: Int { ProcessInfo.processInfo.environment["STOREBENCH_KIT_OPS"].flatMap { Int($0) } ?? 10_000 }

    static let all: [ConformanceCase] = [
        ConformanceCase("model", "randomOperationsMatchTheModel") { ctx in
            try ModelRun.check(ctx, seed: seed, count: operations)
        },
        ConformanceCase("model", "shortSequencesFromManySeeds") { ctx in
            for s in 1...20 { try ModelRun.check(ctx, seed: seed &+ UInt64(s) &* 0x9E37_79B9, count: 150) }
        },
    ]
}

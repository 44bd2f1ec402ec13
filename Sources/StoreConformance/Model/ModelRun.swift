import Foundation
import StoreCore

/// Runs operation sequences on a store and on `ReferenceModel` side by side: after each
/// operation its outcome and the state of the nodes it touched must agree, and every 500
/// operations (and at the end) the whole store. A difference is shrunk to a short sequence
/// that still shows one, replayed on fresh stores, and reported with the seed.
enum ModelRun {
    struct Mismatch: Error { let step: Int, detail: String }

    /// Runs `ops` on a fresh store of `ModelSchema` in `ctx`; the first difference, if any.
    static func replay(_ ctx: ConformanceContext, _ ops: [ModelOperation]) throws -> Mismatch? {
        let repo = try ctx.startOver(with: ModelSchema.make())
        var model = ReferenceModel()
        for (i, op) in ops.enumerated() {
            let expected = model.apply(op)
            let got = outcome(of: op, on: repo)
            if got != expected { return Mismatch(step: i, detail: "\(op): the store answered \(got), the model \(expected)") }
            let ids = (i + 1) % 500 == 0 || i == ops.count - 1 ? Set(model.ids + op.touched + ModelGenerator.keys) : Set(op.touched)
            if let d = try differences(repo, model, ids.sorted()) { return Mismatch(step: i, detail: "after \(op): \(d)") }
        }
        return nil
    }

    /// Runs `count` seeded operations; on a difference, throws a failure with the seed and the
    /// shrunk sequence.
    static func check(_ ctx: ConformanceContext, seed: UInt64, count: Int) throws {
        var gen = ModelGenerator(seed: seed)
        let ops = (0..<count).map { _ in gen.next() }
        guard let first = try replay(ctx, ops) else { return }
        let shrunk = try shrink(ctx, Array(ops.prefix(first.step + 1)))
        let last = try replay(ctx, shrunk) ?? first
        let steps = shrunk.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        throw ConformanceFailure("""
            operation \(first.step + 1) of \(count) (seed \(seed); replay with STOREBENCH_KIT_SEED=\(seed)): \(first.detail)
            shrunk to \(shrunk.count) operation(s) on a fresh store, where \(last.detail):
            \(steps)
            """)
    }

    /// Delta debugging: drops chunks of the sequence while a replay still differs (at most
    /// 300 replays).
    static func shrink(_ ctx: ConformanceContext, _ failing: [ModelOperation]) throws -> [ModelOperation] {
        var ops = failing, parts = 2, budget = 300
        while ops.count > 1 && budget > 0 {
            let size = (ops.count + parts - 1) / parts
            var reduced = false
            for start in stride(from: 0, to: ops.count, by: size) where budget > 0 {
                budget -= 1
                let candidate = Array(ops[..<start] + ops[min(start + size, ops.count)...])
                if let m = try replay(ctx, candidate) {
                    ops = Array(candidate.prefix(m.step + 1))
                    parts = max(parts - 1, 2)
                    reduced = true
                    break
                }
            }
            if !reduced {
                if parts >= ops.count { break }
                parts = min(ops.count, parts * 2)
            }
        }
        return ops
    }

    /// What the store answers to `op`, each in a write transaction of its own.
    static func outcome(of op: ModelOperation, on repo: any Repository) -> ModelOperation.Outcome {
        struct Rollback: Error {}
        do {
            return try repo.write { tx in
                if case .rolledBack(let ops) = op {
                    for o in ops { try perform(o, tx) }
                    throw Rollback()
                }
                return try perform(op, tx)
            }
        } catch is Rollback {
            return .done
        } catch let e as StoreError {
            if case .rolledBack = op { return .done }
            return .error(e.category)
        } catch {
            return .error(.io)
        }
    }
}

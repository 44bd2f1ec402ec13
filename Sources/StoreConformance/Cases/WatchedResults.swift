import Foundation
import StoreCore

/// An observation under test with a mirror of its results' primary keys: each change is
/// checked (indices in range, sorted, non-empty, kept records in the same order, modified
/// records the same on both sides) and applied to the mirror, which must then match the
/// observation's own results.
final class WatchedResults {
    let observation: any ResultsObservation
    private let key: String
    private(set) var ids: [Value]
    /// Keys delivered as inserted or modified, and how many changes came, since the start.
    private(set) var inserted: Set<Value> = []
    private(set) var modified: Set<Value> = []
    private(set) var deliveries = 0

    init(_ repository: any Repository, _ query: Query) throws {
        guard let observing = repository as? any ObservingRepository else {
            throw ConformanceFailure("the backend declares observation but is not an ObservingRepository")
        }
        observation = try observing.observeResults(query)
        let entity = try repository.schema.entity(query.entity)
        key = entity.attributes[entity.primaryKeyOrdinal].name
        ids = []
        ids = try current()
        let stored = try repository.read { try $0.fetch(query).map(\.id) }
        if ids != stored { throw ConformanceFailure("the observation starts with \(ids), the query returns \(stored)") }
    }

    convenience init(_ ctx: ConformanceContext, _ query: Query) throws { try self.init(try ctx.repository, query) }

    /// The next change, within 10 seconds of `what`, checked and applied.
    func next(_ what: String) throws -> CollectionChange {
        guard let change = try observation.waitForChange(timeout: 10) else {
            throw ConformanceFailure("no change was delivered within 10 s of \(what)")
        }
        try apply(change, what)
        return change
    }

    /// Waits for changes until the results are `expected` and every key of `modifying` was
    /// delivered as modified, checking each (10 s in all). A delivery may re-read results that
    /// already hold later commits, so the modification can come after the final results.
    func follow(until expected: [Value], modifying: Set<Value> = [], _ what: String) throws {
        let deadline = Date(timeIntervalSinceNow: 10)
        while ids != expected || !modifying.isSubset(of: modified) {
            guard let change = try observation.waitForChange(timeout: deadline.timeIntervalSinceNow) else {
                let missed = modifying.subtracting(modified).map(\.description).sorted().joined(separator: ", ")
                throw ConformanceFailure(ids != expected ? "after \(what), the observed results stayed \(ids), not \(expected), for 10 s"
                                         : "after \(what), no modification of [\(missed)] was delivered within 10 s")
            }
            try apply(change, what)
        }
    }

    private func current() throws -> [Value] { try (0..<observation.count).map { try observation.value(key, at: $0) } }

    private func apply(_ c: CollectionChange, _ what: String) throws {
        deliveries += 1
        let old = ids, new = try current()
        func fail(_ why: String) -> ConformanceFailure { ConformanceFailure("after \(what), the change \(c) from \(old) to \(new): \(why)") }
        if c.isEmpty { throw fail("an empty change was delivered") }
        for (name, xs, range) in [("deletions", c.deletions, old.indices), ("insertions", c.insertions, new.indices),
                                  ("modifications", c.modifications, old.indices), ("modificationsInNew", c.modificationsInNew, new.indices)]
        where xs != xs.sorted() || Set(xs).count != xs.count || !xs.allSatisfy(range.contains) {
            throw fail("\(name) are not sorted, distinct indices of the \(name == "deletions" || name == "modifications" ? "old" : "new") results")
        }
        let keptOld = old.indices.filter { !c.deletions.contains($0) }, keptNew = new.indices.filter { !c.insertions.contains($0) }
        if keptOld.map({ old[$0] }) != keptNew.map({ new[$0] }) { throw fail("the records neither deleted nor inserted differ or moved") }
        if c.modifications.count != c.modificationsInNew.count
            || !zip(c.modifications, c.modificationsInNew).allSatisfy({ keptOld.contains($0) && keptNew.contains($1) && old[$0] == new[$1] }) {
            throw fail("modifications and modificationsInNew do not name the same kept records")
        }
        inserted.formUnion(c.insertions.map { new[$0] })
        modified.formUnion(c.modificationsInNew.map { new[$0] })
        ids = new
    }
}

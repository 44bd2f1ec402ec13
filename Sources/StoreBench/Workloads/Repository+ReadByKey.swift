import StoreBenchKit
import StoreCore

extension Repository {
    /// Reads record `id` of `entity` in its own read transaction and folds every field
    /// (`Touch.row`); a missing record is an error naming it.
    func readByKey(_ entity: String, _ id: Int64) throws -> Int {
        try read { tx in try tx.touchByKey(entity, id) }
    }
}

extension ReadTransaction {
    /// Fetches record `id` of `entity` and folds every field (`Touch.row`); a missing record
    /// is an error naming it.
    func touchByKey(_ entity: String, _ id: Int64) throws -> Int {
        guard let r = try fetch(entity, id: .int64(id)) else { throw BenchError("\(entity) \(id) is missing") }
        return Touch.row(r)
    }
}

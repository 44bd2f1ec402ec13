import CLMDB
import StoreCore

/// The order databases (`LMDBOrder`) through a migration: dropped with their relationship or
/// when it is no longer ordered, moved with a renamed entity; a relationship made ordered gets
/// its order from its links afterwards (`LMDBTransaction.fillMissingOrders`).
extension LMDBMigration {
    /// Drops the order databases of removed entities and relationships, and of relationships
    /// the destination no longer orders.
    func dropUnusedOrders(_ old: LMDBLayout) throws {
        for e in stage.removedEntities {
            for d in old.orders[e.index] { if let d { try drop(d) } }
        }
        for s in stage.entities {
            guard let source = s.source else { continue }
            for (j, r) in source.relationships.enumerated() {
                guard let d = old.orders[source.index][j] else { continue }
                let kept = s.relationships.firstIndex { $0?.name == r.name }.map { s.entity.relationships[$0] }
                if kept?.isOrdered != true { try drop(d) }
            }
        }
    }

    /// Moves the list orders of each renamed entity's kept ordered relationships into its new
    /// databases.
    func moveRenamedOrders(_ old: LMDBLayout, into new: LMDBLayout) throws {
        for s in stage.entities {
            guard let source = s.source, source.name != s.entity.name else { continue }
            for (k, was) in s.relationships.enumerated() {
                guard let was, let j = source.relationships.firstIndex(where: { $0.name == was.name }),
                      let from = old.orders[source.index][j], let to = new.orders[s.entity.index][k] else { continue }
                try copy(from, into: to)
                try drop(from)
            }
        }
    }
}

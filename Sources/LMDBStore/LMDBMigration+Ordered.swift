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
                if !keepsOrder(s, r) { try drop(d) }
            }
        }
    }

    /// Whether the destination keeps `r` of the entity step's source as an ordered relationship.
    func keepsOrder(_ s: MigrationStage.EntityStep, _ r: Relationship) -> Bool {
        s.relationships.firstIndex { $0?.name == r.name }.map { s.entity.relationships[$0].isOrdered } == true
    }

    /// Moves the list orders of each renamed entity's kept ordered relationships (`oldOrders`:
    /// the source layout's, with those of reused names moved aside) into its new databases.
    func moveRenamedOrders(_ oldOrders: [[MDB_dbi?]], into new: LMDBLayout) throws {
        for s in stage.entities {
            guard let source = s.source, source.name != s.entity.name else { continue }
            for (k, was) in s.relationships.enumerated() {
                guard let was, let j = source.relationships.firstIndex(where: { $0.name == was.name }),
                      let from = oldOrders[source.index][j], let to = new.orders[s.entity.index][k] else { continue }
                try copy(from, into: to)
                try drop(from)
            }
        }
    }
}

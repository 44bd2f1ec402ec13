import StoreCore

extension SavePlan {
    /// The order an ordered to-many of one object must have in the store after the save's links.
    struct OrderOp {
        let entity: String
        let id: Value
        let relationship: String
        let keys: [Value]

        /// Moves the stored links (after the save's unlinks and appending links) into `keys`' order.
        func apply(in tx: any WriteTransaction) throws {
            var stored = try tx.related(entity, id: id, via: relationship).map(\.id)
            let wanted = keys.filter(stored.contains)
            for (i, k) in wanted.enumerated() {
                guard let j = stored.firstIndex(of: k), j != i else { continue }
                try tx.move(entity, id: id, relationship, from: j, to: i)
                stored = OrderedLinks.moving(stored, from: j, to: i)
            }
        }
    }

    /// Plans the order of each ordered to-many of `o` edited in this context.
    mutating func planOrders(_ o: ManagedObject, _ model: GraphModel) {
        guard let slots = o.slots, o.state != .deleted else { return }
        for r in model.relationships[o.entity.index] where r.relationship.isOrdered {
            guard let keys = slots[r.index].arranged, slots[r.index].isDirty else { continue }
            orders.append(OrderOp(entity: o.entity.name, id: o.id, relationship: r.name, keys: keys))
        }
    }
}

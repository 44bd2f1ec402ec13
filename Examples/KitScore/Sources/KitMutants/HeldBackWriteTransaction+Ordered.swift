import StoreCore

/// Positions in ordered relationships go to the wrapped store unchanged (no held-back fault
/// touches them).
extension HeldBackWriteTransaction {
    func link(_ entity: String, id: Value, _ relationship: String, to target: Value, at index: Int) throws {
        try op {
            try withWriter { _ in
                try mapped(entity: entity) { try writer.link(entity, id: id, relationship, to: target, at: index) }
                fetchCache = [:]
            }
        }
    }

    func move(_ entity: String, id: Value, _ relationship: String, from: Int, to: Int) throws {
        try op {
            try withWriter { _ in
                try mapped(entity: entity) { try writer.move(entity, id: id, relationship, from: from, to: to) }
                fetchCache = [:]
            }
        }
    }
}

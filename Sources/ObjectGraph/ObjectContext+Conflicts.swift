import StoreCore

/// An object whose stored record changed under an unsaved edit of this context.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    public let objectID: ObjectID
    /// Attributes edited here and changed in the store since this context read them.
    public let attributes: [String]
    /// True when the record was deleted from the store.
    public let deletedInStore: Bool

    public var description: String {
        deletedInStore ? "\(objectID) (deleted in the store)" : "\(objectID).{\(attributes.joined(separator: ", "))}"
    }
}

extension ObjectContext {
    /// Internal: the conflicts of the unsaved updates with the store as `tx` sees it: an edited
    /// attribute whose stored value is no longer the one the edit was made on, or a record gone.
    func conflicts(in tx: any ReadTransaction) throws -> [MergeConflict] {
        var found: [MergeConflict] = []
        for o in changed.values where o.state == .saved && !o.changedOrdinals.isEmpty {
            guard let snapshot = o.committed else { continue }
            guard let stored = try tx.fetch(o.entity.name, id: o.id) else {
                found.append(MergeConflict(objectID: o.objectID, attributes: [], deletedInStore: true))
                continue
            }
            let changed = o.changedOrdinals.filter { !stored.values[$0].isIdentical(to: snapshot[$0]) }.sorted()
            if !changed.isEmpty {
                found.append(MergeConflict(objectID: o.objectID, attributes: changed.map { o.entity.attributes[$0].name },
                                           deletedInStore: false))
            }
        }
        return found.sorted { "\($0.objectID)" < "\($1.objectID)" }
    }

    /// Internal: settles conflicts found in the save's write transaction by `mergePolicy`; true
    /// when objects changed, so the save must plan again. `reportConflicts` throws.
    func settle(_ conflicts: [MergeConflict], in tx: any ReadTransaction) throws -> Bool {
        switch mergePolicy {
        case .objectWins:
            return false
        case .reportConflicts:
            throw StoreError.mergeConflict(conflicts)
        case .storeWins:
            for c in conflicts {
                guard let o = registered(c.objectID) else { continue }
                guard let stored = try tx.fetch(o.entity.name, id: o.id) else {
                    invalidate(o)
                    continue
                }
                for name in c.attributes {
                    let i = o.entity.ordinal(of: name)!
                    o.values![i] = stored.values[i]
                    o.committed![i] = stored.values[i]
                    o.changedOrdinals.remove(i)
                }
            }
            return true
        }
    }
}

extension StoreError {
    /// `conflict`: a save under `MergePolicy.reportConflicts` met records changed elsewhere.
    static func mergeConflict(_ conflicts: [MergeConflict]) -> StoreError {
        let list = conflicts.prefix(5).map(\.description).joined(separator: "; ")
        let more = conflicts.count > 5 ? " and \(conflicts.count - 5) more" : ""
        return StoreError(
            .conflict,
            "save refused: \(list)\(more) changed in the store since this context read them, under unsaved edits here. "
                + "Nothing was written and the edits are kept: save again with mergePolicy .objectWins to keep them, "
                + ".storeWins to take the stored values, or rollback()",
            context: conflicts.map { "\($0.objectID)" }.joined(separator: ", "))
    }
}

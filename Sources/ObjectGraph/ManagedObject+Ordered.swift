import StoreCore

/// Ordered to-many relationships (`Relationship(..., .toMany, ordered: true)`), as Realm's
/// `List` and Core Data's ordered to-many: `related(_:)` reads them in list order, and these
/// edits are staged like `add`/`remove`, the inverse side changing at once, saved with the
/// rest of the context's changes. A position outside the list, or an unordered relationship,
/// throws `invalidValue` naming the relationship and the index; nothing changes then.
///
/// ```swift
/// try album.insert(track, into: "tracks", at: 0)
/// try album.move(in: "tracks", from: 2, to: 0)
/// try album.remove(at: 1, from: "tracks")
/// try context.save()
/// ```
extension ManagedObject {
    /// Inserts `target` at `index` (`0...count`) of an ordered to-many; already there: no change.
    public func insert(_ target: ManagedObject, into name: String, at index: Int) throws {
        let context = try usableContext()
        try context.link(self, try context.model.info(entity, name), target, at: index)
    }

    /// Moves the object at `from` to `to` (both `0..<count`) in an ordered to-many.
    public func move(in name: String, from: Int, to: Int) throws {
        let context = try usableContext()
        try context.moveLink(self, try context.model.info(entity, name), from: from, to: to)
    }

    /// Removes the object at `index` (`0..<count`) of an ordered to-many and returns it.
    @discardableResult
    public func remove(at index: Int, from name: String) throws -> ManagedObject {
        let context = try usableContext()
        return try context.unlink(self, try context.model.info(entity, name), at: index)
    }
}

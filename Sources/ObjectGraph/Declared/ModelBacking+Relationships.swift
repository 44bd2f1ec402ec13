import StoreCore

// Relationships of a declared model. Managed: read from and written to the managed object
// (inverses change at once, both ways); unmanaged: held by `cache` and linked at insert.

extension ModelBacking {
    /// A to-one relationship's model, or nil.
    public func get<D: PersistentModel>(_ index: Int, cache: inout D?) -> D? {
        do {
            guard let (object, layout, context) = try bound() else { return cache }
            let r = context.model.relationships[layout.entity.index][layout.slots[index]]
            guard let target = try context.relatedObjects(object, r).first else { return nil }
            return try context.model(D.self, for: target)
        } catch {
            record(error)
            return nil
        }
    }

    /// A to-many relationship's models, primary key ascending (an ordered one in list order).
    public func get<D: PersistentModel>(_ index: Int, cache: inout [D]) -> [D] {
        do {
            guard let (object, layout, context) = try bound() else { return cache }
            let r = context.model.relationships[layout.entity.index][layout.slots[index]]
            let layoutOfD = try context.layout(of: D.self)
            return try context.relatedObjects(object, r).map { context.model(D.self, for: $0, layoutOfD) }
        } catch {
            record(error)
            return []
        }
    }

    /// Sets a to-one relationship; an unmanaged target is inserted into this model's context.
    public func set<D: PersistentModel>(_ index: Int, _ newValue: D?, cache: inout D?) {
        do {
            guard let (object, layout, context) = try bound() else {
                cache = newValue
                return
            }
            let name = layout.entity.relationships[layout.slots[index]].name
            let target = try newValue.map { try context.managedObject(of: $0) }
            let old = try object.relatedObject(name)
            try object.setRelated(name, to: target)
            if old !== target { old?.model?.persistentValuesDidChange() }
            newValue?.persistentValuesDidChange()
        } catch {
            record(error)
        }
    }

    /// Moves the objects of an ordered to-many into the order of `targets`.
    private func arrange(_ object: ManagedObject, _ name: String, as targets: [ManagedObject]) throws {
        var now = try object.related(name).map(\.objectID), seen = Set<ObjectID>()
        for (i, t) in targets.filter({ seen.insert($0.objectID).inserted }).enumerated() {
            guard let j = now.firstIndex(of: t.objectID), j != i, i < now.count else { continue }
            try object.move(in: name, from: j, to: i)
            now.insert(now.remove(at: j), at: i)
        }
    }

    /// Sets a to-many relationship: links the new targets (inserting unmanaged ones into this
    /// model's context) and unlinks the ones left out.
    public func set<D: PersistentModel>(_ index: Int, _ newValue: [D], cache: inout [D]) {
        do {
            guard let (object, layout, context) = try bound() else {
                cache = newValue
                return
            }
            let name = layout.entity.relationships[layout.slots[index]].name
            let targets = try newValue.map { try context.managedObject(of: $0) }
            let wanted = Set(targets.map(\.objectID))
            let current = try object.related(name)
            let present = Set(current.map(\.objectID))
            for old in current where !wanted.contains(old.objectID) {
                try object.remove(old, from: name)
                old.model?.persistentValuesDidChange()
            }
            for (t, m) in zip(targets, newValue) where !present.contains(t.objectID) {
                try object.add(t, to: name)
                m.persistentValuesDidChange()
            }
            if layout.entity.relationships[layout.slots[index]].isOrdered { try arrange(object, name, as: targets) }
        } catch {
            record(error)
        }
    }
}

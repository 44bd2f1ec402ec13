import StoreCore

// Inserting declared models: an unmanaged model and every unmanaged model it reaches through
// relationships become objects first, then their relationships are linked.

extension ObjectContext {
    /// The managed object of a model, inserting the model (and the unmanaged models it
    /// relates to) when it is unmanaged; `invalidValue` for a model of another context.
    func managedObject<M: PersistentModel>(of model: M) throws -> ManagedObject {
        if let o = model.persistentBacking.object {
            guard o.context === self else {
                throw StoreError(.invalidValue, "\(o.objectID) belongs to another context; fetch it here with model(_:id:)")
            }
            return o
        }
        var pending: [any PersistentModel] = []
        var seen: Set<ObjectIdentifier> = []
        var stack: [any PersistentModel] = [model]
        while let m = stack.popLast() {
            if m.persistentBacking.object != nil || !seen.insert(ObjectIdentifier(m)).inserted { continue }
            pending.append(m)
            for p in type(of: m).persistentProperties where p.isRelationship { stack += p.unmanagedTargets(m) }
        }
        for m in pending { try attach(m) }
        for m in pending { try linkUnmanagedRelationships(m) }
        return model.persistentBacking.object!
    }

    /// Inserts an unmanaged model's attributes as a new object and binds the model to it.
    private func attach<M: PersistentModel>(_ model: M) throws {
        let layout = try layout(of: M.self)
        var values = [Value](repeating: .null, count: layout.entity.attributes.count)
        for (i, p) in M.persistentProperties.enumerated() where !p.isRelationship {
            values[layout.slots[i]] = p.read(model)
        }
        let o = try insert(Record(layout.entity, values: values))
        model.persistentBacking.bind(o, layout)
        o.model = model
    }

    /// Links the relationships an inserted model held while unmanaged, then lets go of them
    /// (the managed object holds them now).
    private func linkUnmanagedRelationships<M: PersistentModel>(_ model: M) throws {
        let object = model.persistentBacking.object!
        for p in M.persistentProperties where p.isRelationship {
            for target in p.unmanagedTargets(model) {
                let t = try managedObject(of: target)
                if !(try object.related(p.name).contains { $0 === t }) { try object.add(t, to: p.name) }
            }
            p.clearUnmanaged(model)
        }
    }

    /// Internal: keeps an access error of a declared model for the next `save()`.
    func recordAccessError(_ error: StoreError) {
        if let e = accessErrors { accessErrors = (e.first, e.count + 1) } else { accessErrors = (error, 1) }
    }

    /// Internal: throws (once) the errors declared models' accessors recorded since the last save.
    func throwRecordedAccessErrors() throws {
        guard let (first, count) = accessErrors else { return }
        accessErrors = nil
        var e = first
        if count > 1 { e.message += " (and \(count - 1) more access errors since the last save)" }
        throw e
    }
}

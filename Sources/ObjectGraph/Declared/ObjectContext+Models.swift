import StoreCore

// Declared models (`@Model` classes) in a context: insert, fetch, look up, delete. These do
// not throw where SwiftData's do not (insert, delete): their errors surface at `save()`.

extension ObjectContext {
    /// Makes an unmanaged model managed by this context, with every unmanaged model it relates
    /// to; links its relationships (inverses both ways). Errors (a duplicate key in this
    /// context, a model of another context) are thrown by the next `save()`.
    ///
    /// ```swift
    /// let ann = User(id: 1, username: "ann")
    /// context.insert(ann)
    /// try context.save()
    /// ```
    public func insert<M: PersistentModel>(_ model: M) {
        do {
            _ = try managedObject(of: model)
        } catch {
            let e = error as? StoreError ?? StoreError(.io, "\(error)")
            model.persistentBacking.lastError = e
            recordAccessError(e)
        }
    }

    /// The models of a type matching a predicate, in order (unsaved changes count, as in
    /// `fetch(_ query:)`). Fetching a record twice gives the same model instance.
    ///
    /// ```swift
    /// let adults = try context.fetch(User.self, where: "age" >= 18, sort: [.asc("username")])
    /// ```
    public func fetch<M: PersistentModel>(_: M.Type, where predicate: StorePredicate = .all, sort: [SortKey] = [],
                                          limit: Int? = nil, offset: Int = 0) throws -> [M] {
        let layout = try layout(of: M.self)
        let objects = try fetch(Query(M.entityName, where: predicate, sort: sort, limit: limit, offset: offset))
        return objects.map { model(M.self, for: $0, layout) }
    }

    /// How many models of a type match a predicate.
    public func count<M: PersistentModel>(_: M.Type, where predicate: StorePredicate = .all) throws -> Int {
        try count(Query(M.entityName, where: predicate))
    }

    /// The model with this primary key, or nil.
    public func model<M: PersistentModel, K: PersistentValue>(_: M.Type, id: K) throws -> M? {
        guard let o = try object(M.entityName, id: id.storeValue) else { return nil }
        if let m = o.model as? M { return m }
        return model(M.self, for: o, try layout(of: M.self))
    }

    /// Marks a managed model deleted, applying delete rules (see `delete(_ object:)`); an
    /// error (e.g. the model belongs to another context) is thrown by the next `save()`.
    /// An unmanaged model is left as it is.
    public func delete<M: PersistentModel>(_ model: M) {
        guard let o = model.persistentBacking.object else { return }
        do { try delete(o) } catch { recordAccessError(error as? StoreError ?? StoreError(.io, "\(error)")) }
    }

    /// The model of a managed object: the one already bound to it, or a new one.
    public func model<M: PersistentModel>(_: M.Type, for object: ManagedObject) throws -> M {
        model(M.self, for: object, try layout(of: M.self))
    }

    /// The layout of `M` in this context's schema: the last one used, or the shared cache's.
    func layout<M: PersistentModel>(of _: M.Type) throws -> ModelLayout {
        let type = ObjectIdentifier(M.self)
        if let last = lastModelLayout, last.type == type { return last.layout }
        let layout = try ModelLayout.of(M.self, in: schema)
        lastModelLayout = (type, layout)
        return layout
    }

    func model<M: PersistentModel>(_: M.Type, for object: ManagedObject, _ layout: ModelLayout) -> M {
        if let m = object.model as? M { return m }
        let m = M(backing: ModelBacking(object, layout))
        object.model = m
        return m
    }
}

import StoreCore

// Attribute and relationship access. Every accessor may load the object (a fault) or the
// relationship from the store, so each one can throw.

extension ManagedObject {
    /// Internal: sets loaded values; they are also the saved state.
    func load(_ stored: [Value]) {
        let replaced = values != nil && model != nil && values != stored
        values = stored
        committed = stored
        changedOrdinals = []
        if replaced { model?.persistentValuesDidChange() }
    }

    /// Internal: drops loaded attributes and relationships; they reload on next touch.
    func turnIntoFault() {
        let wasLoaded = values != nil
        values = nil
        committed = nil
        slots = nil
        if wasLoaded { model?.persistentValuesDidChange() }
    }

    func usableContext() throws -> ObjectContext {
        try owner.checkOwned(self)
        return owner
    }

    /// The value of an attribute, loading the object if it is a fault.
    public func value(_ name: String) throws -> Value {
        try value(ordinal: try entity.requireOrdinal(of: name))
    }

    /// Internal: the value of the attribute at `ordinal`, loading a fault.
    @usableFromInline
    func value(ordinal i: Int) throws -> Value {
        let context = try usableContext()
        try context.fire(self)
        return values![i]
    }

    /// The value of an attribute as `T`; nil when null; `invalidValue` for another type.
    ///
    /// ```swift
    /// let age: Int64? = try user.get("age")
    /// ```
    public func get<T: RowValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T? {
        let v = try value(name)
        if v.isNull { return nil }
        return try record().require(T.self, at: entity.ordinal(of: name)!)
    }

    /// The non-null value of an attribute as `T`; `invalidValue` when null or of another type.
    public func require<T: RowValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        _ = try value(name)
        return try record().require(T.self, at: entity.ordinal(of: name)!)
    }

    /// Sets an attribute. The type is checked at once (`invalidValue`); a missing required
    /// value is reported by `save()`. The primary key cannot change.
    public func set(_ name: String, _ newValue: Value) throws {
        try set(ordinal: try entity.requireOrdinal(of: name), newValue)
    }

    /// Internal: sets the attribute at `ordinal` (see `set(_:_:)`).
    func set(ordinal i: Int, _ newValue: Value) throws {
        let context = try usableContext()
        try context.checkEditable(self)
        let v = newValue.isNull ? Value.null : try entity.checkedValue(newValue, forOrdinal: i)
        try context.fire(self)
        if i == entity.primaryKeyOrdinal {
            if v.isIdentical(to: values![i]) { return }
            throw StoreError(.invalidValue, "\(entity.name).\(entity.attributes[i].name) is the primary key and cannot change; insert a new object instead")
        }
        if values![i].isIdentical(to: v) { return }
        values![i] = v
        if state == .saved {
            if committed?[i].isIdentical(to: v) == true { changedOrdinals.remove(i) } else { changedOrdinals.insert(i) }
        }
        context.markChanged(self)
    }

    /// The attributes as a record (loading a fault).
    public func record() throws -> Record {
        let context = try usableContext()
        try context.fire(self)
        return Record(entity, values: values!)
    }

    /// The objects at the other end of a relationship, primary key ascending (0 or 1 for a
    /// to-one; an ordered to-many in its list order). Loads the relationship on first use; the objects come loaded with it.
    public func related(_ name: String) throws -> [ManagedObject] {
        let context = try usableContext()
        let r = try context.model.info(entity, name)
        return try context.relatedObjects(self, r)
    }

    /// The object at the other end of a to-one relationship, or nil.
    public func relatedObject(_ name: String) throws -> ManagedObject? {
        try related(name).first
    }

    /// Sets a to-one relationship (nil unlinks); the inverse side changes at once.
    public func setRelated(_ name: String, to target: ManagedObject?) throws {
        let context = try usableContext()
        let r = try context.model.info(entity, name)
        if let target {
            try context.link(self, r, target)
        } else {
            try context.checkEditable(self)
            for k in try context.relatedKeys(self, r) { context.unlinkPair(self, r, context.fault(ObjectID(r.destination, k))) }
        }
    }

    /// Adds an object to a to-many relationship (a to-one is replaced); inverse updated at once.
    public func add(_ target: ManagedObject, to name: String) throws {
        let context = try usableContext()
        try context.link(self, try context.model.info(entity, name), target)
    }

    /// Removes an object from a relationship (a no-op when it is not there).
    public func remove(_ target: ManagedObject, from name: String) throws {
        let context = try usableContext()
        try context.unlink(self, try context.model.info(entity, name), target)
    }
}

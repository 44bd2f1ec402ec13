// A managed object's declared model: bound by the context, unbound when the model ends.

extension ManagedObject {
    /// Binds `model` (whose backing holds this object) to this object.
    func bindModel<M: PersistentModel>(_ model: M) {
        self.model = model
        modelBacking = ObjectIdentifier(model.persistentBacking)
    }

    /// Unbinds the model `backing` belongs to, if it is the bound one.
    func unbindModel(of backing: ModelBacking) {
        guard modelBacking == ObjectIdentifier(backing) else { return }
        model = nil
        modelBacking = nil
    }
}

extension ModelBacking {
    /// The model this backing belongs to is being deallocated: its object forgets it.
    func modelEnded() { object?.unbindModel(of: self) }
}

import StoreCore

extension PredicateArgument {
    /// A declared model as a predicate argument: a relationship compared with it compares
    /// primary keys (`"author == %@", .object(ann)`). The model must be managed (inserted or
    /// fetched); an unmanaged one is `invalidValue`.
    public static func object<M: PersistentModel>(_ model: M) throws -> PredicateArgument {
        .value(try key(of: model))
    }

    /// Declared models as a list argument (for `IN`).
    public static func objects<M: PersistentModel>(_ models: [M]) throws -> PredicateArgument {
        .list(try models.map(key))
    }

    private static func key<M: PersistentModel>(of model: M) throws -> Value {
        guard let object = model.managedObject else {
            throw StoreError(.invalidValue, "a \(M.entityName) that is not in a context cannot be a predicate argument: insert it first")
        }
        return object.id
    }
}

import StoreCore

extension Schema {
    /// The schema of declared models (`@Model` classes): one entity per type, named after it.
    /// Throws `invalidSchema` naming the declaration at fault (no primary key, a relationship
    /// to a type not listed, a missing or inconsistent inverse).
    ///
    /// ```swift
    /// let schema = try Schema(version: 1, User.self, Post.self)
    /// ```
    public convenience init(version: Int, _ models: any PersistentModel.Type...) throws {
        try self.init(version: version, models: models)
    }

    /// The schema of declared models, from a list of types.
    public convenience init(version: Int, models: [any PersistentModel.Type]) throws {
        try self.init(version: version, entities: ModelSchemaBuilder(models).descriptions())
    }
}

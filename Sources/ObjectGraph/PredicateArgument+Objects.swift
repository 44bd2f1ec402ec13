import StoreCore

extension PredicateArgument {
    /// An object as a predicate argument: a relationship compared with it compares primary keys,
    /// as NSPredicate compares managed objects.
    ///
    /// ```swift
    /// let posts = try context.fetch(Query("Post", where: try StorePredicate(format: "author == %@", .object(ann))))
    /// let tagged = try StorePredicate(format: "ANY tags IN %@", .objects([swift, linux]))
    /// ```
    public static func object(_ object: ManagedObject) -> PredicateArgument { .value(object.id) }

    /// Objects as a list argument (for `IN`).
    public static func objects(_ objects: [ManagedObject]) -> PredicateArgument { .list(objects.map(\.id)) }
}

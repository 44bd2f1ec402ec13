import StoreCore

/// A typed wrapper over a managed object of one entity, like an NSManagedObject subclass or a
/// Realm `Object`: properties read and write the object's attributes by name.
///
/// ```swift
/// struct User: ObjectModel {
///     static let entityName = "User"
///     let object: ManagedObject
///     init(_ object: ManagedObject) { self.object = object }
///
///     var username: String { get throws { try object.require("username") } }
///     func rename(_ name: String) throws { try object.set("username", .string(name)) }
///     var posts: [Post] { get throws { try object.related("posts").map(Post.init) } }
/// }
/// let ann = try context.fetch(User.self, where: "username" == "ann").first
/// ```
public protocol ObjectModel {
    static var entityName: String { get }
    var object: ManagedObject { get }
    init(_ object: ManagedObject)
}

extension ObjectModel {
    public var objectID: ObjectID { object.objectID }
}

extension ObjectContext {
    /// Models matching a predicate, in order.
    public func fetch<M: ObjectModel>(_: M.Type, where predicate: StorePredicate = .all, sort: [SortKey] = [],
                                      limit: Int? = nil, offset: Int = 0) throws -> [M] {
        try fetch(Query(M.entityName, where: predicate, sort: sort, limit: limit, offset: offset)).map(M.init)
    }

    /// The model with this primary key, or nil.
    public func object<M: ObjectModel>(_: M.Type, id: Value) throws -> M? {
        try object(M.entityName, id: id).map(M.init)
    }

    /// Inserts a new model from named values.
    public func insert<M: ObjectModel>(_: M.Type, _ values: [String: Value]) throws -> M {
        M(try insert(M.entityName, values))
    }
}

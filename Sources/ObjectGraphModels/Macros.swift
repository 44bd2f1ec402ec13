@_exported import ObjectGraph
@_exported import Observation
@_exported import StoreCore

/// Turns a class into a declared model: its stored `var`s become the attributes and
/// relationships of an entity named after the class, with non-throwing, observed accessors.
///
/// ```swift
/// @Model final class User {
///     var id: Int64
///     @Attribute(.unique) var username: String
///     var bio: String? = nil
///     @Relationship(inverse: \Post.author, deleteRule: .cascade) var posts: [Post] = []
///     init(id: Int64, username: String) { self.id = id; self.username = username }
/// }
/// let schema = try Schema(version: 1, User.self, Post.self)
/// ```
///
/// The primary key is the property marked `@Attribute(.primaryKey)`, else the one named `id`.
/// `@Transient` properties are not stored. The macro adds `init(backing:)`, so a class with no
/// initializer of its own declares one.
///
/// `@Model(.embedded)` declares an embedded model (Realm's `EmbeddedObject`): its records live
/// inside one owner, which declares the relationship to it with delete rule `.cascade`.
@attached(member, names: named(persistentBacking), named(_persistentBacking), named(_$observationRegistrar), named(entityName),
          named(persistentProperties), named(init(backing:)), named(persistentValuesDidChange), named(isEmbeddedModel))
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel, Observable)
public macro Model(_ options: ModelOption...) = #externalMacro(module: "ObjectGraphMacros", type: "ModelMacro")

/// Options of a stored attribute: `.unique`, `.indexed`, `.primaryKey`.
@attached(peer)
public macro Attribute(_ options: AttributeOption...) = #externalMacro(module: "ObjectGraphMacros", type: "MarkerMacro")

/// A relationship whose inverse is the other side's property `inverse` (one side names it);
/// `.ordered` makes a to-many keep its array's order.
@attached(peer)
public macro Relationship<Root, Destination>(_ options: RelationshipOption..., inverse: KeyPath<Root, Destination>, deleteRule: DeleteRule = .nullify)
    = #externalMacro(module: "ObjectGraphMacros", type: "MarkerMacro")

/// A relationship with a delete rule (and `.ordered` for an ordered to-many); its inverse is
/// named on the other side, or inferred.
@attached(peer)
public macro Relationship(_ options: RelationshipOption..., deleteRule: DeleteRule = .nullify) = #externalMacro(module: "ObjectGraphMacros", type: "MarkerMacro")

/// A property that is not stored (it needs an initial value).
@attached(peer)
public macro Transient() = #externalMacro(module: "ObjectGraphMacros", type: "MarkerMacro")

/// Written by `@Model` on each stored property: its accessors and cache.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_), prefixed(_keyPath_))
public macro _PersistedProperty(_ index: Int) = #externalMacro(module: "ObjectGraphMacros", type: "PersistedPropertyMacro")

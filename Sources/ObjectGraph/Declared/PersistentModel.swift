import Observation
import StoreCore

/// A class declared with `@Model` (ObjectGraphModels): an entity whose stored properties are
/// attributes and relationships. The macro writes every requirement; nothing here is written
/// by hand.
///
/// A model is *unmanaged* (values held by the instance, as a Realm object before `add` or a
/// SwiftData model before `insert`) until `ObjectContext.insert(_:)`, then *managed*: its
/// properties read and write a `ManagedObject`. Access never throws: an error (the record was
/// deleted, the context is gone) is recorded, the getter returns the last known value, and the
/// context's next `save()` throws it.
public protocol PersistentModel: AnyObject, Observable {
    /// The entity's name: the type's name.
    static var entityName: String { get }
    /// The stored properties, in declaration order.
    static var persistentProperties: [ModelProperty] { get }
    /// Where the instance keeps its managed object (written by the macro).
    var persistentBacking: ModelBacking { get }
    /// A managed instance for a fetched object (written by the macro).
    init(backing: ModelBacking)
    /// Tells observers that every property may have changed (a reload or merge).
    func persistentValuesDidChange()
    /// Whether the entity is embedded (`@Model(.embedded)`); false unless the macro says so.
    static var isEmbeddedModel: Bool { get }
}

/// Options of `@Model`: `.embedded` declares an embedded model (Realm's `EmbeddedObject`).
public enum ModelOption: Sendable {
    case embedded
}

extension PersistentModel {
    public static var isEmbeddedModel: Bool { false }

    /// The managed object behind the model, for string-keyed (dynamic) access; nil while
    /// unmanaged.
    public var managedObject: ManagedObject? { persistentBacking.object }
    /// The context the model was inserted into or fetched from, while it lives.
    public var modelContext: ObjectContext? { persistentBacking.object?.context }
    /// The record's identity, once managed.
    public var persistentID: ObjectID? { persistentBacking.object?.objectID }
    /// The last error an access of this model recorded (also thrown by the context's next
    /// `save()`), nil when none.
    public var lastAccessError: StoreError? { persistentBacking.lastError }
    /// True once deleted in its context (before or after the save).
    public var isDeleted: Bool {
        guard let o = persistentBacking.object else { return false }
        return o.isDeleted || o.state == .invalidated
    }
}

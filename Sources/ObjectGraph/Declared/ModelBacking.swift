import StoreCore

/// Where a declared model keeps its managed object (nil while unmanaged) and the last error
/// an access recorded. One per model instance; written by the `@Model` macro.
public final class ModelBacking {
    // The hot fields are `@exclusivity(unchecked)`: a model and its backing belong to one
    // context's thread, and each getter read them (callgrind: ~600 instructions per 7-attribute
    // read in swift_beginAccess and its TLS look-ups).
    /// The managed object, once inserted or fetched.
    @exclusivity(unchecked) public private(set) var object: ManagedObject?
    /// `object` without a reference count: getters call through it without retaining and
    /// releasing the object (whose count lives in a side table, the context's registry holding
    /// it weakly: ~125 instructions a getter). Set with `object` by `bind`, its only writer;
    /// valid while `object` holds it.
    @usableFromInline @exclusivity(unchecked) var unretainedObject: Unmanaged<ManagedObject>?
    @usableFromInline @exclusivity(unchecked) var layout: ModelLayout?
    /// The last error an access recorded.
    public internal(set) var lastError: StoreError?

    /// An unmanaged model's backing.
    public init() {}

    init(_ object: ManagedObject, _ layout: ModelLayout) {
        bind(object, layout)
    }

    /// Binds an unmanaged model's backing to its new object.
    func bind(_ object: ManagedObject, _ layout: ModelLayout) {
        self.object = object
        unretainedObject = Unmanaged.passUnretained(object)
        self.layout = layout
    }

    /// The value a property's cache holds before it is read (written by the macro).
    public static func placeholder<T: PersistentValue>() -> T { T.placeholder }
    public static func placeholder<D: PersistentModel>() -> D? { nil }
    public static func placeholder<D: PersistentModel>() -> [D] { [] }

    /// Records an access error on the model and, when it has one, its context (whose next
    /// `save()` throws it).
    @usableFromInline
    func record(_ error: any Error) {
        let e = error as? StoreError ?? StoreError(.io, "\(error)")
        lastError = e
        object?.context?.recordAccessError(e)
    }

    /// The managed object and its layout, with a live context; nil while unmanaged.
    func bound() throws -> (ManagedObject, ModelLayout, ObjectContext)? {
        guard let object, let layout else { return nil }
        return (object, layout, try object.usableContext())
    }
}

// MARK: - Attributes

extension ModelBacking {
    /// An attribute's value: the managed object's, or (unmanaged, or after an error) `cache`.
    /// Inlinable, so that each model's getters are specialized for their types where the model
    /// is declared.
    @inlinable
    public func get<T: PersistentValue>(_ index: Int, cache: inout T) -> T {
        guard let unretainedObject, let ordinal = ordinal(of: index) else { return cache }
        do {
            let v = try unretainedObject._withUnsafeGuaranteedRef { try $0.value(ordinal: ordinal) }
            guard let t = T(storeValue: v) else { throw mismatch(v, at: ordinal, expected: T.self) }
            cache = t
            return t
        } catch {
            record(error)
            return cache
        }
    }

    /// The attribute ordinal of property `index`; nil while unmanaged.
    @inlinable
    func ordinal(of index: Int) -> Int? { layout?.slots[index] }

    @usableFromInline
    func mismatch(_ v: Value, at ordinal: Int, expected: Any.Type) -> StoreError {
        let name = layout.map { "\(object.map { "\($0.objectID)" } ?? "?").\($0.entity.attributes[ordinal].name)" } ?? "?"
        return StoreError(.invalidValue, "\(name) holds \(v), not a \(expected)")
    }

    /// Sets an attribute: `cache`, and the managed object's value when managed.
    public func set<T: PersistentValue>(_ index: Int, _ newValue: T, cache: inout T) {
        cache = newValue
        guard let object, let layout else { return }
        do { try object.set(ordinal: layout.slots[index], newValue.storeValue) } catch { record(error) }
    }
}

/// Where a declared model holds its backing (written by the `@Model` macro as a private stored
/// property), with an unretained copy for the getters.
public struct ModelBackingSlot {
    /// The backing; nil until the model is first managed or asked for it.
    public var backing: ModelBacking? {
        didSet { unretainedBacking = backing.map(Unmanaged.passUnretained) }
    }
    /// `backing` without a reference count, for getters: loading `backing` from the model's
    /// storage retains and releases it around each call (perf: a third of a declared read's
    /// reference counting). Valid while `backing` holds it.
    @usableFromInline var unretainedBacking: Unmanaged<ModelBacking>?

    /// An unmanaged model's empty slot.
    public init() {}

    /// A managed model's slot.
    public init(_ backing: ModelBacking) {
        self.backing = backing
        unretainedBacking = Unmanaged.passUnretained(backing)
    }
}

// Getters read through the slot's unretained backing: neither `persistentBacking` nor a load
// of `backing` retains and releases it on each property read (two atomic operations).
extension ModelBackingSlot {
    /// An attribute's value (see `ModelBacking.get`); `cache` while the model has no backing.
    @inlinable
    public func get<T: PersistentValue>(_ index: Int, cache: inout T) -> T {
        guard let unretainedBacking else { return cache }
        return unretainedBacking._withUnsafeGuaranteedRef { $0.get(index, cache: &cache) }
    }

    /// A to-one relationship's model (see `ModelBacking.get`).
    @inlinable
    public func get<D: PersistentModel>(_ index: Int, cache: inout D?) -> D? {
        guard let unretainedBacking else { return cache }
        return unretainedBacking._withUnsafeGuaranteedRef { $0.get(index, cache: &cache) }
    }

    /// A to-many relationship's models (see `ModelBacking.get`).
    @inlinable
    public func get<D: PersistentModel>(_ index: Int, cache: inout [D]) -> [D] {
        guard let unretainedBacking else { return cache }
        return unretainedBacking._withUnsafeGuaranteedRef { $0.get(index, cache: &cache) }
    }
}

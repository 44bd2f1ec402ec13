import StoreCore

/// The identity of a record across contexts: its entity and primary key.
///
/// ```swift
/// let id = ObjectID(schema["User"]!, 42)
/// let same = try otherContext.object(id)   // another context's object for the same record
/// ```
///
/// `Sendable`: pass object IDs between threads, never the objects themselves.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    public let entity: Entity
    /// The primary key, in stored form.
    public let key: Value

    public init(_ entity: Entity, _ key: Value) {
        self.entity = entity
        self.key = key
    }

    /// String keys compare by their bytes, as the stores do: Swift's `==` holds "é" and
    /// "e\u{301}" equal (canonical equivalence), but they are two records.
    public static func == (a: ObjectID, b: ObjectID) -> Bool {
        guard a.entity.index == b.entity.index else { return false }
        if case .string(let x) = a.key, case .string(let y) = b.key { return x.utf8.elementsEqual(y.utf8) }
        return a.key == b.key
    }

    /// An integer key (the common case) is mixed with the entity into one word: one
    /// `combine` instead of three on the identity map's hot path.
    public func hash(into h: inout Hasher) {
        if case .int64(let k) = key {
            h.combine(UInt64(bitPattern: k) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(entity.index))
        } else {
            h.combine(entity.index)
            h.combine(key)
        }
    }

    public var description: String { "\(entity.name)(\(key))" }
}

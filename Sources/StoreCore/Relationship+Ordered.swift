/// Ordered to-many relationships: the checks and list arithmetic every backend shares.
///
/// A backend stores one position per link of an ordered relationship, dense from 0; these
/// helpers decide where a link goes so every backend refuses the same bad input the same way.
extension Relationship {
    /// Throws `invalidValue` naming `entity.name` unless this relationship is an ordered to-many.
    public func requireOrdered(in entity: String, for operation: String) throws {
        guard isOrdered else {
            throw StoreError(.invalidValue, "\(operation) needs an ordered to-many; '\(entity).\(name)' is not ordered",
                             context: "\(entity).\(name)")
        }
    }
}

/// Position arithmetic on an ordered list of links (member keys in list order).
public enum OrderedLinks {
    /// The error for a position outside a list of `count` links of `entity.relationship`.
    public static func outOfRange(_ entity: String, _ relationship: String, index: Int, count: Int,
                                  inserting: Bool = false) -> StoreError {
        let valid = inserting ? "0...\(count)" : (count == 0 ? "none (the list is empty)" : "0..<\(count)")
        return StoreError(.invalidValue, "index \(index) is outside '\(entity).\(relationship)' (valid: \(valid))",
                          context: "\(entity).\(relationship)[\(index)]")
    }

    /// Checks that `index` can receive an insertion into a list of `count` links.
    public static func checkInsertion(_ entity: String, _ relationship: String, index: Int, count: Int) throws {
        guard (0...count).contains(index) else {
            throw outOfRange(entity, relationship, index: index, count: count, inserting: true)
        }
    }

    /// Checks that `index` names a link of a list of `count` links.
    public static func checkExisting(_ entity: String, _ relationship: String, index: Int, count: Int) throws {
        guard (0..<count).contains(index) else { throw outOfRange(entity, relationship, index: index, count: count) }
    }

    /// Checks both positions of a move within a list of `count`; true when it moves anything
    /// (`from != to`).
    public static func checkMove(_ entity: String, _ relationship: String, from: Int, to: Int, count: Int) throws -> Bool {
        try checkExisting(entity, relationship, index: from, count: count)
        try checkExisting(entity, relationship, index: to, count: count)
        return from != to
    }

    /// `list` with the element at `from` moved to `to`.
    public static func moving<T>(_ list: [T], from: Int, to: Int) -> [T] {
        var out = list
        out.insert(out.remove(at: from), at: to)
        return out
    }
}

extension WriteTransaction {
    /// A backend without `.orderedRelationships` refuses positions with `unsupported`.
    public func link(_ entity: String, id: Value, _ relationship: String, to target: Value, at index: Int) throws {
        throw StoreError(.unsupported, "this backend has no ordered relationships ('\(entity).\(relationship)' at \(index))",
                         context: "\(entity).\(relationship)[\(index)]")
    }

    /// A backend without `.orderedRelationships` refuses moves with `unsupported`.
    public func move(_ entity: String, id: Value, _ relationship: String, from: Int, to: Int) throws {
        throw StoreError(.unsupported, "this backend has no ordered relationships (move in '\(entity).\(relationship)')",
                         context: "\(entity).\(relationship)[\(from)]")
    }
}

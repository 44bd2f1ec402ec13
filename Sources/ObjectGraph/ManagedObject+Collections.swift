import StoreCore

// List and map attributes (Realm's `List<T>` and `Map<String, T>` of primitives): read whole,
// edited in place like Realm's collections. Every edit goes through `set`, so it is checked at
// once (`invalidValue` naming the attribute) and tracked as a change of the attribute.

extension ManagedObject {
    /// The elements of a list attribute (empty for nil); `invalidValue` when it is not a list.
    ///
    /// ```swift
    /// let tags = try note.list("tags")            // [Value]
    /// try note.append("swift", toList: "tags")
    /// try note.moveInList("tags", from: 0, to: 2)
    /// ```
    public func list(_ name: String) throws -> [Value] {
        let v = try value(name)
        if v.isNull { return [] }
        guard let xs = v.listValue else { throw notA("list", name) }
        return xs
    }

    /// The entries of a map attribute (empty for nil); `invalidValue` when it is not a map.
    public func map(_ name: String) throws -> [String: Value] {
        let v = try value(name)
        if v.isNull { return [:] }
        guard let m = v.mapValue else { throw notA("map", name) }
        return m
    }

    /// Appends an element to a list attribute.
    public func append(_ element: Value, toList name: String) throws {
        try editList(name) { $0.append(element) }
    }

    /// Inserts an element into a list attribute at `index` (`0...count`).
    public func insert(_ element: Value, intoList name: String, at index: Int) throws {
        try editList(name) { xs in
            guard (0...xs.count).contains(index) else { throw outOfRange(name, index, xs.count + 1) }
            xs.insert(element, at: index)
        }
    }

    /// Removes and returns the element of a list attribute at `index`.
    @discardableResult
    public func removeFromList(_ name: String, at index: Int) throws -> Value {
        var removed = Value.null
        try editList(name) { xs in
            guard xs.indices.contains(index) else { throw outOfRange(name, index, xs.count) }
            removed = xs.remove(at: index)
        }
        return removed
    }

    /// Moves the element of a list attribute at `from` to `to` (both indices of the list).
    public func moveInList(_ name: String, from: Int, to: Int) throws {
        try editList(name) { xs in
            guard xs.indices.contains(from), xs.indices.contains(to) else {
                throw outOfRange(name, xs.indices.contains(from) ? to : from, xs.count)
            }
            xs.insert(xs.remove(at: from), at: to)
        }
    }

    /// Sets (or, with nil, removes) the value under `key` in a map attribute.
    public func setValue(_ v: Value?, forKey key: String, inMap name: String) throws {
        var m = try map(name)
        m[key] = v
        try set(name, .map(m))
    }

    private func editList(_ name: String, _ edit: (inout [Value]) throws -> Void) throws {
        var xs = try list(name)
        try edit(&xs)
        try set(name, .list(xs))
    }

    private func notA(_ kind: String, _ name: String) -> StoreError {
        StoreError(.invalidValue, "\(entity.name).\(name) is not a \(kind) attribute")
    }

    private func outOfRange(_ name: String, _ index: Int, _ count: Int) -> StoreError {
        StoreError(.invalidValue, "\(entity.name).\(name): index \(index) is outside 0..<\(count)")
    }
}

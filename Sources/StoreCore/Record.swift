/// An owned row: an entity and its attribute values in attribute order.
///
/// ```swift
/// var r = try users.record(["id": 1, "username": "ann"])   // defaults filled in
/// r["bio"] = "hello"
/// let name = r.string(at: users.ordinal(of: "username")!)
/// ```
public struct Record: RowView, Sendable, Hashable {
    public let entity: Entity
    public var values: [Value]

    /// A record from values in attribute order. The count must match (checked on write).
    public init(_ entity: Entity, values: [Value]) {
        self.entity = entity
        self.values = values
    }

    /// Copies a (possibly borrowed) row into an owned record. Inlinable, so a backend's
    /// concrete row type is read without protocol dispatch per column.
    @inlinable
    public init(_ row: some RowView) {
        let entity = row.entity
        let n = entity.attributes.count
        // Reserve and append: `init(unsafeUninitializedCapacity:)` looks up the storage's
        // type at run time on every call (about 270 instructions a record on Linux).
        var values: [Value] = []
        values.reserveCapacity(n)
        for i in 0..<n { values.append(row[i]) }
        self.entity = entity
        self.values = values
    }

    @inlinable
    public subscript(_ ordinal: Int) -> Value {
        get { values[ordinal] }
        set { values[ordinal] = newValue }
    }

    /// Reads or sets a named attribute; setting an unknown name is ignored (use `Entity.record`
    /// to get an error for unknown names).
    public subscript(_ name: String) -> Value {
        get { entity.ordinal(of: name).map { values[$0] } ?? .null }
        set { if let i = entity.ordinal(of: name) { values[i] = newValue } }
    }
}

extension Entity {
    /// Makes a record from named values, filling in defaults (or `nil`) for the rest.
    /// Unknown names throw `invalidValue`; types are checked when the record is written.
    public func record(_ values: [String: Value]) throws -> Record {
        var out = attributes.map { $0.defaultValue ?? .null }
        for (k, v) in values { out[try requireOrdinal(of: k)] = v }
        return Record(self, values: out)
    }
}

extension Record: CustomStringConvertible {
    public var description: String {
        let fields = zip(entity.attributes, values).map { "\($0.name): \($1)" }.joined(separator: ", ")
        return "\(entity.name)(\(fields))"
    }
}

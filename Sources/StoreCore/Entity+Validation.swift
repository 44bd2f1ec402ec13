import Foundation

extension Entity {
    /// Checks a value for an attribute and returns it in its stored form (an `int64` given for
    /// a `double` attribute becomes a `double`; a UUID string for a `uuid` attribute a UUID).
    ///
    /// Throws `invalidValue` for a wrong type, NaN, an oversized value or key, and
    /// `constraintViolation` for `nil` in a required attribute.
    @inline(__always)
    public func checkedValue(_ v: Value, forOrdinal i: Int) throws -> Value {
        try converted(v, forOrdinal: i) ?? v
    }

    /// Checks a value as `checkedValue` does; returns `nil` when it is stored as it is, so a
    /// caller copies nothing in the common case.
    @inline(__always)
    public func converted(_ v: Value, forOrdinal i: Int) throws -> Value? {
        // Fields read in place: a copy of the `Attribute` retains and releases its strings,
        // per value of every write.
        if case .null = v {
            guard attributes[i].isOptional else {
                throw StoreError(.constraintViolation, "\(name).\(attributes[i].name) is required but got nil")
            }
            return nil
        }
        if attributes[i].collection != nil { return try convertedCollection(v, attributes[i]) }
        return try converted(v, attributes[i].type, attributes[i].name, isKey: i == primaryKeyOrdinal)
    }

    /// One non-null value of `type` in stored form, or `nil` when stored as it is.
    @inline(__always)
    private func converted(_ v: Value, _ type: AttributeType, _ attribute: @autoclosure () -> String, isKey: Bool) throws -> Value? {
        switch (type, v) {
        case (.int64, .int64), (.bool, .bool), (.date, .date), (.uuid, .uuid):
            return nil
        case (.double, .double(let d)):
            guard !d.isNaN else { throw StoreError(.invalidValue, "\(name).\(attribute()): NaN cannot be stored") }
            return nil
        case (.double, .int64(let n)):
            return .double(Double(n))
        case (.string, .string(let s)):
            let n = s.utf8.count
            if isKey, n > Limits.maxKeyBytes {
                throw StoreError(.invalidValue, "\(name).\(attribute()): key of \(n) bytes exceeds \(Limits.maxKeyBytes)")
            }
            guard n <= Limits.maxValueBytes else {
                throw StoreError(.invalidValue, "\(name).\(attribute()): value of \(n) bytes exceeds \(Limits.maxValueBytes)")
            }
            return nil
        case (.bytes, .bytes(let b)):
            guard b.count <= Limits.maxValueBytes else {
                throw StoreError(.invalidValue, "\(name).\(attribute()): value of \(b.count) bytes exceeds \(Limits.maxValueBytes)")
            }
            return nil
        case (.uuid, .string(let s)):
            guard let u = UUIDParsing.parse(s) else {
                throw StoreError(.invalidValue, "\(name).\(attribute()): '\(s)' is not a UUID")
            }
            return .uuid(u)
        default:
            throw StoreError(.invalidValue, "\(name).\(attribute()) is \(type.rawValue) but got \(v)")
        }
    }

    /// A list or map for a collection attribute in stored form (each element checked), or `nil`
    /// when stored as it is. Elements cannot be nil; doubles must be finite.
    private func convertedCollection(_ v: Value, _ a: Attribute) throws -> Value? {
        func element(_ x: Value, _ position: String) throws -> Value? {
            let what = "\(a.name)\(position)"
            if x.isNull { throw StoreError(.invalidValue, "\(name).\(what): a \(a.typeName) cannot hold nil") }
            if let d = x.doubleValue, x.int64Value == nil, !d.isFinite {
                throw StoreError(.invalidValue, "\(name).\(what): a \(a.typeName) holds finite numbers only, got \(d)")
            }
            return try converted(x, a.type, what, isKey: false)
        }
        let out: Value?
        switch (a.collection, v) {
        case (.list, .list(let xs)):
            var changed = xs, any = false
            for (k, x) in xs.enumerated() { if let c = try element(x, "[\(k)]") { changed[k] = c; any = true } }
            out = any ? .list(changed) : nil
        case (.map, .map(let m)):
            var changed = m, any = false
            for (k, x) in m { if let c = try element(x, "['\(k)']") { changed[k] = c; any = true } }
            out = any ? .map(changed) : nil
        default:
            throw StoreError(.invalidValue, "\(name).\(a.name) is \(a.typeName) but got \(v)")
        }
        let size = CollectionCoding.encode(out ?? v, of: a.type)?.utf8.count ?? 0
        guard size <= Limits.maxValueBytes else {
            throw StoreError(.invalidValue, "\(name).\(a.name): \(a.typeName) of \(size) bytes stored exceeds \(Limits.maxValueBytes)")
        }
        return out
    }

    /// Checks a whole record for this entity and returns it in stored form.
    public func checkedRecord(_ r: Record) throws -> Record { try convertedRecord(r) ?? r }

    /// Runs `body` with `r` checked and in stored form: `r` itself when every value already is
    /// (the common case: no copy), else its converted copy. How a backend's insert checks.
    @inlinable
    public func withCheckedRecord<T>(_ r: Record, _ body: (Record) throws -> T) throws -> T {
        if let converted = try convertedRecord(r) { return try body(converted) }
        return try body(r)
    }

    /// Checks a whole record as `checkedRecord` does; returns `nil` when every value is
    /// already in stored form (the common case), so a caller keeps using `r` and copies nothing.
    public func convertedRecord(_ r: Record) throws -> Record? {
        guard r.entity == self else {
            throw StoreError(.invalidValue, "record of entity '\(r.entity.name)' given where '\(name)' is expected")
        }
        guard r.values.count == attributes.count else {
            throw StoreError(.invalidValue, "\(name) has \(attributes.count) attributes but the record has \(r.values.count) values")
        }
        // Values already in stored form (the common case) are checked in place, never copied.
        var out: Record?
        for i in r.values.indices {
            // An int64, bool, date or uuid given for its own stored type needs no other look at
            // the attribute (a list or map is stored as text, which is checked).
            let t = attributeTypes[i]
            if t.isStoredAsGiven, r.values[i].naturalType == t { continue }
            if let v = try converted(r.values[i], forOrdinal: i) {
                if out == nil { out = r }
                out!.values[i] = v
            }
        }
        return out
    }

    /// Checks a primary-key value for look-ups; returns it in stored form.
    public func checkedKey(_ id: Value) throws -> Value {
        if id.isNull { throw StoreError(.invalidValue, "\(name): a primary key cannot be nil") }
        return try checkedValue(id, forOrdinal: primaryKeyOrdinal)
    }

    /// Resolves a partial update's changes to ordinals and stored values. The primary key
    /// cannot change.
    public func checkedChanges(_ changes: [String: Value]) throws -> [(ordinal: Int, value: Value)] {
        var out: [(ordinal: Int, value: Value)] = []
        out.reserveCapacity(changes.count)
        for (k, v) in changes {
            let i = try requireOrdinal(of: k)
            guard i != primaryKeyOrdinal else {
                throw StoreError(.invalidValue, "\(name).\(k) is the primary key and cannot be updated")
            }
            out.append((i, try checkedValue(v, forOrdinal: i)))
        }
        out.sort { $0.ordinal < $1.ordinal }
        return out
    }
}

/// Internal helper: UUID parsing that accepts any case.
enum UUIDParsing {
    static func parse(_ s: String) -> UUID? { UUID(uuidString: s) }
}

extension Schema {
    /// Checks records of any entities of this schema (see `Entity.checkedRecord`) and returns
    /// them in stored form, each bound to this schema's entity: what a batch insert validates
    /// before it writes anything.
    public func checkedRecords(_ records: [Record]) throws -> [Record] {
        try records.map { r in
            let e = try entity(of: r.entity)
            return Record(e, values: try e.checkedRecord(r).values)
        }
    }
}

import Foundation

/// A typed Swift model mapped to and from records of one entity.
///
/// The mapping is part of what an application pays for, so workloads measure it too. Decode by
/// ordinal for speed (`row.int64(at: 0)`), or by name while prototyping.
///
/// ```swift
/// struct User: StoredModel {
///     static let entityName = "User"
///     var id: Int64, username: String
///     init(row: some RowView) throws {
///         id = try row.require(Int64.self, at: 0); username = try row.require(String.self, at: 1)
///     }
///     func values(for entity: Entity) -> [Value] { [.int64(id), .string(username)] }
/// }
/// ```
public protocol StoredModel: Sendable {
    static var entityName: String { get }
    /// Decodes from a row of `entityName`.
    init(row: some RowView) throws
    /// The attribute values in the entity's attribute order.
    func values(for entity: Entity) -> [Value]
}

extension StoredModel {
    /// The model as a record of its entity.
    public func record(in schema: Schema) throws -> Record {
        let e = try schema.entity(Self.entityName)
        return Record(e, values: values(for: e))
    }
}

/// A Swift type that a row value can be read as. Internal plumbing for `RowView.require`.
public protocol RowValueConvertible {
    static func read(_ row: some RowView, at ordinal: Int) -> Self?
}

extension Int64: RowValueConvertible { public static func read(_ r: some RowView, at i: Int) -> Int64? { r.int64(at: i) } }
extension Double: RowValueConvertible { public static func read(_ r: some RowView, at i: Int) -> Double? { r.double(at: i) } }
extension Bool: RowValueConvertible { public static func read(_ r: some RowView, at i: Int) -> Bool? { r.bool(at: i) } }
extension String: RowValueConvertible { public static func read(_ r: some RowView, at i: Int) -> String? { r.string(at: i) } }
extension Date: RowValueConvertible { public static func read(_ r: some RowView, at i: Int) -> Date? { r.date(at: i) } }
extension UUID: RowValueConvertible { public static func read(_ r: some RowView, at i: Int) -> UUID? { r.uuid(at: i) } }
extension Array: RowValueConvertible where Element == UInt8 {
    public static func read(_ r: some RowView, at i: Int) -> [UInt8]? { r.bytes(at: i) }
}

extension RowView {
    /// The non-null value at `ordinal` as `T`; `invalidValue` when null or of another type.
    public func require<T: RowValueConvertible>(_ type: T.Type, at ordinal: Int) throws -> T {
        guard let v = T.read(self, at: ordinal) else {
            let a = entity.attributes[ordinal]
            throw StoreError(.invalidValue, "\(entity.name).\(a.name) is \(self[ordinal]), expected \(T.self)")
        }
        return v
    }
}

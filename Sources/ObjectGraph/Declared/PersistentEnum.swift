import StoreCore

/// A raw-value enum stored as its raw value (a String or integer attribute), Realm's
/// `PersistableEnum`: declare `enum Status: String, PersistentEnum { case draft, published }`.
/// Queries compare the raw value: `"status" == Status.published`.
public protocol PersistentEnum: PersistentValue, RawRepresentable, CaseIterable where RawValue: PersistentValue {}

extension PersistentEnum {
    public static var attributeType: AttributeType { RawValue.attributeType }
    public static var placeholder: Self { allCases.first ?? Self(rawValue: RawValue.placeholder)! }
    public init?(storeValue: Value) {
        guard let raw = RawValue(storeValue: storeValue) else { return nil }
        self.init(rawValue: raw)
    }
    public var storeValue: Value { rawValue.storeValue }
}

/// The records whose attribute holds this case's raw value.
public func == (lhs: KeyPathExpression, rhs: some PersistentEnum) -> StorePredicate { lhs == rhs.storeValue }
/// The records whose attribute does not hold this case's raw value.
public func != (lhs: KeyPathExpression, rhs: some PersistentEnum) -> StorePredicate { lhs != rhs.storeValue }

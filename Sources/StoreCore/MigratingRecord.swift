/// A record being migrated: its old values, and the new values a transform sets.
///
/// ```swift
/// .transforming("User") { user in
///     user["fullName"] = .string("\(user.old["firstName"].stringValue ?? "") \(user.old["lastName"].stringValue ?? "")")
/// }
/// ```
///
/// The new values start as the inferred migration leaves them (copied, renamed, defaults).
/// Setting an attribute the new entity lacks, or the primary key, fails the migration when the
/// transform returns. Not `Sendable`: used inside the transform only.
public struct MigratingRecord {
    /// The record as it was stored, in the old entity.
    public let old: Record
    /// The record as it will be stored, in the new entity.
    public internal(set) var new: Record
    /// The first attribute set that the new entity cannot take (reported after the transform).
    var misuse: String?

    init(old: Record, new: Record) {
        self.old = old
        self.new = new
    }

    /// The new value of `attribute`; setting it checks the name (an unknown name or the primary
    /// key fails the migration).
    public subscript(_ attribute: String) -> Value {
        get { new[attribute] }
        set {
            guard let i = new.entity.ordinal(of: attribute) else {
                misuse = misuse ?? "\(new.entity.name) has no attribute '\(attribute)'"
                return
            }
            guard i != new.entity.primaryKeyOrdinal else {
                if newValue != new.values[i] {
                    misuse = misuse ?? "a migration cannot change \(new.entity.name)'s primary key '\(attribute)'"
                }
                return
            }
            new.values[i] = newValue
        }
    }
}

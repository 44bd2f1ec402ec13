/// One step of a store's upgrade: from the schema of one version to the schema of a later one.
///
/// What changed is inferred from the two schemas: attributes, entities, indexes and
/// relationships added or removed, an optional attribute made required (its `nil`s take the
/// attribute's default), a type widened where no value changes (`bool` → `int64`, and `int64`
/// → `double` for values a double holds exactly), an attribute made optional. What cannot be
/// inferred is declared: renames, values for new attributes, and custom work.
///
/// ```swift
/// // v2 joins firstName and lastName into fullName, turns the integer role into a string
/// // and folds three flags into one status.
/// let toV2 = Migration(from: v1, to: v2)
///     .renamingAttribute("name", to: "username", of: "User")
///     .transforming("User") { user in
///         user["fullName"] = .string("\(user.old["firstName"].stringValue ?? "") \(user.old["lastName"].stringValue ?? "")")
///         user["role"] = .string(["member", "moderator", "admin"][Int(user.old["role"].int64Value ?? 0)])
///         user["status"] = .string(user.old["isBanned"].boolValue == true ? "banned"
///             : user.old["isActive"].boolValue == true ? "active" : "inactive")
///     }
/// ```
///
/// Threading: a `Sendable` value; its closures run on the thread opening the store, inside
/// the migration's transaction.
public struct Migration: Sendable {
    /// Sets a migrated record's new values from its old ones (`MigratingRecord.old`).
    public typealias RecordTransform = @Sendable (inout MigratingRecord) throws -> Void
    /// Whole-store work on the migrated store, inside the migration's transaction.
    public typealias StoreStep = @Sendable (any WriteTransaction) throws -> Void

    /// The schema a store holds before this step.
    public let source: Schema
    /// The schema after it.
    public let destination: Schema
    /// Renamed entities: new name → old name.
    public private(set) var entityRenames: [String: String] = [:]
    /// Renamed attributes: entity (new name) → new attribute name → old attribute name.
    public private(set) var attributeRenames: [String: [String: String]] = [:]
    /// Values for attributes of existing records: entity → attribute → value. Overrides the
    /// attribute's default for records that existed before the step.
    public private(set) var fills: [String: [String: Value]] = [:]
    /// Per-record transforms by entity (new name).
    public private(set) var recordTransforms: [String: RecordTransform] = [:]
    /// Whole-store steps, run in order after every record was migrated.
    public private(set) var storeSteps: [StoreStep] = []

    /// A step from `source` to `destination`, whose version must be higher.
    public init(from source: Schema, to destination: Schema) {
        self.source = source
        self.destination = destination
    }

    /// Declares that entity `old` is called `new` from this step on.
    public func renamingEntity(_ old: String, to new: String) -> Migration {
        var m = self
        m.entityRenames[new] = old
        return m
    }

    /// Declares that attribute `old` of `entity` (its new name) is called `new` from this step on.
    public func renamingAttribute(_ old: String, to new: String, of entity: String) -> Migration {
        var m = self
        m.attributeRenames[entity, default: [:]][new] = old
        return m
    }

    /// Gives existing records of `entity` this value for `attribute` (new, or made required).
    public func filling(_ attribute: String, of entity: String, with value: Value) -> Migration {
        var m = self
        m.fills[entity, default: [:]][attribute] = value
        return m
    }

    /// Runs `body` on every record of `entity` (its new name): it reads the old values and
    /// sets the new ones. The new values start as the inferred migration leaves them.
    public func transforming(_ entity: String, _ body: @escaping RecordTransform) -> Migration {
        var m = self
        m.recordTransforms[entity] = body
        return m
    }

    /// Runs `body` once on the migrated store (e.g. to create records of a new entity from
    /// existing ones), in the migration's transaction: a throw rolls the whole upgrade back.
    public func then(_ body: @escaping StoreStep) -> Migration {
        var m = self
        m.storeSteps.append(body)
        return m
    }
}

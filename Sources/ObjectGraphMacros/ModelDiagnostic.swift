import SwiftDiagnostics

/// What `@Model` refuses at compile time.
enum ModelDiagnostic: String, DiagnosticMessage {
    case notAClass
    case letProperty
    case multipleBindings
    case missingType
    case unsupportedType
    case noPrimaryKey
    case twoPrimaryKeys
    case inverseNotKeyPath
    case transientWithoutValue

    var message: String {
        switch self {
        case .notAClass: "@Model applies to a class"
        case .letProperty: "@Model stores var properties only: make it a var, or mark it @Transient"
        case .multipleBindings: "@Model needs one property per declaration"
        case .missingType: "@Model needs the property's type written out (e.g. `var age: Int = 0`)"
        case .unsupportedType:
            "type cannot be stored: use Int, Int64, Int32, Double, Float, Bool, String, Date, UUID, Data, [UInt8], a PersistentEnum, an optional of these, a model (to-one, optional) or an array of models (to-many)"
        case .noPrimaryKey: "@Model needs a primary key: a property named id, or one marked @Attribute(.primaryKey)"
        case .twoPrimaryKeys: "@Model allows one @Attribute(.primaryKey)"
        case .inverseNotKeyPath: "inverse: takes a key path to the other side's property, e.g. \\Post.author"
        case .transientWithoutValue: "a @Transient property needs an initial value"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "ObjectGraphMacros", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}

import SwiftSyntax
import SwiftSyntaxBuilder

/// The members `@Model` adds to a class: the backing, the observation registrar, the entity
/// description, the managed initializer and the change notification.
struct ModelMembers {
    let className: String
    let properties: [StoredProperty]

    var declarations: [DeclSyntax] {
        [
            "@exclusivity(unchecked) private var _persistentBacking = ModelBackingSlot()",
            """
            public var persistentBacking: ModelBacking {
                if let backing = _persistentBacking.backing { return backing }
                let backing = ModelBacking()
                _persistentBacking.backing = backing
                return backing
            }
            """,
            "private let _$observationRegistrar = Observation.ObservationRegistrar()",
            "public static var entityName: String { \(literal: className) }",
            """
            public static var persistentProperties: [ModelProperty] {
                [\(raw: properties.map { "\n.property(\(descriptorArguments($0)))," }.joined())
                ]
            }
            """,
            """
            public required init(backing: ModelBacking) {
                self._persistentBacking = ModelBackingSlot(backing)\(raw: placeholders)
            }
            """,
            """
            public func persistentValuesDidChange() {\(raw: properties.map { "\n_$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_\($0.name)) {}" }.joined())
            }
            """,
        ]
    }

    /// Every cache without an initial value gets a placeholder in the managed initializer.
    private var placeholders: String {
        properties.filter { $0.initializer == nil }.map { "\nself._\($0.name) = ModelBacking.placeholder()" }.joined()
    }

    /// `"name", \Type.name, storage: \Type._name` and the declared options.
    private func descriptorArguments(_ p: StoredProperty) -> String {
        var s = "\"\(p.name)\", \\\(className).\(p.name), storage: \\\(className)._\(p.name)"
        if let relationship = p.arguments(of: "Relationship") {
            var ordered = false
            for a in relationship {
                if a.label?.text == "inverse", let name = ModelValidation.inverseName(a.expression) {
                    s += ", inverse: \"\(name)\""
                } else if a.label?.text == "deleteRule" {
                    s += ", deleteRule: \(a.expression.trimmedDescription)"
                } else if a.label == nil, a.expression.trimmedDescription.hasSuffix("ordered") {
                    ordered = true
                }
            }
            return s + (ordered ? ", ordered: true" : "")
        }
        if let options = p.arguments(of: "Attribute"), !options.isEmpty {
            s += ", options: [\(options.map { $0.expression.trimmedDescription }.joined(separator: ", "))]"
        }
        if let d = p.literalDefault { s += ", default: \(d.trimmedDescription)" }
        return s
    }
}

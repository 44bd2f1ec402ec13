import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: a class becomes a declared model. Its stored `var`s get accessors backed by a
/// managed object (`@_PersistedProperty`), the class gets the `PersistentModel` requirements
/// (schema description, backing, observation registrar) and conforms to it and `Observable`.
public struct ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let c = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: ModelDiagnostic.notAClass))
            return []
        }
        let properties = StoredProperty.persisted(in: c)
        guard ModelValidation.check(c, properties, node, in: context) else { return [] }
        let embedded = node.arguments?.as(LabeledExprListSyntax.self)?.contains { $0.expression.trimmedDescription.hasSuffix(".embedded") } ?? false
        return ModelMembers(className: c.name.trimmedDescription, properties: properties).declarations
            + (embedded ? ["public static var isEmbeddedModel: Bool { true }"] : [])
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self), let v = member.as(VariableDeclSyntax.self), v.isPersisted,
              let name = v.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription,
              let index = StoredProperty.persisted(in: declaration).firstIndex(where: { $0.name == name }) else { return [] }
        return ["@_PersistedProperty(\(raw: index))"]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self) else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): PersistentModel, Observation.Observable {}")]
    }
}

/// `@_PersistedProperty(index)`: the accessors of one stored property of a `@Model` class
/// (init accessor, observed getter and setter through the model's backing) and its cache.
public struct PersistedPropertyMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let v = declaration.as(VariableDeclSyntax.self), let name = v.singleName,
              let index = node.arguments?.as(LabeledExprListSyntax.self)?.first?.expression.trimmedDescription else { return [] }
        return [
            """
            @storageRestrictions(initializes: _\(raw: name))
            init(initialValue) {
                _\(raw: name) = initialValue
            }
            """,
            """
            get {
                _$observationRegistrar.access(self, keyPath: Self._keyPath_\(raw: name))
                return _persistentBacking.get(\(raw: index), cache: &_\(raw: name))
            }
            """,
            """
            set {
                _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_\(raw: name)) {
                    persistentBacking.set(\(raw: index), newValue, cache: &_\(raw: name))
                }
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let v = declaration.as(VariableDeclSyntax.self), let name = v.singleName,
              let type = v.bindings.first?.typeAnnotation?.type,
              let owner = context.lexicalContext.first?.as(ClassDeclSyntax.self)?.name.trimmed else { return [] }
        // The key path observers are told about, made once: a literal in the getter costs a
        // swift_getKeyPath call (~34 instructions) on every read.
        return [
            "@exclusivity(unchecked) private var _\(raw: name): \(type.trimmed)",
            "private static let _keyPath_\(raw: name) = \\\(owner).\(raw: name)",
        ]
    }
}

/// `@Attribute`, `@Relationship`, `@Transient`: markers `@Model` reads; they expand to nothing.
public struct MarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

extension VariableDeclSyntax {
    var singleName: String? { bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription }
}

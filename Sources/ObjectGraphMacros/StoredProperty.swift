import SwiftSyntax

/// A stored `var` of a `@Model` class as written: what the macros generate code from.
struct StoredProperty {
    let declaration: VariableDeclSyntax
    let name: String
    let type: TypeSyntax?
    let initializer: ExprSyntax?

    /// The stored properties that persist, in declaration order: instance `var`s without
    /// accessors, not `@Transient`.
    static func persisted(in group: some DeclGroupSyntax) -> [StoredProperty] {
        group.memberBlock.members.compactMap { member in
            guard let v = member.decl.as(VariableDeclSyntax.self), v.isPersisted,
                  let binding = v.bindings.first, let id = binding.pattern.as(IdentifierPatternSyntax.self) else { return nil }
            return StoredProperty(declaration: v, name: id.identifier.trimmedDescription,
                                  type: binding.typeAnnotation?.type, initializer: binding.initializer?.value)
        }
    }

    /// The arguments of an attribute of this property (`@Attribute(...)`), nil when absent.
    func arguments(of attribute: String) -> LabeledExprListSyntax? {
        declaration.attribute(attribute).map { $0.arguments?.as(LabeledExprListSyntax.self) ?? [] }
    }

    var isPrimaryKey: Bool {
        arguments(of: "Attribute")?.contains { $0.expression.trimmedDescription == ".primaryKey" } ?? false
    }

    /// The initializer, when it is a literal the schema can take as the attribute's default.
    var literalDefault: ExprSyntax? {
        guard let e = initializer else { return nil }
        if e.is(IntegerLiteralExprSyntax.self) || e.is(FloatLiteralExprSyntax.self) || e.is(BooleanLiteralExprSyntax.self) { return e }
        if let s = e.as(StringLiteralExprSyntax.self), s.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) { return e }
        if let m = e.as(MemberAccessExprSyntax.self), m.base == nil { return e }
        if let p = e.as(PrefixOperatorExprSyntax.self), p.operator.text == "-",
           p.expression.is(IntegerLiteralExprSyntax.self) || p.expression.is(FloatLiteralExprSyntax.self) { return e }
        return nil
    }
}

extension VariableDeclSyntax {
    func attribute(_ name: String) -> AttributeSyntax? {
        attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }.first { $0.attributeName.trimmedDescription == name }
    }

    var isStatic: Bool { modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) } }

    /// An instance stored property (no getter, setter or observers).
    var isStoredInstanceProperty: Bool {
        !isStatic && bindings.allSatisfy { $0.accessorBlock == nil }
    }

    var isPersisted: Bool {
        bindingSpecifier.tokenKind == .keyword(.var) && isStoredInstanceProperty
            && attribute("Transient") == nil && attribute("ObservationIgnored") == nil
    }
}

import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// The checks `@Model` makes before generating code; each failure is a compile-time error at
/// the declaration at fault.
enum ModelValidation {
    static func check(_ c: ClassDeclSyntax, _ properties: [StoredProperty], _ node: AttributeSyntax,
                      in context: some MacroExpansionContext) -> Bool {
        var ok = true
        func fail(_ n: some SyntaxProtocol, _ m: ModelDiagnostic) {
            context.diagnose(Diagnostic(node: n, message: m))
            ok = false
        }
        for member in c.memberBlock.members {
            guard let v = member.decl.as(VariableDeclSyntax.self), v.isStoredInstanceProperty else { continue }
            if v.bindings.count > 1 { fail(v, .multipleBindings) }
            if v.attribute("Transient") != nil {
                if v.bindings.first?.initializer == nil { fail(v, .transientWithoutValue) }
            } else if v.bindingSpecifier.tokenKind == .keyword(.let) {
                fail(v.bindingSpecifier, .letProperty)
            }
        }
        for p in properties {
            guard let type = p.type else {
                fail(p.declaration, .missingType)
                continue
            }
            if !isStorableShape(type) { fail(type, .unsupportedType) }
            for a in p.arguments(of: "Relationship") ?? [] where a.label?.text == "inverse" && inverseName(a.expression) == nil {
                fail(a.expression, .inverseNotKeyPath)
            }
        }
        let keys = properties.filter(\.isPrimaryKey)
        if keys.count > 1 { fail(keys[1].declaration, .twoPrimaryKeys) }
        if keys.isEmpty, !properties.contains(where: { $0.name == "id" }) { fail(node, .noPrimaryKey) }
        return ok
    }

    /// The property a key path like `\Post.author` names.
    static func inverseName(_ e: ExprSyntax) -> String? {
        guard let k = e.as(KeyPathExprSyntax.self), k.components.count == 1,
              let p = k.components.first?.component.as(KeyPathPropertyComponentSyntax.self) else { return nil }
        return p.declName.baseName.trimmedDescription
    }

    /// Whether a type could be stored: a named type, an optional of one, an array of one.
    /// Whether the name is a supported value, enum or model is left to the type checker.
    static func isStorableShape(_ t: TypeSyntax) -> Bool {
        if let o = t.as(OptionalTypeSyntax.self) { return isNamed(o.wrappedType) }
        if let a = t.as(ArrayTypeSyntax.self) { return isNamed(a.element) }
        if let i = t.as(IdentifierTypeSyntax.self), let args = i.genericArgumentClause?.arguments, args.count == 1,
           case .type(let inner) = args.first!.argument {
            if i.name.text == "Optional" || i.name.text == "Array" { return isNamed(inner) }
        }
        return isNamed(t)
    }

    private static func isNamed(_ t: TypeSyntax) -> Bool {
        if let i = t.as(IdentifierTypeSyntax.self) { return i.genericArgumentClause == nil && !["Any", "AnyObject"].contains(i.name.text) }
        if let m = t.as(MemberTypeSyntax.self) { return m.genericArgumentClause == nil }
        return false
    }
}

import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plug-in that serves ObjectGraphModels' macros.
@main
struct ObjectGraphMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ModelMacro.self, PersistedPropertyMacro.self, MarkerMacro.self]
}

import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct CourierPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        APIMacro.self,
        MockMacro.self,
        RequestStructMacro.self,
        ResponseStructMacro.self,
        MarkerMacro.self,
    ]
}

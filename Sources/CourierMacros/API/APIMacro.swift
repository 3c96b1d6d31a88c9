import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@API`: generates `<Name>API`, whose functions build each endpoint's request and send it
/// through a `Courier.Provider`.
struct APIMacro: PeerMacro {
    /// Generates `<Name>API` beside the protocol, or diagnoses every problem on its node.
    static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let proto = declaration.as(ProtocolDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: CourierDiagnostic.apiOnNonProtocol))
            return []
        }
        var parser = APIParser()
        let model = parser.parse(proto)
        for diagnostic in parser.diagnostics { context.diagnose(diagnostic) }
        guard !parser.hasErrors else { return [] }
        return [DeclSyntax(stringLiteral: APIGenerator.generate(model))]
    }
}

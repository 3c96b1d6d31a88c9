import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Mock`: generates `<Name>Mock`, whose endpoints answer with handlers set in tests.
struct MockMacro: PeerMacro {
    /// Generates `<Name>Mock` beside the protocol, or diagnoses why it cannot.
    static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let proto = declaration.as(ProtocolDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: CourierDiagnostic.mockOnNonProtocol))
            return []
        }
        var parser = APIParser()
        let model = parser.parse(proto)
        // @API reports the problems when both are attached; report them here only without it.
        let hasAPI = proto.attributes.contains { element in
            let name = element.as(AttributeSyntax.self)?.attributeName.trimmedDescription
            return name == "API" || name == "Courier.API"
        }
        if !hasAPI {
            for diagnostic in parser.diagnostics { context.diagnose(diagnostic) }
        }
        guard !parser.hasErrors else { return [] }
        return [DeclSyntax(stringLiteral: MockGenerator.generate(model))]
    }
}

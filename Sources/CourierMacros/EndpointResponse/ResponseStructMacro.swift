import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@EndpointResponse` on a struct: conforms it to `Courier.ResponseDecodable` with an
/// initializer that reads each annotated property from the response.
struct ResponseStructMacro: ExtensionMacro {
    /// Adds the `Courier.ResponseDecodable` conformance with an initializer that reads each property.
    static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: CourierDiagnostic.responseOnNonStruct))
            return []
        }
        var parser = ResponseStructParser()
        let model = parser.parse(structDecl, attribute: node)
        for diagnostic in parser.diagnostics { context.diagnose(diagnostic) }
        guard var model else { return [] }
        for index in model.properties.indices {
            model.properties[index].sourceLocation = model.properties[index].declaration.flatMap { SourceLocationDirective.at($0, in: context) }
        }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Courier.ResponseDecodable {\n\(raw: ResponseStructGenerator.generate(model))\n}")]
    }
}

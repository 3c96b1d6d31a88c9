import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Endpoint(.post, "/path/{id}")` on a struct: conforms it to `Courier.Endpoint` and writes
/// `makeRequest()`, which sets every annotated property on the request directly.
struct RequestStructMacro: MemberMacro, ExtensionMacro {
    /// Adds the `Courier.Endpoint` conformance; none when the struct has an error, so that the
    /// missing `makeRequest()` adds no second error inside the expansion. The member expansion
    /// reports the problems.
    static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else { return [] }
        var parser = RequestStructParser()
        _ = parser.parse(structDecl, attribute: node)
        guard !parser.hasErrors else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Courier.Endpoint {}")]
    }

    /// Writes `makeRequest()`, or diagnoses every problem on its node.
    static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: CourierDiagnostic.endpointOnNonStruct))
            return []
        }
        var parser = RequestStructParser()
        let model = parser.parse(structDecl, attribute: node)
        for diagnostic in parser.diagnostics { context.diagnose(diagnostic) }
        guard var model, !parser.hasErrors else { return [] }
        for index in model.properties.indices {
            model.properties[index].sourceLocation = model.properties[index].declaration.flatMap { SourceLocationDirective.at($0, in: context) }
        }
        return [DeclSyntax(stringLiteral: RequestStructGenerator.generate(model))]
    }
}

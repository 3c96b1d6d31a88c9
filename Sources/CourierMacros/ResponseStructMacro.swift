import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@EndpointResponse` on a struct: conforms it to `Courier.ResponseDecodable` with an
/// initializer that reads each annotated property from the response.
public struct ResponseStructMacro: ExtensionMacro {
    public static func expansion(
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
        let format = node.arguments?.as(LabeledExprListSyntax.self)?.first { $0.label?.text == "format" }?.expression.trimmedDescription
        var lines: [String] = []
        var hasErrorBody = false
        var valid = true
        for property in StoredProperty.all(in: structDecl) where !property.isComputed {
            let name = property.name
            let binding = property.binding
            guard let (marker, kind) = property.marker(ResponseMarker.self), let type = binding.typeAnnotation?.type else {
                if binding.initializer == nil {
                    context.diagnose(Diagnostic(node: Syntax(binding.pattern), message: CourierDiagnostic.unannotatedResponseProperty))
                    valid = false
                }
                continue
            }
            let arguments = Array(marker.arguments?.as(LabeledExprListSyntax.self) ?? [])
            let target = "self.\(APIGenerator.reference(name))"
            let (isOptional, wrapped) = Self.unwrapOptional(type)
            switch kind {
            case .body, .errorBody:
                if kind == .errorBody { hasErrorBody = true }
                let filter: String
                if let status = arguments.first(where: { $0.label?.text == "status" }) {
                    filter = "Courier.StatusFilter.status(\(status.expression.trimmedDescription))"
                } else if let statuses = arguments.first(where: { $0.label?.text == "statuses" }) {
                    filter = "Courier.StatusFilter.statuses(\(statuses.expression.trimmedDescription))"
                } else if let strategy = arguments.first(where: { $0.label?.text == "strategy" }) {
                    filter = "Courier.StatusFilter.strategy(\(strategy.expression.trimmedDescription))"
                } else {
                    filter = kind == .body ? "Courier.StatusFilter.success" : "Courier.StatusFilter.failure"
                }
                let call = isOptional ? "decodeBody" : "requireBody"
                lines.append("\(target) = try response.\(call)(\(wrapped).self, decoder: decoder, when: \(filter))")
            case .header:
                let headerName = arguments.first { $0.label?.text == "name" || $0.label == nil }.flatMap { ScopeParser.stringLiteral($0.expression) } ?? APIParser.headerName(name)
                let call = isOptional ? "optionalHeader" : "header"
                lines.append("\(target) = try response.\(call)(\(APIGenerator.literal(headerName)), as: \(wrapped).self)")
            case .statusCode:
                lines.append("\(target) = response.head.status.code")
            case .cookies:
                lines.append("\(target) = response.cookies")
            case .nested:
                lines.append("\(target) = try \(wrapped)(from: response, decoder: decoder)")
            }
        }
        guard valid else { return [] }
        let access = structDecl.modifiers.first { ["public", "package"].contains($0.name.text) }.map { "\($0.name.text) " } ?? ""
        var body: [String] = []
        if let format { body.append("let decoder = (\(format) as Courier.ResponseFormat).decoder") }
        if !hasErrorBody { body.append("try response.validate()") }
        body += lines
        var members = "/// Reads this response's properties from `response`.\n"
        members += "\(access)init(from response: Courier.Response, decoder: any Courier.ResponseBodyDecoder) throws(Courier.CourierError) {\n"
        members += body.map { "    " + $0 }.joined(separator: "\n") + "\n}"
        if let format {
            members += "\n\n\(access)static var acceptedContentType: String? { (\(format) as Courier.ResponseFormat).accept }"
        }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Courier.ResponseDecodable {\n\(raw: members)\n}")]
    }

    /// `(true, "Body")` for `Body?` or `Optional<Body>`.
    static func unwrapOptional(_ type: TypeSyntax) -> (Bool, String) {
        if let optional = type.as(OptionalTypeSyntax.self) { return (true, optional.wrappedType.trimmedDescription) }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let argument = identifier.genericArgumentClause?.arguments.first
        {
            return (true, argument.argument.trimmedDescription)
        }
        return (false, type.trimmedDescription)
    }
}

/// The property attributes of a response struct.
enum ResponseMarker: String {
    case body = "ResponseBody"
    case errorBody = "ResponseErrorBody"
    case header = "ResponseHeader"
    case statusCode = "ResponseStatusCode"
    case cookies = "ResponseCookies"
    case nested = "NestedResponse"
}

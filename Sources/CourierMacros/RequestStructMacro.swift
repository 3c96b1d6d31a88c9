import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@Endpoint(.post, "/path/{id}")` on a struct: conforms it to `Courier.Endpoint` and writes
/// `makeRequest()`, which sets every annotated property on the request directly.
public struct RequestStructMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Courier.Endpoint {}")]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: CourierDiagnostic.endpointOnNonStruct))
            return []
        }
        let arguments = Array(node.arguments?.as(LabeledExprListSyntax.self) ?? [])
        guard arguments.count >= 2, let path = ScopeParser.stringLiteral(arguments[1].expression) else {
            let target = arguments.count >= 2 ? Syntax(arguments[1].expression) : Syntax(node)
            context.diagnose(Diagnostic(node: target, message: CourierDiagnostic.pathNotStringLiteral))
            return []
        }
        let methodExpression = arguments[0].expression.trimmed
        let methodText = methodExpression.description
        let methodName = (methodExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            ?? ScopeParser.stringLiteral(methodExpression)?.lowercased() ?? "").uppercased()
        let methodArgument = ScopeParser.stringLiteral(methodExpression).map { APIGenerator.literal($0) } ?? methodText

        var lines: [String] = []
        var hasProblems = false
        let placeholders = APIParser.placeholders(in: path)
        var filled: Set<String> = []
        for property in StoredProperty.all(in: structDecl) {
            let name = property.name
            guard let (marker, kind) = property.marker(RequestMarker.self) else {
                let binding = property.binding
                if !property.isComputed, binding.typeAnnotation != nil || binding.initializer != nil {
                    context.diagnose(Diagnostic(node: Syntax(binding.pattern), message: CourierDiagnostic.unannotatedRequestProperty))
                }
                continue
            }
            let explicitName = marker.arguments?.as(LabeledExprListSyntax.self)?.first { $0.label?.text == "name" }.flatMap { ScopeParser.stringLiteral($0.expression) }
            let key = explicitName ?? name
            let value = "self.\(APIGenerator.reference(name))"
            switch kind {
            case .pathParameter:
                if !placeholders.contains(key) {
                    context.diagnose(Diagnostic(node: Syntax(marker), message: NamedDiagnostic(base: .pathPropertyWithoutPlaceholder, detail: "'\(key)' in '\(path)'")))
                    hasProblems = true
                }
                filled.insert(key)
                lines.append("request.addParameter(\(APIGenerator.literal(key)), value: \(value))")
            case .queryItem:
                lines.append("request.addQuery(\(APIGenerator.literal(key)), value: \(value))")
            case .queryFlag:
                lines.append("if \(value) { request.addRawQuery(\(APIGenerator.literal(key)), value: nil) }")
            case .queryItems:
                lines.append("request.addQueryItems(\(value))")
            case .requestHeader:
                let header = explicitName ?? APIParser.headerName(name)
                lines.append("request.addHeader(\(APIGenerator.literal(header)), value: \(value))")
            case .requestHeaders:
                lines.append("request.setHeaders(\(value))")
            case .requestCookies:
                lines.append("request.addCookies(\(value))")
            case .requestBody:
                if let format = marker.arguments?.as(LabeledExprListSyntax.self)?.first(where: { $0.label == nil || $0.label?.text == "format" })?.expression {
                    lines.append("request.setBody(\(value), as: \(format.trimmedDescription))")
                } else {
                    lines.append("request.setBody(\(value))")
                }
            case .bodyField:
                lines.append("request.addField(\(APIGenerator.literal(key)), value: \(value))")
            case .param:
                let inQuery = APIParser.queryByDefault.contains(methodName)
                lines.append(inQuery ? "request.addQuery(\(APIGenerator.literal(key)), value: \(value))" : "request.addField(\(APIGenerator.literal(key)), value: \(value))")
            case .absoluteURL:
                lines.append("request.absoluteURL = \(value)")
            }
        }
        for placeholder in placeholders where !filled.contains(placeholder) {
            context.diagnose(Diagnostic(node: Syntax(arguments[1].expression), message: NamedDiagnostic(base: .placeholderWithoutParameter, detail: "'\(placeholder)'")))
            hasProblems = true
        }
        guard !hasProblems else { return [] }
        let access = structDecl.modifiers.first { ["public", "package"].contains($0.name.text) }.map { "\($0.name.text) " } ?? ""
        let binding = lines.isEmpty ? "let" : "var"
        let body = (["\(binding) request = Courier.RequestBuilder(method: \(methodArgument), path: \(APIGenerator.literal(path)), operationID: \(APIGenerator.literal(structDecl.name.text)))"]
            + lines + ["return request"]).map { "    " + $0 }.joined(separator: "\n")
        return [DeclSyntax(stringLiteral: "/// The request this value describes.\n\(access)func makeRequest() -> Courier.RequestBuilder {\n\(body)\n}")]
    }
}

/// The property attributes of a request struct.
enum RequestMarker: String {
    case pathParameter = "PathParameter"
    case queryItem = "QueryItem"
    case queryFlag = "QueryFlag"
    case queryItems = "QueryItems"
    case requestHeader = "RequestHeader"
    case requestHeaders = "RequestHeaders"
    case requestCookies = "RequestCookies"
    case requestBody = "RequestBody"
    case bodyField = "BodyField"
    case param = "Param"
    case absoluteURL = "AbsoluteURL"
}

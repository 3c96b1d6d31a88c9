import SwiftDiagnostics
import SwiftSyntax

/// Reads an `@Endpoint` struct into a ``RequestStructModel``, collecting every problem at once,
/// each attached to the node it is about.
struct RequestStructParser {
    private(set) var diagnostics: [Diagnostic] = []

    var hasErrors: Bool { diagnostics.contains { $0.diagMessage.severity == .error } }

    mutating func parse(_ structDecl: StructDeclSyntax, attribute node: AttributeSyntax) -> RequestStructModel? {
        let arguments = Array(node.arguments?.as(LabeledExprListSyntax.self) ?? [])
        let methodExpression = arguments.first?.expression.trimmed
        var path = "/"
        if arguments.count >= 2 {
            guard let literal = ScopeParser.stringLiteral(arguments[1].expression) else {
                diagnose(arguments[1].expression, CourierDiagnostic.pathNotStringLiteral)
                return nil
            }
            path = literal
        }
        let methodName = methodExpression.map { expression in
            (expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ScopeParser.stringLiteral(expression) ?? "").uppercased()
        } ?? "GET"
        let method = methodExpression.map { expression in
            ScopeParser.stringLiteral(expression).map { APIGenerator.literal($0) } ?? expression.description
        } ?? ".get"

        var scope = ScopeParser()
        scope.read(structDecl.attributes)
        diagnostics += scope.diagnostics
        if let clash = scope.formAndMultipartClash { diagnose(clash, CourierDiagnostic.formAndMultipart) }

        var properties: [RequestPropertyModel] = []
        let placeholders = APIParser.placeholders(in: path)
        var filled: Set<String> = []
        // A path set per value cannot be checked against the placeholders here.
        let hasDynamicPath = StoredProperty.all(in: structDecl).contains { $0.marker(RequestMarker.self)?.kind == .path }
        // With a method set per value, `@Param` is placed when the request is built.
        let hasDynamicMethod = StoredProperty.all(in: structDecl).contains { $0.marker(RequestMarker.self)?.kind == .method }
        for property in StoredProperty.all(in: structDecl) {
            guard let (marker, kind) = property.marker(RequestMarker.self) else {
                let binding = property.binding
                if !property.isComputed, binding.typeAnnotation != nil || binding.initializer != nil {
                    diagnose(binding.pattern, CourierDiagnostic.unannotatedRequestProperty)
                }
                continue
            }
            let markerArguments = StoredProperty.arguments(of: marker)
            let explicitName = markerArguments.first { $0.label?.text == "name" }.flatMap { ScopeParser.stringLiteral($0.expression) }
            var key = explicitName ?? property.name
            var format: String?
            switch kind {
            case .pathParameter:
                filled.insert(key)
                if !placeholders.contains(key) && !hasDynamicPath {
                    diagnose(marker, NamedDiagnostic(base: .pathPropertyWithoutPlaceholder, detail: "'\(key)' in '\(path)'"))
                }
            case .requestHeader:
                key = explicitName ?? APIParser.headerName(property.name)
            case .requestBody:
                format = markerArguments.first { $0.label == nil || $0.label?.text == "format" }?.expression.trimmedDescription
            case .param where !hasDynamicMethod:
                properties.append(RequestPropertyModel(kind: APIParser.queryByDefault.contains(methodName) ? .queryItem : .bodyField, name: property.name, key: key))
                continue
            default:
                break
            }
            properties.append(RequestPropertyModel(kind: kind, name: property.name, key: key, format: format))
        }
        if !hasDynamicPath {
            for placeholder in placeholders where !filled.contains(placeholder) {
                let target = arguments.count >= 2 ? Syntax(arguments[1].expression) : Syntax(node)
                diagnose(target, NamedDiagnostic(base: .placeholderWithoutParameter, detail: "'\(placeholder)'"))
            }
        }
        return RequestStructModel(
            typeName: structDecl.name.text,
            access: structDecl.modifiers.first { ["public", "package"].contains($0.name.text) }.map { "\($0.name.text) " } ?? "",
            method: method,
            path: path,
            options: scope.options + (scope.bodyEncoding?.options ?? []),
            properties: properties
        )
    }

    private mutating func diagnose(_ node: some SyntaxProtocol, _ message: some DiagnosticMessage) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message))
    }
}

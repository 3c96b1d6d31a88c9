import SwiftDiagnostics
import SwiftSyntax

/// Reads an `@Endpoint` struct into a ``RequestStructModel``, collecting every problem at once,
/// each attached to the node it is about.
struct RequestStructParser {
    private(set) var diagnostics: [Diagnostic] = []

    var hasErrors: Bool { diagnostics.contains { $0.diagMessage.severity == .error } }

    /// A property with its attribute, as the checks of combinations see it.
    struct Entry {
        var property: StoredProperty
        var attribute: AttributeSyntax
        var model: RequestPropertyModel
    }

    mutating func parse(_ structDecl: StructDeclSyntax, attribute node: AttributeSyntax) -> RequestStructModel? {
        let arguments = Array(node.arguments?.as(LabeledExprListSyntax.self) ?? [])
        let methodExpression = arguments.first?.expression
        let pathExpression = arguments.count >= 2 ? arguments[1].expression : nil
        var path = "/"
        if let pathExpression {
            guard let literal = pathExpression.as(StringLiteralExprSyntax.self), let text = ScopeParser.stringLiteral(pathExpression) else {
                diagnose(pathExpression, CourierDiagnostic.pathNotStringLiteral)
                return nil
            }
            path = text
            if let diagnostic = LiteralChecks.leadingSlash(literal) { diagnostics.append(diagnostic) }
        }
        if let methodExpression { checkMethod(methodExpression) }
        let methodName = methodExpression.map { expression in
            (expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ScopeParser.stringLiteral(expression) ?? "").uppercased()
        } ?? "GET"
        let method = methodExpression.map { expression in
            ScopeParser.stringLiteral(expression).map { APIGenerator.literal($0) } ?? expression.trimmedDescription
        } ?? ".get"

        var scope = ScopeParser()
        scope.read(structDecl.attributes)
        diagnostics += scope.diagnostics
        let hasMethodAttribute = checkStructAttributes(structDecl, endpoint: node)
        checkOwnMakeRequest(structDecl)
        checkRenamedMembers(structDecl)
        var propertyChecks = PropertyChecks<RequestMarker>()
        propertyChecks.check(structDecl)
        diagnostics += propertyChecks.diagnostics

        let all = StoredProperty.all(in: structDecl)
        // A path set per value cannot be checked against the placeholders here.
        let hasDynamicPath = all.contains { $0.marker(RequestMarker.self)?.kind == .path }
        // With a method set per value, `@Param` is placed when the request is built.
        let hasDynamicMethod = all.contains { $0.marker(RequestMarker.self)?.kind == .method }
        let placeholders = APIParser.placeholders(in: path)
        var entries: [Entry] = []
        for property in all {
            guard let (marker, kind) = property.marker(RequestMarker.self) else {
                let binding = property.binding
                if !property.isComputed, binding.typeAnnotation != nil || binding.initializer != nil {
                    diagnose(binding.pattern, CourierDiagnostic.unannotatedRequestProperty)
                }
                continue
            }
            let explicitName = StoredProperty.arguments(of: marker).first { $0.label?.text == "name" }.flatMap { ScopeParser.stringLiteral($0.expression) }
            var model = RequestPropertyModel(kind: kind, name: property.name, key: explicitName ?? property.name)
            model.isOptional = property.type.map { TypeSpelling.unwrapped($0).isOptional } ?? false
            model.declaration = Syntax(property.binding)
            switch kind {
            case .pathParameter:
                if !placeholders.contains(model.key) && !hasDynamicPath {
                    diagnose(marker, NamedDiagnostic(base: .pathPropertyWithoutPlaceholder, detail: "'\(model.key)' in '\(path)'"))
                }
                checkOptionalPathValue(property)
            case .requestHeader:
                model.key = explicitName ?? APIParser.headerName(property.name)
                checkHeader(property, marker: marker)
            case .requestHeaders:
                if let dictionary = property.binding.initializer?.value.as(DictionaryExprSyntax.self), case .elements(let elements) = dictionary.content {
                    for element in elements { diagnostics += LiteralChecks.headerEntry(element) }
                }
            case .path:
                if let literal = property.binding.initializer?.value.as(StringLiteralExprSyntax.self), let diagnostic = LiteralChecks.leadingSlash(literal) {
                    diagnostics.append(diagnostic)
                }
            case .requestBody:
                model.format = StoredProperty.arguments(of: marker).first { $0.label == nil || $0.label?.text == "format" }?.expression.trimmedDescription
            case .param where !hasDynamicMethod:
                model.kind = APIParser.queryByDefault.contains(methodName) ? .queryItem : .bodyField
            default:
                break
            }
            entries.append(Entry(property: property, attribute: marker, model: model))
        }
        if !hasDynamicPath {
            for placeholder in placeholders where !entries.contains(where: { $0.model.kind == .pathParameter && $0.model.key == placeholder }) {
                diagnose(pathExpression.map(Syntax.init) ?? Syntax(node), NamedDiagnostic(base: .placeholderWithoutParameter, detail: "'\(placeholder)'"))
            }
        }
        checkCombinations(entries, endpoint: node, method: methodExpression, path: pathExpression)
        // A method attribute on the struct says the method meant is another, and has its fix-it.
        if !hasDynamicMethod && !hasMethodAttribute && ["GET", "HEAD"].contains(methodName) {
            for entry in entries where [.requestBody, .bodyField].contains(entry.model.kind) {
                diagnose(entry.attribute, NamedDiagnostic(base: .bodyWithoutMethodForIt, detail: methodName))
            }
        }
        return RequestStructModel(
            typeName: structDecl.name.text,
            access: structDecl.modifiers.first { ["public", "package"].contains($0.name.text) }.map { "\($0.name.text) " } ?? "",
            method: method,
            path: path,
            options: scope.options + (scope.bodyEncoding?.options ?? []),
            properties: entries.map(\.model)
        )
    }

    /// A method given by name must be a token; a standard method spelled in lower case is sent
    /// as written, which servers do not take for the standard one.
    private mutating func checkMethod(_ expression: ExprSyntax) {
        guard let name = ScopeParser.stringLiteral(expression) else { return }
        guard LiteralChecks.isToken(name) else {
            diagnose(expression, CourierDiagnostic.invalidMethodName)
            return
        }
        let standard = name.uppercased()
        guard standard != name, APIParser.methodAttributes.contains(standard) else { return }
        let fixed = ExprSyntax(MemberAccessExprSyntax(name: .identifier(standard.lowercased())))
            .with(\.leadingTrivia, expression.leadingTrivia).with(\.trailingTrivia, expression.trailingTrivia)
        diagnostics.append(
            Diagnostic(
                node: Syntax(expression),
                message: NamedDiagnostic(base: .lowercaseMethodName, detail: "'\(name)' is not \(standard)"),
                fixIts: Fixes.replacing("use '.\(standard.lowercased())'", Syntax(expression), Syntax(fixed))
            )
        )
    }

    /// `@RequestHeader(name:)` must name a valid header, and a literal initial value must be one.
    private mutating func checkHeader(_ property: StoredProperty, marker: AttributeSyntax) {
        if let argument = StoredProperty.arguments(of: marker).first(where: { $0.label?.text == "name" }),
            let name = ScopeParser.stringLiteral(argument.expression), !name.isEmpty,
            let diagnostic = LiteralChecks.headerName(name, at: argument.expression)
        {
            diagnostics.append(diagnostic)
        }
        if let value = property.binding.initializer?.value, let text = ScopeParser.stringLiteral(value),
            let diagnostic = LiteralChecks.headerValue(text, at: value)
        {
            diagnostics.append(diagnostic)
        }
    }

    /// An optional path value compiles, and fails when it is `nil` and the request is sent.
    private mutating func checkOptionalPathValue(_ property: StoredProperty) {
        guard let type = property.type else { return }
        let (isOptional, wrapped) = TypeSpelling.unwrapped(type)
        guard isOptional else { return }
        // With `= nil` kept, the non-optional type would not compile.
        let isNilInitialized = property.binding.initializer?.value.is(NilLiteralExprSyntax.self) ?? false
        let fixed = isNilInitialized ? nil : wrapped.with(\.leadingTrivia, type.leadingTrivia).with(\.trailingTrivia, type.trailingTrivia)
        diagnostics.append(
            Diagnostic(
                node: Syntax(type),
                message: CourierDiagnostic.optionalPathParameter,
                fixIts: Fixes.replacing("make it '\(wrapped.trimmedDescription)'", Syntax(type), fixed.map(Syntax.init))
            )
        )
    }

    mutating func diagnose(_ node: some SyntaxProtocol, _ message: some DiagnosticMessage, fixIts: [FixIt] = []) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message, fixIts: fixIts))
    }
}

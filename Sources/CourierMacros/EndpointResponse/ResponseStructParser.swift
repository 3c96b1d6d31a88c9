import SwiftDiagnostics
import SwiftSyntax

/// Reads an `@EndpointResponse` struct into a ``ResponseStructModel``.
struct ResponseStructParser {
    private(set) var diagnostics: [Diagnostic] = []

    mutating func parse(_ structDecl: StructDeclSyntax, attribute node: AttributeSyntax) -> ResponseStructModel? {
        var properties: [ResponsePropertyModel] = []
        for property in StoredProperty.all(in: structDecl) where !property.isComputed {
            let binding = property.binding
            guard let (marker, kind) = property.marker(ResponseMarker.self), let type = binding.typeAnnotation?.type else {
                if binding.initializer == nil {
                    diagnostics.append(Diagnostic(node: Syntax(binding.pattern), message: CourierDiagnostic.unannotatedResponseProperty))
                }
                continue
            }
            let arguments = StoredProperty.arguments(of: marker)
            let (isOptional, wrapped) = Self.unwrapOptional(type)
            var detail: String?
            switch kind {
            case .body, .errorBody:
                if let status = arguments.first(where: { $0.label?.text == "status" }) {
                    detail = "Courier.StatusFilter.__statuses([\(status.expression.trimmedDescription)])"
                } else if let statuses = arguments.first(where: { $0.label?.text == "statuses" }) {
                    detail = "Courier.StatusFilter.__statuses(\(statuses.expression.trimmedDescription))"
                } else if let strategy = arguments.first(where: { $0.label?.text == "strategy" }) {
                    detail = "Courier.StatusFilter.__strategy(\(strategy.expression.trimmedDescription))"
                } else {
                    detail = kind == .body ? "Courier.StatusFilter.success" : "Courier.StatusFilter.failure"
                }
            case .header:
                detail = arguments.first { $0.label?.text == "name" || $0.label == nil }.flatMap { ScopeParser.stringLiteral($0.expression) }
                    ?? APIParser.headerName(property.name)
            case .statusCode, .cookies, .nested:
                break
            }
            properties.append(ResponsePropertyModel(kind: kind, name: property.name, isOptional: isOptional, wrappedType: wrapped, detail: detail))
        }
        guard diagnostics.isEmpty else { return nil }
        return ResponseStructModel(
            typeName: structDecl.name.text,
            access: structDecl.modifiers.first { ["public", "package"].contains($0.name.text) }.map { "\($0.name.text) " } ?? "",
            format: node.arguments?.as(LabeledExprListSyntax.self)?.first { $0.label?.text == "format" }?.expression.trimmedDescription,
            properties: properties
        )
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

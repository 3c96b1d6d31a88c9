import SwiftDiagnostics
import SwiftSyntax

/// Reads an `@EndpointResponse` struct into a ``ResponseStructModel``, collecting every problem
/// at once, each attached to the node it is about.
struct ResponseStructParser {
    private(set) var diagnostics: [Diagnostic] = []

    var hasErrors: Bool { diagnostics.contains { $0.diagMessage.severity == .error } }

    /// A body or error body with what the checks of combinations need.
    struct Body {
        var property: StoredProperty
        var attribute: AttributeSyntax
        var kind: ResponseMarker
        /// `nil` when the statuses are known only at run time.
        var statuses: StatusSet?
        /// Whether the statuses are the attribute's default.
        var isDefault: Bool
    }

    mutating func parse(_ structDecl: StructDeclSyntax, attribute node: AttributeSyntax) -> ResponseStructModel? {
        var propertyChecks = PropertyChecks<ResponseMarker>()
        propertyChecks.check(structDecl)
        diagnostics += propertyChecks.diagnostics
        var properties: [ResponsePropertyModel] = []
        var bodies: [Body] = []
        var seen: [ResponseMarker: AttributeSyntax] = [:]
        for property in StoredProperty.all(in: structDecl) {
            let binding = property.binding
            guard let (marker, kind) = property.marker(ResponseMarker.self) else {
                if !property.isComputed && binding.initializer == nil {
                    diagnose(binding.pattern, CourierDiagnostic.unannotatedResponseProperty)
                }
                continue
            }
            guard let type = property.type, !property.isComputed else {
                diagnose(binding.pattern, property.isComputed ? CourierDiagnostic.computedResponseProperty : .untypedResponseProperty)
                continue
            }
            if property.variable.bindingSpecifier.tokenKind == .keyword(.let), binding.initializer != nil {
                let fixed = property.variable.bindingSpecifier.with(\.tokenKind, .keyword(.var))
                diagnose(
                    property.variable.bindingSpecifier,
                    CourierDiagnostic.initializedLetResponseProperty,
                    fixIts: Fixes.replacing("make it 'var'", Syntax(property.variable.bindingSpecifier), Syntax(fixed))
                )
            }
            if [.statusCode, .cookies].contains(kind), seen.updateValue(marker, forKey: kind) != nil {
                diagnose(marker, NamedDiagnostic(base: .responsePartTwice, detail: "@\(kind.rawValue)"))
            }
            let arguments = StoredProperty.arguments(of: marker)
            let (isOptional, wrapped) = TypeSpelling.unwrapped(type)
            var detail: String?
            switch kind {
            case .body, .errorBody:
                let filters = arguments.filter { ["status", "statuses", "strategy"].contains($0.label?.text) }
                for extra in filters.dropFirst() {
                    let fixed = PropertyChecks<ResponseMarker>.removing(extra, from: marker)
                    let label = extra.label?.text ?? ""
                    diagnose(extra, CourierDiagnostic.severalStatusFilters, fixIts: Fixes.replacing("remove '\(label):'", Syntax(marker), Syntax(fixed)))
                }
                let filter = filters.first
                detail = Self.filterExpression(filter, kind: kind)
                let statuses = filter.map { $0.label?.text == "strategy" ? nil : StatusSet($0.expression) } ?? (kind == .body ? .success : .failure)
                if let filter, let statuses {
                    let invalid = StatusSet(codes: statuses.codes.filter { !(100...599).contains($0) })
                    if !invalid.codes.isEmpty { diagnose(filter.expression, NamedDiagnostic(base: .invalidStatusCode, detail: invalid.description)) }
                }
                bodies.append(Body(property: property, attribute: marker, kind: kind, statuses: statuses, isDefault: filter == nil))
            case .header:
                let nameArgument = arguments.first { $0.label?.text == "name" }?.expression
                let name = ScopeParser.stringLiteral(nameArgument)
                if let name, let nameArgument, !name.isEmpty, let diagnostic = LiteralChecks.headerName(name, at: nameArgument) {
                    diagnostics.append(diagnostic)
                }
                detail = name ?? APIParser.headerName(property.name)
            case .statusCode, .cookies, .nested:
                break
            }
            var model = ResponsePropertyModel(kind: kind, name: property.name, isOptional: isOptional, wrappedType: wrapped.trimmedDescription, detail: detail)
            model.declaration = Syntax(binding)
            properties.append(model)
        }
        checkBodies(bodies)
        guard !hasErrors else { return nil }
        return ResponseStructModel(
            typeName: structDecl.name.text,
            access: structDecl.modifiers.first { ["public", "package"].contains($0.name.text) }.map { "\($0.name.text) " } ?? "",
            format: node.arguments?.as(LabeledExprListSyntax.self)?.first { $0.label?.text == "format" }?.expression.trimmedDescription,
            properties: properties
        )
    }

    /// The `StatusFilter` that generated code passes for a body's filter argument.
    static func filterExpression(_ filter: LabeledExprSyntax?, kind: ResponseMarker) -> String {
        guard let filter else { return kind == .body ? "Courier.StatusFilter.success" : "Courier.StatusFilter.failure" }
        let expression = filter.expression.trimmedDescription
        switch filter.label?.text {
        case "status": return "Courier.StatusFilter.__statuses([\(expression)])"
        case "statuses": return "Courier.StatusFilter.__statuses(\(expression))"
        default: return "Courier.StatusFilter.__strategy(\(expression))"
        }
    }

    mutating func diagnose(_ node: some SyntaxProtocol, _ message: some DiagnosticMessage, fixIts: [FixIt] = []) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message, fixIts: fixIts))
    }
}

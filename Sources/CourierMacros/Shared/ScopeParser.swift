import SwiftDiagnostics
import SwiftParser
import SwiftSyntax

/// Reads the Courier attributes of one scope — the protocol or a function.
struct ScopeParser {
    struct Method {
        var method: String
        var path: String
        var attribute: AttributeSyntax
        var pathNode: Syntax?
    }

    struct BodyEncoding {
        enum Kind { case json, form, multipart, custom }
        var kind: Kind
        var encoder: String?
        var decoder: String?
        var attribute: AttributeSyntax

        /// What the encoding asks of every request it applies to.
        var options: [EndpointOption] {
            switch kind {
            case .json:
                return [.json(encoder: encoder, decoder: decoder)]
            case .form, .custom:
                return [encoder.map { .bodyEncoder(expression: $0) }, decoder.map { .bodyDecoder(expression: $0) }].compactMap { $0 }
            case .multipart:
                return []
            }
        }
    }

    private(set) var diagnostics: [Diagnostic] = []
    private(set) var methods: [Method] = []
    private(set) var hadInvalidMethod = false
    private(set) var options: [EndpointOption] = []
    private(set) var bodyEncoding: BodyEncoding?
    private(set) var formAndMultipartClash: AttributeSyntax?

    mutating func read(_ attributes: AttributeListSyntax) {
        var encodings: [BodyEncoding] = []
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let name = StoredProperty.courierName(of: attribute)
            let arguments = Array(attribute.arguments?.as(LabeledExprListSyntax.self) ?? [])
            func argument(_ label: String?) -> ExprSyntax? {
                arguments.first { $0.label?.text == label }?.expression
            }
            switch name {
            case _ where APIParser.methodAttributes.contains(name):
                readMethod(name, path: arguments.first?.expression, attribute: attribute)
            case "HTTP", "Http":
                guard let methodExpression = argument("method"), let method = Self.stringLiteral(methodExpression) else {
                    diagnose(argument("method").map(Syntax.init) ?? Syntax(attribute), .pathNotStringLiteral)
                    hadInvalidMethod = true
                    continue
                }
                readMethod(method, path: arguments.first?.expression, attribute: attribute)
            case "Headers":
                guard let expression = arguments.first?.expression else { continue }
                readHeaders(expression)
            case "Authorization":
                guard let expression = arguments.first?.expression else { continue }
                options.append(.authorization(expression: expression.trimmedDescription))
            case "KeyMapping":
                guard let expression = arguments.first?.expression else { continue }
                options.append(.keyMapping(expression: expression.trimmedDescription))
            case "Timeouts":
                for argument in arguments {
                    guard let label = argument.label?.text, ["connect", "idle", "total"].contains(label) else { continue }
                    options.append(.timeout(bound: label, expression: argument.expression.trimmedDescription))
                }
            case "Retry":
                guard let expression = arguments.first?.expression else { continue }
                options.append(.retry(expression: Self.qualified(expression, type: "Courier.RetryPolicy")))
            case "Cache":
                guard let expression = arguments.first?.expression else { continue }
                options.append(.cache(expression: Self.qualified(expression, type: "Courier.CachePolicy")))
            case "URLForm":
                let encoder = arguments.first.map { Self.qualified($0.expression, type: "Courier.URLFormEncoder") } ?? "Courier.URLFormEncoder()"
                encodings.append(BodyEncoding(kind: .form, encoder: encoder, decoder: nil, attribute: attribute))
            case "Multipart":
                encodings.append(BodyEncoding(kind: .multipart, encoder: nil, decoder: nil, attribute: attribute))
            case "JSON":
                encodings.append(
                    BodyEncoding(
                        kind: .json,
                        encoder: argument("encoder")?.trimmedDescription,
                        decoder: argument("decoder")?.trimmedDescription,
                        attribute: attribute
                    )
                )
            case "Coders":
                encodings.append(
                    BodyEncoding(
                        kind: .custom,
                        encoder: argument("encoder")?.trimmedDescription,
                        decoder: argument("decoder")?.trimmedDescription,
                        attribute: attribute
                    )
                )
            default:
                continue
            }
        }
        bodyEncoding = encodings.last
        let kinds = Set(encodings.map(\.kind))
        if kinds.contains(.form) && kinds.contains(.multipart) {
            formAndMultipartClash = encodings.last { $0.kind == .form || $0.kind == .multipart }?.attribute
        }
    }

    private mutating func readMethod(_ method: String, path expression: ExprSyntax?, attribute: AttributeSyntax) {
        guard let expression, let literal = expression.as(StringLiteralExprSyntax.self), let path = Self.stringLiteral(expression) else {
            diagnose(expression.map(Syntax.init) ?? Syntax(attribute), .pathNotStringLiteral)
            hadInvalidMethod = true
            return
        }
        if let diagnostic = LiteralChecks.leadingSlash(literal) { diagnostics.append(diagnostic) }
        methods.append(Method(method: method, path: path, attribute: attribute, pathNode: Syntax(literal)))
    }

    /// A dictionary literal of string literals is checked now and applied entry by entry, in
    /// order; any other expression is applied at run time, where the same checks happen.
    private mutating func readHeaders(_ expression: ExprSyntax) {
        guard let dictionary = expression.as(DictionaryExprSyntax.self) else {
            options.append(.headers(expression: expression.trimmedDescription))
            return
        }
        guard case .elements(let elements) = dictionary.content else { return }
        for element in elements {
            guard let name = Self.stringLiteral(element.key), let value = Self.stringLiteral(element.value) else {
                options.append(.headers(expression: "[\(element.trimmedDescription)]"))
                continue
            }
            let problems = LiteralChecks.headerEntry(element)
            diagnostics += problems
            if problems.isEmpty { options.append(.header(name: name, value: value)) }
        }
    }

    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": true
        default: false
        }
    }

    /// The text of a string literal without interpolation, escapes resolved as the compiler
    /// resolves them, raw strings (`#"C:\new"#`) and `\u{…}` included.
    static func stringLiteral(_ expression: ExprSyntax?) -> String? {
        expression?.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    }

    /// `.init(…)` becomes `Courier.URLFormEncoder.init(…)` so that it compiles where the type is
    /// an existential and not implied.
    static func qualified(_ expression: ExprSyntax, type: String) -> String {
        let text = expression.trimmedDescription
        return text.hasPrefix(".") ? type + text : text
    }

    private mutating func diagnose(_ node: some SyntaxProtocol, _ message: CourierDiagnostic) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message))
    }
}

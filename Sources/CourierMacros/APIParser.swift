import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Reads an `@API` protocol into an ``APIModel``, collecting every problem at once, each attached
/// to the node it is about.
struct APIParser {
    private(set) var diagnostics: [Diagnostic] = []

    static let methodAttributes: [String: String] = [
        "GET": "GET", "POST": "POST", "PUT": "PUT", "PATCH": "PATCH", "DELETE": "DELETE",
        "OPTIONS": "OPTIONS", "HEAD": "HEAD", "TRACE": "TRACE", "CONNECT": "CONNECT",
    ]
    static let queryByDefault: Set<String> = ["GET", "HEAD", "DELETE"]
    static let roleWrappers: Set<String> = ["Path", "Query", "Header", "Field", "Body"]

    mutating func parse(_ proto: ProtocolDeclSyntax) -> APIModel {
        let access = proto.modifiers.first { modifier in
            ["public", "package", "internal", "fileprivate", "private"].contains(modifier.name.text)
        }?.name.text
        let protocolEncoder = Self.bodyEncoder(in: proto.attributes)
        var endpoints: [EndpointModel] = []
        for member in proto.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self) else {
                if member.decl.is(AssociatedTypeDeclSyntax.self) || member.decl.is(TypeAliasDeclSyntax.self) { continue }
                diagnose(member.decl, .requirementNotFunction)
                continue
            }
            if var endpoint = parseEndpoint(function, protocolName: proto.name.text) {
                endpoint.bodyEncoder = Self.bodyEncoder(in: function.attributes) ?? protocolEncoder
                endpoints.append(endpoint)
            }
        }
        return APIModel(name: proto.name.text, accessModifier: access, endpoints: endpoints)
    }

    private mutating func parseEndpoint(_ function: FunctionDeclSyntax, protocolName: String) -> EndpointModel? {
        var found: [(method: String, path: String, attribute: AttributeSyntax)] = []
        var valid = true
        for element in function.attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let spelled = attribute.attributeName.trimmedDescription
            let name = spelled.hasPrefix("Courier.") ? String(spelled.dropFirst("Courier.".count)) : spelled
            let arguments = attribute.arguments?.as(LabeledExprListSyntax.self)
            if let method = Self.methodAttributes[name] {
                guard let path = stringLiteral(arguments?.first?.expression) else {
                    diagnose(arguments?.first.map(Syntax.init) ?? Syntax(attribute), .pathNotStringLiteral)
                    valid = false
                    continue
                }
                found.append((method, path, attribute))
            } else if name == "HTTP" {
                let methodArgument = arguments?.first { $0.label?.text == "method" }
                guard let path = stringLiteral(arguments?.first?.expression),
                    let method = stringLiteral(methodArgument?.expression)
                else {
                    diagnose(Syntax(attribute), .pathNotStringLiteral)
                    valid = false
                    continue
                }
                found.append((method, path, attribute))
            }
        }
        if found.count > 1 {
            for extra in found.dropFirst() { diagnose(extra.attribute, .duplicateMethodAttribute) }
            valid = false
        }
        if found.isEmpty && valid {
            diagnose(function.name, .missingMethodAttribute)
            valid = false
        }

        let effects = function.signature.effectSpecifiers
        if effects?.asyncSpecifier == nil || effects?.throwsClause == nil {
            diagnoseNotAsyncThrows(function)
            valid = false
        }

        guard let endpoint = found.first else { return nil }
        let placeholders = Self.placeholders(in: endpoint.path)
        var parameters: [ParameterModel] = []
        var bodyCount = 0
        var hasField = false
        for parameter in function.signature.parameterClause.parameters {
            let name = (parameter.secondName ?? parameter.firstName).text
            let wrapper = Self.roleWrapper(of: parameter.type)
            let role: ParameterModel.Role
            switch wrapper {
            case "Path":
                if !placeholders.contains(name) {
                    diagnose(parameter, NamedDiagnostic(base: .pathParameterWithoutPlaceholder, detail: "'\(name)' in '\(endpoint.path)'"))
                    valid = false
                }
                role = .path
            case "Query": role = .query
            case "Header": role = .header(name: Self.headerName(name))
            case "Field": role = .field
            case "Body": role = .body
            default:
                if placeholders.contains(name) {
                    role = .path
                } else if Self.queryByDefault.contains(endpoint.method) {
                    role = .query
                } else {
                    role = .field
                }
            }
            if role == .body {
                bodyCount += 1
                if bodyCount > 1 {
                    diagnose(parameter, .multipleBodies)
                    valid = false
                }
            }
            if role == .field { hasField = true }
            parameters.append(ParameterModel(name: name, key: name, role: role))
        }
        if bodyCount > 0 && hasField {
            for parameter in function.signature.parameterClause.parameters where Self.roleWrapper(of: parameter.type) == "Body" {
                diagnose(parameter, .bodyAndFields)
            }
            valid = false
        }
        for placeholder in placeholders where !parameters.contains(where: { $0.role == .path && $0.key == placeholder }) {
            diagnose(endpoint.attribute, NamedDiagnostic(base: .placeholderWithoutParameter, detail: "'\(placeholder)'"))
            valid = false
        }
        guard valid else { return nil }

        let returnType = function.signature.returnClause?.type.trimmedDescription
        var bare = function.trimmed
        bare.attributes = []
        bare.leadingTrivia = []
        bare.body = nil
        return EndpointModel(
            name: function.name.text,
            method: endpoint.method,
            path: endpoint.path,
            signature: bare.trimmedDescription,
            parameters: parameters,
            returnType: returnType == "Void" || returnType == "()" ? nil : returnType
        )
    }

    private mutating func diagnoseNotAsyncThrows(_ function: FunctionDeclSyntax) {
        var fixed = function.signature
        let hasReturn = fixed.returnClause != nil
        let throwsClause = (fixed.effectSpecifiers?.throwsClause ?? ThrowsClauseSyntax(throwsSpecifier: .keyword(.throws)))
            .with(\.leadingTrivia, .space)
            .with(\.trailingTrivia, hasReturn ? .space : [])
        fixed.parameterClause.trailingTrivia = []
        fixed.effectSpecifiers = FunctionEffectSpecifiersSyntax(
            asyncSpecifier: .keyword(.async, leadingTrivia: .space),
            throwsClause: throwsClause
        )
        diagnostics.append(
            Diagnostic(
                node: Syntax(function.signature),
                message: CourierDiagnostic.notAsyncThrows,
                fixIt: FixIt(
                    message: CourierFixIt(message: "add 'async throws'", id: "addAsyncThrows"),
                    changes: [.replace(oldNode: Syntax(function.signature), newNode: Syntax(fixed))]
                )
            )
        )
    }

    private mutating func diagnose(_ node: some SyntaxProtocol, _ message: some DiagnosticMessage) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message))
    }

    private mutating func diagnose(_ node: some SyntaxProtocol, _ message: CourierDiagnostic) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message))
    }

    private func stringLiteral(_ expression: ExprSyntax?) -> String? {
        guard let literal = expression?.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let string = segment.as(StringSegmentSyntax.self) else { return nil }
            text += string.content.text
        }
        return text
    }

    /// The encoder expression of a `@URLForm` attribute in `attributes`.
    static func bodyEncoder(in attributes: AttributeListSyntax) -> String? {
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let name = attribute.attributeName.trimmedDescription
            guard name == "URLForm" || name == "Courier.URLForm" else { continue }
            if let argument = attribute.arguments?.as(LabeledExprListSyntax.self)?.first {
                let expression = argument.expression.trimmedDescription
                return expression.hasPrefix(".") ? "Courier.URLFormEncoder" + expression : expression
            }
            return "Courier.URLFormEncoder()"
        }
        return nil
    }

    /// `Path` for `Path<String>` or `Courier.Path<String>`; `nil` for any other type.
    static func roleWrapper(of type: TypeSyntax) -> String? {
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause != nil,
            roleWrappers.contains(identifier.name.text)
        {
            return identifier.name.text
        }
        if let member = type.as(MemberTypeSyntax.self), member.baseType.trimmedDescription == "Courier",
            member.genericArgumentClause != nil, roleWrappers.contains(member.name.text)
        {
            return member.name.text
        }
        return nil
    }

    /// The names of `:name` (at a segment's start) and `{name}` placeholders, in order.
    static func placeholders(in path: String) -> [String] {
        let pathPart = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var names: [String] = []
        func isIdentifier(_ c: Character) -> Bool { c == "_" || (c.isASCII && (c.isLetter || c.isNumber)) }
        for segment in pathPart.split(separator: "/") {
            if segment.first == ":" {
                let name = segment.dropFirst().prefix(while: isIdentifier)
                if !name.isEmpty { names.append(String(name)) }
            }
            var rest = segment[...]
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                let name = rest[rest.index(after: open)..<close]
                if !name.isEmpty, name.allSatisfy(isIdentifier) { names.append(String(name)) }
                rest = rest[rest.index(after: close)...]
            }
        }
        return names
    }

    /// `customHeader` → `Custom-Header`, `requestID` → `Request-ID`: words split where case
    /// changes, each word's first letter capitalised and the rest kept as written.
    static func headerName(_ name: String) -> String {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character == "_" || character == "-" {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if character.isUppercase, !current.isEmpty {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }
}

import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Reads an annotated protocol into an ``APIModel``, collecting every problem at once, each
/// attached to the node it is about.
struct APIParser {
    private(set) var diagnostics: [Diagnostic] = []

    static let methodAttributes: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "CONNECT"]
    static let queryByDefault: Set<String> = ["GET", "HEAD", "DELETE"]
    static let roleWrappers: Set<String> = ["Path", "Query", "Header", "Field", "Body"]

    var hasErrors: Bool { diagnostics.contains { $0.diagMessage.severity == .error } }

    mutating func parse(_ proto: ProtocolDeclSyntax) -> APIModel {
        let access = proto.modifiers.first { modifier in
            ["public", "package", "internal", "fileprivate", "private"].contains(modifier.name.text)
        }?.name.text
        var protocolScope = ScopeParser()
        protocolScope.read(proto.attributes)
        diagnostics += protocolScope.diagnostics

        var endpoints: [EndpointModel] = []
        for member in proto.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self) else {
                if member.decl.is(AssociatedTypeDeclSyntax.self) || member.decl.is(TypeAliasDeclSyntax.self) { continue }
                diagnose(member.decl, .requirementNotFunction)
                continue
            }
            if let endpoint = parseEndpoint(function, protocolScope: protocolScope) {
                endpoints.append(endpoint)
            }
        }
        return APIModel(
            name: proto.name.text,
            accessModifier: access,
            documentation: Self.documentation(of: proto.leadingTrivia),
            endpoints: endpoints
        )
    }

    private mutating func parseEndpoint(_ function: FunctionDeclSyntax, protocolScope: ScopeParser) -> EndpointModel? {
        var scope = ScopeParser()
        scope.read(function.attributes)
        diagnostics += scope.diagnostics
        var valid = !scope.diagnostics.contains { $0.diagMessage.severity == .error }

        if scope.methods.count > 1 {
            for extra in scope.methods.dropFirst() { diagnose(extra.attribute, .duplicateMethodAttribute) }
            valid = false
        }
        if scope.methods.isEmpty && !scope.hadInvalidMethod {
            diagnose(function.name, .missingMethodAttribute)
            valid = false
        }

        let parameters = Array(function.signature.parameterClause.parameters)
        let completion = parseCompletion(function, parameters: parameters, valid: &valid)
        let effects = function.signature.effectSpecifiers
        // A function-typed parameter on a non-async function is a completion handler, well
        // formed or already diagnosed; only other functions must be `async throws`.
        let triedCompletion = effects?.asyncSpecifier == nil && parameters.contains { Self.functionType(of: $0.type) != nil }
        if !triedCompletion && (effects?.asyncSpecifier == nil || effects?.throwsClause == nil) {
            diagnoseNotAsyncThrows(function)
            valid = false
        }
        let returnType = function.signature.returnClause?.type
        if let returnType, !Self.isSupportedReturnType(returnType) {
            diagnose(returnType, .unsupportedReturnType)
            valid = false
        }

        let bodyEncoding = scope.bodyEncoding ?? protocolScope.bodyEncoding
        if let clash = scope.formAndMultipartClash ?? (scope.bodyEncoding == nil ? protocolScope.formAndMultipartClash : nil) {
            diagnose(clash, .formAndMultipart)
            valid = false
        }
        let isMultipart = bodyEncoding?.kind == .multipart

        guard let endpoint = scope.methods.first else { return nil }
        let placeholders = Self.placeholders(in: endpoint.path)
        var models: [ParameterModel] = []
        var bodyParameters: [FunctionParameterSyntax] = []
        var fieldParameters: [FunctionParameterSyntax] = []
        for (index, parameter) in parameters.enumerated() {
            let name = Self.identifierText(parameter.secondName ?? parameter.firstName)
            if completion != nil && index == parameters.count - 1 {
                models.append(ParameterModel(name: name, key: name, role: .completion))
                continue
            }
            let wrapper = Self.roleWrapper(of: parameter.type)
            var role: ParameterModel.Role
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
                } else if Self.queryByDefault.contains(endpoint.method) && !isMultipart {
                    role = .query
                } else {
                    role = .field
                }
            }
            if role == .field && isMultipart {
                if Self.isPart(parameter.type) {
                    role = .part
                } else {
                    diagnose(parameter.type, .nonPartInMultipart)
                    valid = false
                }
            }
            if role == .body { bodyParameters.append(parameter) }
            if role == .field || role == .part { fieldParameters.append(parameter) }
            models.append(ParameterModel(name: name, key: name, role: role))
        }
        if bodyParameters.count > 1 {
            for extra in bodyParameters.dropFirst() { diagnose(extra, .multipleBodies) }
            valid = false
        }
        if !bodyParameters.isEmpty && !fieldParameters.isEmpty {
            for field in fieldParameters { diagnose(field, .bodyAndFields) }
            valid = false
        }
        for placeholder in placeholders where !models.contains(where: { $0.role == .path && $0.key == placeholder }) {
            diagnose(endpoint.pathNode ?? Syntax(endpoint.attribute), NamedDiagnostic(base: .placeholderWithoutParameter, detail: "'\(placeholder)'"))
            valid = false
        }
        guard valid else { return nil }

        var bare = function.trimmed
        bare.attributes = []
        bare.leadingTrivia = []
        bare.body = nil
        // `Error` and `any Error` are one type; spelling it `any Error` keeps the generated code
        // free of warnings where `ExistentialAny` is on.
        let signature = Self.spellingErrorAsAny(bare)
        let returnText = returnType?.trimmedDescription
        let selector = function.name.text + "(" + parameters.map { ($0.firstName.text == "_" ? "_" : $0.firstName.text) + ":" }.joined() + ")"
        var options = protocolScope.options
        options += scope.options
        options += bodyEncoding?.options ?? []
        let throwsClause = effects?.throwsClause
        return EndpointModel(
            name: function.name.text,
            method: endpoint.method,
            path: endpoint.path,
            documentation: Self.documentation(of: function.leadingTrivia),
            signature: signature,
            parameters: models,
            returnType: returnText == "Void" || returnText == "()" ? nil : returnText,
            completion: completion,
            typedThrows: throwsClause?.type == nil ? nil : throwsClause?.trimmedDescription,
            options: options,
            selector: selector,
            key: function.name.text + "(" + parameters.map { parameter in
                (parameter.firstName.text == "_" ? "_" : parameter.firstName.text) + ": " + parameter.type.trimmedDescription
            }.joined(separator: ", ") + ")",
            parameterTypes: parameters.dropLast(completion == nil ? 0 : 1).map { $0.type.trimmedDescription },
            requestParameters: parameters.dropLast(completion == nil ? 0 : 1).map { parameter in
                Self.spellingErrorAsAny(parameter.with(\.trailingComma, nil))
            },
            requestLabels: parameters.dropLast(completion == nil ? 0 : 1).map(\.firstName.text)
        )
    }

    /// A completion handler is a last parameter of function type on a function without `async`.
    private mutating func parseCompletion(
        _ function: FunctionDeclSyntax,
        parameters: [FunctionParameterSyntax],
        valid: inout Bool
    ) -> CompletionModel? {
        guard function.signature.effectSpecifiers?.asyncSpecifier == nil else { return nil }
        let functionParameters = parameters.enumerated().filter { Self.functionType(of: $0.element.type) != nil }
        guard let candidate = functionParameters.last else { return nil }
        let parameter = candidate.element
        guard candidate.offset == parameters.count - 1,
            function.signature.returnClause == nil,
            Self.isEscaping(parameter.type),
            let type = Self.functionType(of: parameter.type),
            type.parameters.count == 1,
            let argument = type.parameters.first?.type,
            ["Void", "()"].contains(type.returnClause.type.trimmedDescription)
        else {
            diagnose(parameter, .malformedCompletionHandler)
            valid = false
            return nil
        }
        let name = Self.identifierText(parameter.secondName ?? parameter.firstName)
        let argumentText = argument.trimmedDescription
        if argumentText == "Response" || argumentText == "Courier.Response" {
            return CompletionModel(parameterName: name, kind: .response)
        }
        if let identifier = argument.as(IdentifierTypeSyntax.self), identifier.name.text == "Result",
            let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 2,
            let first = arguments.first, let last = arguments.last
        {
            let value = first.argument.trimmedDescription
            let failure = last.argument.trimmedDescription
            if ["Error", "any Error", "Swift.Error", "any Swift.Error"].contains(failure) {
                return CompletionModel(parameterName: name, kind: .result(valueType: value == "()" ? "Void" : value))
            }
        }
        diagnose(parameter, .malformedCompletionHandler)
        valid = false
        return nil
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
}

extension APIParser {
    /// The `///` lines of a declaration's leading trivia.
    static func documentation(of trivia: Trivia) -> [String] {
        trivia.compactMap { piece in
            if case .docLineComment(let text) = piece { return text }
            return nil
        }
    }

    /// An identifier's text without the backticks of a raw or escaped identifier.
    static func identifierText(_ token: TokenSyntax) -> String {
        let text = token.text
        if text.hasPrefix("`") && text.hasSuffix("`") && text.count >= 2 { return String(text.dropFirst().dropLast()) }
        return text
    }

    static func functionType(of type: TypeSyntax) -> FunctionTypeSyntax? {
        if let function = type.as(FunctionTypeSyntax.self) { return function }
        if let attributed = type.as(AttributedTypeSyntax.self) { return functionType(of: attributed.baseType) }
        return nil
    }

    static func isEscaping(_ type: TypeSyntax) -> Bool {
        guard let attributed = type.as(AttributedTypeSyntax.self) else { return false }
        return attributed.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "escaping" }
    }

    static func isPart(_ type: TypeSyntax) -> Bool {
        var text = type.trimmedDescription
        if text.hasPrefix("Field<") && text.hasSuffix(">") { text = String(text.dropFirst(6).dropLast()) }
        if text.hasSuffix("?") { text.removeLast() }
        return text == "Part" || text == "Courier.Part"
    }

    /// Types that cannot come from a response: functions, opaque and existential types,
    /// metatypes, and tuples other than `(T, Response)`.
    static func isSupportedReturnType(_ type: TypeSyntax) -> Bool {
        if type.is(FunctionTypeSyntax.self) || type.is(SomeOrAnyTypeSyntax.self) || type.is(MetatypeTypeSyntax.self) {
            return false
        }
        if let attributed = type.as(AttributedTypeSyntax.self) { return isSupportedReturnType(attributed.baseType) }
        if let optional = type.as(OptionalTypeSyntax.self) { return isSupportedReturnType(optional.wrappedType) }
        if let tuple = type.as(TupleTypeSyntax.self) {
            if tuple.elements.isEmpty { return true }
            guard tuple.elements.count == 2, let first = tuple.elements.first?.type,
                let last = tuple.elements.last?.type.trimmedDescription
            else { return false }
            return (last == "Response" || last == "Courier.Response") && isSupportedReturnType(first)
        }
        return true
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

    /// `customHeader` → `Custom-Header`, `requestID` → `Request-ID`, `xAPIKey` → `X-API-Key`:
    /// words split where case changes, each word's first letter capitalised and the rest kept as
    /// written. A key that is not a plain identifier (a raw identifier such as `x-api-key`) is
    /// used exactly as written.
    static func headerName(_ name: String) -> String {
        guard name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else { return name }
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character == "_" {
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

extension APIParser {
    /// The declaration's text with each bare `Error` type written `any Error`.
    static func spellingErrorAsAny(_ declaration: some SyntaxProtocol) -> String {
        var text = ""
        for token in declaration.tokens(viewMode: .sourceAccurate) {
            if token.tokenKind == .identifier("Error"), let type = token.parent?.as(IdentifierTypeSyntax.self),
                type.genericArgumentClause == nil, type.parent?.is(SomeOrAnyTypeSyntax.self) != true
            {
                text += token.leadingTrivia.description + "any Error" + token.trailingTrivia.description
            } else {
                text += token.description
            }
        }
        return text
    }
}

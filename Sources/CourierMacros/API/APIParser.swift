import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Reads an annotated protocol into an ``APIModel``, collecting every problem at once, each
/// attached to the node it is about.
struct APIParser {
    private(set) var diagnostics: [Diagnostic] = []

    static let methodAttributes: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "CONNECT"]
    static let queryByDefault: Set<String> = ["GET", "HEAD", "DELETE"]
    static let roleWrappers: Set<String> = ["Path", "Query", "Header", "CookieValue", "Field", "Body"]

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
            case "Header":
                // A name in backticks is the header's exactly as written (`api_key`, say).
                let escaped = (parameter.secondName ?? parameter.firstName).text.hasPrefix("`")
                role = .header(name: escaped ? name : Self.headerName(name))
            // A cookie's name is the parameter's key exactly as written: cookie names are
            // case-sensitive and have no spelling convention.
            case "CookieValue": role = .cookie(name: name)
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
        // An optional value may be left out where the client is called by its concrete type
        // (`listPets(filter: f)` for every other query `nil`); a requirement cannot say so.
        bare.signature.parameterClause.parameters = FunctionParameterListSyntax(bare.signature.parameterClause.parameters.map { parameter in
            // A path value cannot be left out, and a variadic parameter takes no default.
            let name = (parameter.secondName ?? parameter.firstName).text
            let isPath = models.contains { $0.role == .path && $0.name == name }
            guard parameter.defaultValue == nil, parameter.ellipsis == nil, !isPath, Self.isOptional(parameter.type) else { return parameter }
            var defaulted = parameter
            defaulted.type = parameter.type.trimmed
            defaulted.defaultValue = InitializerClauseSyntax(
                equal: .equalToken(leadingTrivia: .space, trailingTrivia: .space),
                value: NilLiteralExprSyntax()
            )
            return defaulted
        })
        // `Error` and `any Error` are one type; spelling it `any Error` keeps the generated code
        // free of warnings where `ExistentialAny` is on.
        let signature = Self.spellingErrorAsAny(bare)
        let returnText = returnType?.trimmedDescription
        // Labels as a call writes them: a keyword or plain name needs no backticks there (`accept:`,
        // not `` `accept`: ``); a raw identifier (`` `x-lower-case` ``) keeps them.
        let labels = parameters.map { parameter in
            let text = parameter.firstName.text
            let bare = text.filter { $0 != "`" }
            let plain = bare.first.map { !$0.isNumber } == true && bare.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            // `inout` is the one keyword a call's label must still escape.
            return plain && bare != "inout" ? String(bare) : text
        }
        let selector = function.name.text + "(" + labels.map { $0 + ":" }.joined() + ")"
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
            requestLabels: Array(labels.dropLast(completion == nil ? 0 : 1))
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

import SwiftDiagnostics
import SwiftSyntax

/// The checks of what cannot stand together in one request: two bodies, a body and fields, two
/// sources of the method, the path or the URL, two values for one placeholder or field.
extension RequestStructParser {
    mutating func checkCombinations(_ entries: [Entry], endpoint: AttributeSyntax, method: ExprSyntax?, path: ExprSyntax?) {
        func of(_ kinds: RequestMarker...) -> [Entry] { entries.filter { kinds.contains($0.model.kind) } }
        let bodies = of(.requestBody)
        // `@API`'s messages, with the struct's spelling of the fix.
        for extra in bodies.dropFirst() {
            diagnose(extra.attribute, NamedDiagnostic(base: .multipleBodies, detail: "'\(bodies[0].property.name)' is the @RequestBody"))
        }
        // `@Param` under a method set per value may become a field.
        let fields = of(.bodyField, .param)
        if let body = bodies.first {
            for field in fields {
                let detail = "'\(body.property.name)' is the @RequestBody; for Query or Header, write @QueryItem or @RequestHeader"
                diagnose(field.attribute, NamedDiagnostic(base: .bodyAndFields, detail: detail))
            }
        }
        for kind in [RequestMarker.method, .path, .absoluteURL] {
            for extra in of(kind).dropFirst() {
                diagnose(extra.attribute, NamedDiagnostic(base: .requestPartTwice, detail: "@\(kind.rawValue)"))
            }
        }
        diagnoseRepeatedKeys(of(.pathParameter), .placeholderFilledTwice)
        diagnoseRepeatedKeys(fields, .fieldNamedTwice)
        if let methodProperty = of(.method).first, let method {
            checkMethodReplaced(method, by: methodProperty, endpoint: endpoint, hasPath: path != nil)
        }
        if let url = of(.absoluteURL).first {
            // An optional URL that is nil falls back on the path, whoever sets it.
            let isRequired = url.property.type.map { !TypeSpelling.unwrapped($0).isOptional } ?? true
            if !of(.path).isEmpty {
                if isRequired { diagnose(url.attribute, CourierDiagnostic.absoluteURLAndRequestPath) }
            } else if let path, isRequired, url.property.type != nil, let method {
                // `@Endpoint("PURGE")` matches no form of the macro: a method by name needs a path.
                let fixed = method.is(StringLiteralExprSyntax.self)
                    ? nil : endpoint.with(\.arguments, .argumentList([LabeledExprSyntax(expression: method.trimmed)]))
                diagnose(path, CourierDiagnostic.pathReplacedByAbsoluteURL, fixIts: Fixes.replacing("remove the path", Syntax(endpoint), fixed.map(Syntax.init)))
            }
        }
    }

    /// The second property of a key that only one can have.
    private mutating func diagnoseRepeatedKeys(_ entries: [Entry], _ message: CourierDiagnostic) {
        var seen: Set<String> = []
        for entry in entries where !seen.insert(entry.model.key).inserted {
            diagnose(entry.attribute, NamedDiagnostic(base: message, detail: "'\(entry.model.key)'"))
        }
    }

    /// A method in `@Endpoint` beside a `@RequestHTTPMethod` is never sent. `.get` before a path
    /// is the default written out to reach the path, and says nothing. The fix-it leaves the
    /// default in `@Endpoint` and, when the property has no initial value, makes the method it.
    private mutating func checkMethodReplaced(_ method: ExprSyntax, by property: Entry, endpoint: AttributeSyntax, hasPath: Bool) {
        let isDefault = method.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "get"
        if hasPath && isDefault { return }
        let fixed: AttributeSyntax
        if hasPath, let list = endpoint.arguments?.as(LabeledExprListSyntax.self), let first = list.first {
            let get = first.with(\.expression, ExprSyntax(MemberAccessExprSyntax(name: .identifier("get"))))
            fixed = endpoint.with(\.arguments, .argumentList(LabeledExprListSyntax([get] + Array(list.dropFirst()))))
        } else {
            fixed = endpoint.with(\.leftParen, nil).with(\.arguments, nil).with(\.rightParen, nil).with(\.trailingTrivia, endpoint.trailingTrivia)
        }
        var changes: [FixIt.Change] = [.replace(oldNode: Syntax(endpoint), newNode: Syntax(fixed))]
        let binding = property.property.binding
        var message = hasPath ? "write the default '.get'" : "remove the method"
        if binding.initializer == nil, binding.accessorBlock == nil, binding.typeAnnotation != nil, method.is(MemberAccessExprSyntax.self) {
            let initializer = InitializerClauseSyntax(equal: .equalToken(leadingTrivia: .space, trailingTrivia: .space), value: method.trimmed)
            let initialized = binding.with(\.typeAnnotation, binding.typeAnnotation?.with(\.trailingTrivia, [])).with(\.initializer, initializer)
                .with(\.trailingTrivia, binding.trailingTrivia)
            changes.append(.replace(oldNode: Syntax(binding), newNode: Syntax(initialized)))
            message = "make '\(method.trimmedDescription)' the property's initial value"
        }
        diagnose(
            method,
            CourierDiagnostic.methodReplacedByProperty,
            fixIts: [FixIt(message: CourierFixIt(message: message, id: "moveMethod"), changes: changes)]
        )
    }

    /// `@GET("/path")` or `@Multipart` on the struct is read by `@API` only, and would be ignored.
    /// Returns whether there is a method attribute.
    mutating func checkStructAttributes(_ structDecl: StructDeclSyntax, endpoint: AttributeSyntax) -> Bool {
        var hasMethodAttribute = false
        for element in structDecl.attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let name = StoredProperty.courierName(of: attribute)
            let without = structDecl.attributes.filter { $0.as(AttributeSyntax.self)?.id != attribute.id }
            if name == "Multipart" {
                diagnose(attribute, CourierDiagnostic.multipartOnStruct, fixIts: removing(attribute, keeping: without, in: structDecl))
            }
            guard APIParser.methodAttributes.contains(name) || name == "HTTP" || name == "Http" else { continue }
            hasMethodAttribute = true
            let path = StoredProperty.arguments(of: attribute).first { $0.label == nil }?.expression
            guard endpoint.arguments == nil, APIParser.methodAttributes.contains(name), let path, path.is(StringLiteralExprSyntax.self) else {
                diagnose(attribute, CourierDiagnostic.methodAttributeOnStruct, fixIts: removing(attribute, keeping: without, in: structDecl))
                continue
            }
            let moved = endpoint.with(\.leftParen, .leftParenToken()).with(\.rightParen, .rightParenToken(trailingTrivia: endpoint.trailingTrivia))
                .with(\.attributeName, endpoint.attributeName.with(\.trailingTrivia, []))
                .with(
                    \.arguments,
                    .argumentList([
                        LabeledExprSyntax(expression: MemberAccessExprSyntax(name: .identifier(name.lowercased())), trailingComma: .commaToken(trailingTrivia: .space)),
                        LabeledExprSyntax(expression: path.trimmed),
                    ])
                )
            // The macro's own attribute, matched by name: `endpoint` may come from another tree.
            let list = AttributeListSyntax(
                without.map { element in
                    element.as(AttributeSyntax.self).map(StoredProperty.courierName) == "Endpoint" ? .attribute(moved) : element
                }
            )
            diagnose(
                attribute,
                CourierDiagnostic.methodAttributeOnStruct,
                fixIts: Fixes.replacing("move the method and path to @Endpoint", Syntax(structDecl.attributes), Syntax(keepingTrivia(list, of: structDecl)))
            )
        }
        return hasMethodAttribute
    }

    /// A `makeRequest()` of the struct's own would clash with the one the macro writes.
    mutating func checkOwnMakeRequest(_ structDecl: StructDeclSyntax) {
        for member in structDecl.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "makeRequest",
                function.signature.parameterClause.parameters.isEmpty
            else { continue }
            diagnose(function.name, CourierDiagnostic.ownMakeRequest)
        }
    }

    /// Members an earlier release called by other names: `intercept(request:)` is now
    /// `beforeSending(_:)`, `static var retryPolicy` the instance `var retryPolicy`. Each is
    /// diagnosed, with a fix-it to the new spelling.
    mutating func checkRenamedMembers(_ structDecl: StructDeclSyntax) {
        for member in structDecl.memberBlock.members {
            if let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "intercept",
                let parameter = function.signature.parameterClause.parameters.first,
                function.signature.parameterClause.parameters.count == 1, parameter.firstName.text == "request"
            {
                var fixed = function
                fixed.name = .identifier("beforeSending", leadingTrivia: function.name.leadingTrivia, trailingTrivia: function.name.trailingTrivia)
                var renamed = parameter
                renamed.firstName = .wildcardToken(trailingTrivia: .space)
                renamed.secondName = .identifier(parameter.secondName?.text ?? "request")
                fixed.signature.parameterClause.parameters = [renamed]
                diagnose(function.name, CourierDiagnostic.renamedIntercept, fixIts: Fixes.replacing("rename it 'beforeSending(_:)'", Syntax(function), Syntax(fixed)))
            }
            if let variable = member.decl.as(VariableDeclSyntax.self),
                let staticModifier = variable.modifiers.first(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }),
                variable.bindings.contains(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "retryPolicy" })
            {
                var fixed = variable
                fixed.modifiers = variable.modifiers.filter { $0.id != staticModifier.id }
                if fixed.modifiers.isEmpty { fixed.bindingSpecifier.leadingTrivia = variable.leadingTrivia }
                diagnose(staticModifier, CourierDiagnostic.staticRetryPolicy, fixIts: Fixes.replacing("make it an instance property", Syntax(variable), Syntax(fixed)))
            }
        }
    }

    private func removing(_ attribute: AttributeSyntax, keeping list: AttributeListSyntax, in structDecl: StructDeclSyntax) -> [FixIt] {
        let name = StoredProperty.courierName(of: attribute)
        return Fixes.replacing("remove '@\(name)'", Syntax(structDecl.attributes), Syntax(keepingTrivia(list, of: structDecl)))
    }

    /// `list` with the struct's leading trivia on its first attribute, as it was on the old first.
    private func keepingTrivia(_ list: AttributeListSyntax, of structDecl: StructDeclSyntax) -> AttributeListSyntax {
        var list = list
        list.leadingTrivia = structDecl.attributes.leadingTrivia
        return list
    }
}

import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

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

    /// Whether `type` is optional, bare (`String?`) or in a role (`Query<Int?>`).
    static func isOptional(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) { return true }
        guard roleWrapper(of: type) != nil else { return false }
        let arguments = type.as(IdentifierTypeSyntax.self)?.genericArgumentClause ?? type.as(MemberTypeSyntax.self)?.genericArgumentClause
        guard let arguments, arguments.arguments.count == 1, let argument = arguments.arguments.first else { return false }
        // Read as text: the argument's node differs between swift-syntax 600 and 601.
        return argument.argument.trimmedDescription.hasSuffix("?")
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
    /// used exactly as written, as is any key written in backticks (the caller's choice).
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

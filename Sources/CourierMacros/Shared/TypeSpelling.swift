import SwiftSyntax

/// What the macros can tell about a type from its spelling alone. A name of the user's may be a
/// typealias of anything, so a type is known to differ from another only when every name in it is
/// one of the standard types below.
enum TypeSpelling {
    static let modules: Set<String> = ["Swift", "Foundation", "Courier", "HTTPTypes"]
    static let standardTypes: Set<String> = [
        "String", "Substring", "Character", "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16",
        "UInt32", "UInt64", "Double", "Float", "Data", "Date", "URL", "UUID", "Decimal", "HTTPRequest.Method", "Cookie",
    ]

    /// The type with module prefixes dropped, spaces removed and the generic forms of optionals,
    /// arrays and dictionaries written as sugar: `Swift.Optional<Foundation.URL>` is `URL?`.
    static func normalized(_ type: TypeSyntax) -> String {
        if let optional = type.as(OptionalTypeSyntax.self) { return normalized(optional.wrappedType) + "?" }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return normalized(unwrapped.wrappedType) + "?" }
        if let array = type.as(ArrayTypeSyntax.self) { return "[" + normalized(array.element) + "]" }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return "[" + normalized(dictionary.key) + ":" + normalized(dictionary.value) + "]"
        }
        if let attributed = type.as(AttributedTypeSyntax.self) { return normalized(attributed.baseType) }
        let (name, arguments): (String, [TypeSyntax]?)
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            (name, arguments) = (identifier.name.text, identifier.genericArgumentClause.flatMap(typeArguments))
        } else if let member = type.as(MemberTypeSyntax.self) {
            let base = normalized(member.baseType)
            let qualified = modules.contains(base) ? member.name.text : base + "." + member.name.text
            (name, arguments) = (qualified, member.genericArgumentClause.flatMap(typeArguments))
        } else {
            return type.trimmedDescription.filter { !$0.isWhitespace }
        }
        guard let arguments else { return name }
        let written = arguments.map(normalized)
        switch (name, written.count) {
        case ("Optional", 1): return written[0] + "?"
        case ("Array", 1): return "[" + written[0] + "]"
        case ("Dictionary", 2): return "[" + written[0] + ":" + written[1] + "]"
        default: return name + "<" + written.joined(separator: ",") + ">"
        }
    }

    /// `(true, Int)` for `Int?`, `Optional<Int>` or `Swift.Optional<Int>`.
    static func unwrapped(_ type: TypeSyntax) -> (isOptional: Bool, wrapped: TypeSyntax) {
        if let optional = type.as(OptionalTypeSyntax.self) { return (true, optional.wrappedType) }
        if let arguments = standardGenericArguments(of: type, named: "Optional"), arguments.count == 1 {
            return (true, arguments[0])
        }
        return (false, type)
    }

    /// The type arguments of `Name<…>` or `Swift.Name<…>`, when `type` is spelled so.
    private static func standardGenericArguments(of type: TypeSyntax, named name: String) -> [TypeSyntax]? {
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == name {
            return identifier.genericArgumentClause.flatMap(typeArguments)
        }
        if let member = type.as(MemberTypeSyntax.self), member.name.text == name, normalized(member.baseType) == "Swift" {
            return member.genericArgumentClause.flatMap(typeArguments)
        }
        return nil
    }

    /// Whether every name in `type` is a standard type, so that no typealias can make it another.
    static func isFullyKnown(_ type: TypeSyntax) -> Bool {
        if type.is(FunctionTypeSyntax.self) || type.is(MetatypeTypeSyntax.self) { return true }
        if let optional = type.as(OptionalTypeSyntax.self) { return isFullyKnown(optional.wrappedType) }
        if let array = type.as(ArrayTypeSyntax.self) { return isFullyKnown(array.element) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) { return isFullyKnown(dictionary.key) && isFullyKnown(dictionary.value) }
        if let tuple = type.as(TupleTypeSyntax.self) { return tuple.elements.allSatisfy { isFullyKnown($0.type) } }
        for name in ["Optional", "Array", "Dictionary"] {
            if let arguments = standardGenericArguments(of: type, named: name) { return arguments.allSatisfy(isFullyKnown) }
        }
        return standardTypes.contains(normalized(type))
    }

    /// The type a literal initial value gives a property without a written type: `"a"` a
    /// `String`, `1` an `Int`, `1.5` a `Double`, `true` a `Bool`.
    static func literalType(of expression: ExprSyntax?) -> String? {
        guard let expression else { return nil }
        if expression.is(StringLiteralExprSyntax.self) { return "String" }
        if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        return nil
    }

    private static func typeArguments(_ clause: GenericArgumentClauseSyntax) -> [TypeSyntax]? {
        var types: [TypeSyntax] = []
        for argument in clause.arguments {
            guard let type = Syntax(argument.argument).as(TypeSyntax.self) else { return nil }
            types.append(type)
        }
        return types
    }
}

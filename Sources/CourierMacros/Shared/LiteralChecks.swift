import SwiftDiagnostics
import SwiftSyntax

/// The checks of literals that `@API` and the request structs make alike, with the same
/// messages: a path's leading `/`, header names and values, method names.
enum LiteralChecks {
    /// A warning with a fix-it that inserts `/` when the path `literal` does not start with one.
    static func leadingSlash(_ literal: StringLiteralExprSyntax) -> Diagnostic? {
        guard let path = ScopeParser.stringLiteral(ExprSyntax(literal)), !path.hasPrefix("/") else { return nil }
        // The written segments kept, escapes and all, with `/` before them.
        let slash = StringLiteralSegmentListSyntax.Element.stringSegment(StringSegmentSyntax(content: .stringSegment("/")))
        let fixed = literal.with(\.segments, StringLiteralSegmentListSyntax([slash] + Array(literal.segments)))
        return Diagnostic(
            node: Syntax(literal),
            message: CourierDiagnostic.pathWithoutLeadingSlash,
            fixIt: FixIt(
                message: CourierFixIt(message: "insert '/'", id: "insertSlash"),
                changes: [.replace(oldNode: Syntax(literal), newNode: Syntax(fixed))]
            )
        )
    }

    /// An error on `node` when `name` is not a header name (an RFC 9110 token).
    static func headerName(_ name: String, at node: some SyntaxProtocol) -> Diagnostic? {
        isToken(name) ? nil : Diagnostic(node: Syntax(node), message: CourierDiagnostic.invalidHeaderName)
    }

    /// An error on `node` when `value` holds CR, LF or NUL.
    static func headerValue(_ value: String, at node: some SyntaxProtocol) -> Diagnostic? {
        let isSafe = !value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
        return isSafe ? nil : Diagnostic(node: Syntax(node), message: CourierDiagnostic.invalidHeaderValue)
    }

    /// The problems of one `"name": "value"` entry of a header dictionary literal: an invalid name
    /// or value where it is a string literal; nothing to say about an expression.
    static func headerEntry(_ element: DictionaryElementSyntax) -> [Diagnostic] {
        [
            ScopeParser.stringLiteral(element.key).flatMap { headerName($0, at: element.key) },
            ScopeParser.stringLiteral(element.value).flatMap { headerValue($0, at: element.value) },
        ].compactMap { $0 }
    }

    /// Whether `text` is a non-empty RFC 9110 token, as header names and method names are.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy(ScopeParser.isTokenCharacter)
    }
}

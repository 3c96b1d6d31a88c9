import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacros

/// `#sourceLocation(file:line:)` of a user's declaration, placed before a generated line that
/// uses it: the compiler then reports a type that line cannot take on the user's property rather
/// than inside the expansion, where the user cannot act on it.
enum SourceLocationDirective {
    static func at(_ node: Syntax, in context: some MacroExpansionContext) -> String? {
        guard let location = context.location(of: node, at: .afterLeadingTrivia, filePathMode: .filePath),
            let file = location.file.as(StringLiteralExprSyntax.self)?.representedLiteralValue,
            let line = location.line.as(IntegerLiteralExprSyntax.self)?.representedLiteralValue
        else { return nil }
        // A struct another macro wrote has no file the user can open, and its buffer's name is
        // not one `#sourceLocation` may name.
        let name = file.split(separator: "/").last.map(String.init) ?? file
        if file.hasPrefix("@__swiftmacro") || name.hasPrefix("@__swiftmacro") { return nil }
        // `#sourceLocation` takes no raw string, as swift-syntax renders a path with `\` or `"`,
        // and takes an escaped one as written (`C:\\src`, doubled): such a path gets no directive.
        let literal = APIGenerator.literal(file)
        guard literal == "\"" + file + "\"" else { return nil }
        return "#sourceLocation(file: \(literal), line: \(line))"
    }
}

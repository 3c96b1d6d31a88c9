import SwiftSyntax
import SwiftSyntaxMacros

/// `#sourceLocation(file:line:)` of a user's declaration, placed before a generated line that
/// uses it: the compiler then reports a type that line cannot take on the user's property rather
/// than inside the expansion, where the user cannot act on it.
enum SourceLocationDirective {
    static func at(_ node: Syntax, in context: some MacroExpansionContext) -> String? {
        guard let location = context.location(of: node, at: .afterLeadingTrivia, filePathMode: .filePath) else { return nil }
        return "#sourceLocation(file: \(location.file.trimmedDescription), line: \(location.line.trimmedDescription))"
    }
}

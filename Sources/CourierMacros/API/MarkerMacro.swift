import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// The attributes that only mark a declaration for another macro to read — `@GET` … `@HTTP` for
/// `@API`, `@PathParameter` … for `@Endpoint`, `@ResponseBody` … for `@EndpointResponse` — and
/// generate nothing themselves.
struct MarkerMacro: PeerMacro {
    /// Generates nothing: the macro that reads the attribute does the work.
    static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

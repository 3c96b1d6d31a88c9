import Foundation
import OpenAPIKit

/// The credentials an operation's security requirement asks for, as parameters of its function.
///
/// A bearer, basic or other HTTP scheme, OAuth 2 and OpenID Connect are one parameter,
/// `authorization: Header<AuthorizationHeader>` (pass `.bearer(token)` or `.basic(…)`); an API key
/// is a `Header<String>` or `Query<String>` named after its scheme and sent under the key the
/// document names. The parameters come last, optional when the requirement is. Of several
/// alternative requirements the first is generated, with a warning.
extension SourceWriter {
    struct Credential {
        var argument: String
        var doc: String
    }

    mutating func credentials(for operation: OpenAPI.Operation, pointer: String, taken: inout Set<String>) -> [Credential] {
        let ownRequirement = operation.security != nil
        let alternatives = operation.security ?? document.security
        let requirementPointer = ownRequirement ? pointer + "/security" : "#/security"
        let optional = alternatives.contains { $0.isEmpty }
        let required = alternatives.filter { !$0.isEmpty }
        guard let first = required.first else { return [] }
        // Alternatives that each fill only the Authorization header are one parameter, which
        // takes whichever the caller has: `.bearer(token)` or `.basic(…)`.
        let authorizationOnly = required.map { requirement in
            requirement.keys.compactMap { reference in document.components[reference].map { (reference.name ?? "credential", $0) } }
        }
        if required.count > 1, authorizationOnly.allSatisfy({ $0.count == 1 && Self.fillsAuthorization($0[0].1) }) {
            var name = "authorization"
            while taken.contains(name) { name += "Credential" }
            taken.insert(name)
            let choices = authorizationOnly.map { Self.authorizationChoice(schemeName: $0[0].0, $0[0].1) }.joined(separator: " or ")
            return [Credential(argument: "\(name): Header<AuthorizationHeader\(optional ? "?" : "")>", doc: "/// - Parameter \(name): \(choices)")]
        }
        if required.count > 1 {
            warn(requirementPointer, "of \(required.count) alternative security requirements the first is generated: \(first.keys.compactMap(\.name).sorted().joined(separator: ", "))")
        }
        var result: [Credential] = []
        var hasAuthorization = false
        for reference in first.keys.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
            let schemeName = reference.name ?? "credential"
            let schemePointer = "#/components/securitySchemes/\(schemeName.pointerToken)"
            guard let scheme = document.components[reference] else {
                warn(requirementPointer, "the security scheme `\(schemeName)` is not in the document's components: no parameter is generated for it")
                continue
            }
            let description = scheme.description.map { ": " + Self.oneLine($0) } ?? ""
            func add(_ swiftName: String, _ declaration: (String) -> String, doc: String) {
                var name = swiftName
                while taken.contains(name.replacingOccurrences(of: "`", with: "")) { name += "Credential" }
                taken.insert(name.replacingOccurrences(of: "`", with: ""))
                result.append(Credential(argument: declaration(name), doc: "/// - Parameter \(name.replacingOccurrences(of: "`", with: "")): \(doc)"))
            }
            let wrap = { (type: String) in optional ? type + "?" : type }
            switch scheme.type {
            case .apiKey(name: let key, location: .header):
                add(Naming.identifier(schemeName), { "\($0) \(Naming.escapedIdentifier(key)): Header<\(wrap("String"))>" }, doc: "the `\(key)` header (`\(schemeName)`\(description))")
            case .apiKey(name: let key, location: .query):
                add(Naming.identifier(schemeName), { "\($0) \(Naming.rawIdentifier(key)): Query<\(wrap("String"))>" }, doc: "the `\(key)` query item (`\(schemeName)`\(description))")
            case .apiKey(name: let key, location: .cookie):
                warn(schemePointer, "the API key `\(key)` goes in a cookie: set it with the provider's cookie jar")
            case .http, .oauth2, .openIdConnect:
                guard !hasAuthorization else {
                    warn(schemePointer, "`\(schemeName)` also needs the Authorization header, which another scheme of the requirement fills")
                    continue
                }
                hasAuthorization = true
                add("authorization", { "\($0): Header<\(wrap("AuthorizationHeader"))>" }, doc: Self.authorizationChoice(schemeName: schemeName, scheme))
            case .mutualTLS:
                warn(schemePointer, "mutual TLS is the transport's to configure: no parameter is generated for `\(schemeName)`")
            }
        }
        return result
    }

    static func fillsAuthorization(_ scheme: OpenAPI.SecurityScheme) -> Bool {
        switch scheme.type {
        case .http, .oauth2, .openIdConnect: true
        case .apiKey, .mutualTLS: false
        }
    }

    /// `` `.bearer(token)` (`bearerAuth`: A reader's token) ``: what to pass for `scheme`.
    static func authorizationChoice(schemeName: String, _ scheme: OpenAPI.SecurityScheme) -> String {
        let value = switch scheme.type {
        case .http(scheme: let name, bearerFormat: _) where name.lowercased() == "basic": "`.basic(username:password:)`"
        case .http(scheme: let name, bearerFormat: _) where name.lowercased() != "bearer": "`.custom(\"\(name) …\")`"
        default: "`.bearer(token)`"
        }
        return "\(value) (`\(schemeName)`\(scheme.description.map { ": " + oneLine($0) } ?? ""))"
    }
}

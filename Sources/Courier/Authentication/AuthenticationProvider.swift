/// Adds credentials to a request: `.bearer(token)`, `.basic(username:password:)`, or your own.
///
/// Declare your own as static members so that call sites read well:
///
/// ```swift
/// extension AuthenticationProvider {
///     static func apiKey(_ key: String) -> AuthenticationProvider {
///         AuthenticationProvider { request in request.setHeader("X-API-Key", value: key) }
///     }
/// }
/// ```
public struct AuthenticationProvider: Sendable {
    let authenticate: @Sendable (inout RequestBuilder) -> Void

    /// An authentication that changes the request as `authenticate` does.
    public init(_ authenticate: @escaping @Sendable (inout RequestBuilder) -> Void) {
        self.authenticate = authenticate
    }

    /// `Authorization: Bearer <token>`.
    public static func bearer(_ token: String) -> AuthenticationProvider {
        AuthenticationProvider { $0.setAuthorization(.bearer(token)) }
    }

    /// `Authorization: Basic <base64(username:password)>`.
    public static func basic(username: String, password: String) -> AuthenticationProvider {
        AuthenticationProvider { $0.setAuthorization(.basic(username: username, password: password)) }
    }
}

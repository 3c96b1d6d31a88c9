/// What a request carries to prove who sends it: `.bearer(token)`, `.basic(username:password:)`, or your own.
///
/// Declare your own as static members so that call sites read well:
///
/// ```swift
/// extension Credentials {
///     static func apiKey(_ key: String) -> Credentials {
///         Credentials { request in request.setHeader("X-API-Key", value: key) }
///     }
/// }
/// ```
public struct Credentials: Sendable {
    let authenticate: @Sendable (inout RequestBuilder) -> Void

    /// Credentials that change the request as `authenticate` does.
    public init(_ authenticate: @escaping @Sendable (inout RequestBuilder) -> Void) {
        self.authenticate = authenticate
    }

    /// `Authorization: Bearer <token>`.
    public static func bearer(_ token: String) -> Credentials {
        Credentials { $0.setAuthorization(.bearer(token)) }
    }

    /// `Authorization: Basic <base64(username:password)>`.
    public static func basic(username: String, password: String) -> Credentials {
        Credentials { $0.setAuthorization(.basic(username: username, password: password)) }
    }
}

/// The earlier name of ``Credentials``, kept for one release: "provider" now names only
/// ``Provider``.
@available(*, deprecated, renamed: "Credentials")
public typealias AuthenticationProvider = Credentials

import Foundation

/// The value of an `Authorization` header: bearer token, basic credentials, or any scheme.
///
/// ```swift
/// @API
/// @Authorization(.bearer("<token>"))
/// protocol Users { … }
///
/// request.setAuthorization(.basic(username: "ada", password: "P@ssw0rd"))
/// ```
public struct AuthorizationHeader: Sendable, Hashable {
    /// The header's value as sent; it goes on a request through `setAuthorization(_:)` or
    /// `@Authorization`, and `description` redacts it.
    let value: String

    /// `Bearer <token>`.
    public static func bearer(_ token: String) -> AuthorizationHeader {
        AuthorizationHeader(value: "Bearer \(token)")
    }

    /// `Basic <base64(username:password)>`.
    public static func basic(username: String, password: String) -> AuthorizationHeader {
        AuthorizationHeader(value: "Basic " + Data("\(username):\(password)".utf8).base64EncodedString())
    }

    /// Any other scheme, sent exactly as given (`Token abc`, `AWS4-HMAC-SHA256 …`).
    public static func custom(_ value: String) -> AuthorizationHeader {
        AuthorizationHeader(value: value)
    }

    init(value: String) { self.value = value }
}

extension AuthorizationHeader: CustomStringConvertible {
    /// The scheme only; the credentials never reach a log through `description`.
    public var description: String {
        let scheme = value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        return "AuthorizationHeader(\(scheme) <redacted>)"
    }
}

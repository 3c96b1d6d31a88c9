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
public struct AuthorizationHeader: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The header's value as sent.
    public let value: String

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

    public init(value: String) { self.value = value }
    public init(stringLiteral value: String) { self.value = value }
}

extension AuthorizationHeader: CustomStringConvertible {
    /// The scheme only; the credentials never reach a log through `description`.
    public var description: String {
        let scheme = value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        return "AuthorizationHeader(\(scheme) <redacted>)"
    }
}

extension RequestBuilder {
    /// Sets the `Authorization` header, replacing an earlier one.
    public mutating func setAuthorization(_ authorization: AuthorizationHeader) {
        appendHeader("Authorization", authorization.value, replacing: true)
    }

    /// Adds headers from a dictionary literal, as `@Headers` does; each replaces an earlier header
    /// of the same name. Names and values are checked as for ``addHeader(_:value:)``.
    public mutating func setHeaders(_ headers: KeyValuePairs<String, String>) {
        for (name, value) in headers { appendHeader(name, value, replacing: true) }
    }

    /// Sets headers from a dictionary, in name order so that requests are the same every time;
    /// `nil` sets none.
    public mutating func setHeaders(_ headers: [String: String]?) {
        for (name, value) in (headers ?? [:]).sorted(by: { $0.key < $1.key }) { appendHeader(name, value, replacing: true) }
    }

    /// Adds query items from a dictionary, in key order, keys and values as given; `nil` adds
    /// none.
    public mutating func addQueryItems(_ items: [String: String]?) {
        for (key, value) in (items ?? [:]).sorted(by: { $0.key < $1.key }) { addRawQuery(key, value: value) }
    }
}

import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Whether and how far Courier follows redirects.
///
/// Courier follows redirects itself on every transport (URLSession and AsyncHTTPClient are
/// configured not to), so that the same rules hold everywhere: `Authorization`, `Cookie`,
/// `Proxy-Authorization` and the headers you name never go to another origin (scheme, host or
/// port); 303 — and 301/302 after a `POST` — continue as `GET` without the body; 307 and 308
/// keep the method and send the body again when it can be read again.
///
/// A redirect from `https` to plain `http` is refused with ``CourierError/Kind/insecureRedirect``
/// unless the policy allows it; when allowed, credentials, the headers named secret and cookies
/// marked `Secure` still never travel in the clear.
public struct RedirectPolicy: Sendable {
    let limit: Int
    let secrets: Set<HTTPField.Name>
    /// Whether a redirect from `https` to `http` is followed.
    public let allowsInsecureRedirects: Bool

    /// Follow up to `limit` redirects (10 unless given), dropping `secrets` as well as the
    /// credential headers when the origin changes; `.follow(limit: 0)` returns redirect responses
    /// as they are. `allowingInsecure` follows redirects from `https` to plain `http`, which are
    /// refused otherwise.
    public static func follow(limit: Int = 10, dropping secrets: Set<HTTPField.Name> = [], allowingInsecure: Bool = false) -> RedirectPolicy {
        RedirectPolicy(limit: max(0, limit), secrets: secrets, allowsInsecureRedirects: allowingInsecure)
    }

    /// Follow no redirect: a `3xx` response is returned as it is, for you to read its `Location`.
    /// The same as `.follow(limit: 0)`.
    public static var none: RedirectPolicy { .follow(limit: 0) }
}

/// Scheme, host and port, with the default port filled in.
struct Origin: Equatable {
    let scheme: String
    let host: String
    let port: Int

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }
}

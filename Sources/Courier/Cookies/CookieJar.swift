import Foundation
import HTTPTypes

/// Keeps the cookies servers set and sends them back, on any transport.
///
/// Courier's default URLSession transport neither stores nor sends cookies, and AsyncHTTPClient
/// has no cookie store: state is explicit. Add a jar to a provider to keep cookies:
///
/// ```swift
/// let jar = CookieJar()
/// let provider = Provider(baseURL: "https://api.example.com").with(cookieJar: jar)
/// ```
///
/// Cookies are kept per host and sent to paths under their `Path`; `Secure` cookies only over
/// https; `Max-Age=0` or an `Expires` in the past removes one.
public final class CookieJar: Sendable {
    struct Stored: Sendable {
        var cookie: Cookie
        var host: String
        var path: String
        var expires: Date?
    }

    private let stored = Locked<[Stored]>([])

    /// An empty jar, filled by the `Set-Cookie` headers of responses once a provider uses it.
    public init() {}

    /// The cookies kept now.
    public var cookies: [Cookie] { stored.withLock { $0.map(\.cookie) } }

    /// Forgets every cookie, as signing out does; providers that share the jar send none until
    /// a server sets one again.
    public func removeAll() {
        stored.withLock { $0.removeAll() }
    }

    /// Keeps the cookies of `response`, received from `url`.
    func receive(_ setCookies: [String], from url: URL, now: Date = Date()) {
        guard let host = url.host?.lowercased() else { return }
        let cookies = setCookies.flatMap(Response.splitJoinedSetCookie).compactMap(Cookie.init(setCookie:))
        stored.withLock { stored in
            for cookie in cookies {
                let path = cookie.attributes.first { $0.key.lowercased() == "path" }?.value ?? "/"
                var expires: Date?
                if let maxAge = cookie.attributes.first(where: { $0.key.lowercased() == "max-age" }).flatMap({ Int($0.value) }) {
                    expires = now.addingTimeInterval(TimeInterval(maxAge))
                } else if let text = cookie.attributes.first(where: { $0.key.lowercased() == "expires" })?.value {
                    expires = Date(headerValue: text)
                }
                stored.removeAll { $0.cookie.name == cookie.name && $0.host == host && $0.path == path }
                if let expires, expires <= now { continue }
                stored.append(Stored(cookie: cookie, host: host, path: path, expires: expires))
            }
        }
    }

    /// The `Cookie` header value for a request to `url`, or `nil` when no cookie applies.
    func header(for url: URL, now: Date = Date()) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let path = url.path.isEmpty ? "/" : url.path
        let secure = url.scheme?.lowercased() == "https"
        let matching = stored.withLock { stored in
            stored.removeAll { $0.expires.map { $0 <= now } ?? false }
            return stored.filter { entry in
                entry.host == host && path.hasPrefix(entry.path) && (!entry.cookie.isSecure || secure)
            }
        }
        guard !matching.isEmpty else { return nil }
        return matching.map { "\($0.cookie.name)=\($0.cookie.value)" }.joined(separator: "; ")
    }
}

extension Provider {
    /// A copy that keeps cookies in `jar` and sends them back. The jar sees every hop of a
    /// redirect, as a browser's does: a `Set-Cookie` on a `302` after a login is kept and sent
    /// to the page it leads to.
    public func with(cookieJar jar: CookieJar) -> Provider {
        var copy = self
        copy.cookieJar = jar
        return copy
    }
}

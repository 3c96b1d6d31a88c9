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
public struct RedirectPolicy: Sendable {
    let limit: Int
    let secrets: Set<HTTPField.Name>

    /// Follow up to `limit` redirects (10 unless given), dropping `secrets` as well as the
    /// credential headers when the origin changes.
    public static func follow(limit: Int = 10, dropping secrets: Set<HTTPField.Name> = []) -> RedirectPolicy {
        RedirectPolicy(limit: max(0, limit), secrets: secrets)
    }

    /// Return redirect responses as they are.
    public static let none = RedirectPolicy(limit: 0, secrets: [])
}

/// Wraps a transport to follow redirects under a ``RedirectPolicy``.
struct RedirectingTransport: ClientTransport {
    let base: any ClientTransport
    let policy: RedirectPolicy

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let first = try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
        guard Self.isRedirect(first.0) else { return first }
        return try await follow(first, request: request, body: body, baseURL: baseURL, operationID: operationID)
    }

    /// Whether `response` is a redirect Courier may follow.
    static func isRedirect(_ response: HTTPResponse) -> Bool {
        redirectStatuses.contains(response.status.code)
    }

    /// Follows the redirect `first` answered to `request`, hop by hop, within the policy.
    func follow(
        _ first: (HTTPResponse, HTTPBody?),
        request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        var body = body
        let originalBaseURL = baseURL
        var baseURL = baseURL
        var hops = 0
        var answer: (HTTPResponse, HTTPBody?)? = first
        while true {
            let (response, responseBody): (HTTPResponse, HTTPBody?)
            if let pending = answer {
                (response, responseBody) = pending
                answer = nil
            } else {
                (response, responseBody) = try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
            }
            guard Self.redirectStatuses.contains(response.status.code), hops < policy.limit,
                let location = response.headerFields[.location],
                let current = URL(string: baseURL.absoluteString + (request.path ?? "/")),
                let target = URL(string: location, relativeTo: current)?.absoluteURL,
                let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = target.host
            else {
                return (response, responseBody)
            }
            let code = response.status.code
            let changesToGet = code == 303 || ((code == 301 || code == 302) && request.method == .post)
            if !changesToGet, let body, body.iterationBehavior == .single {
                // The body cannot be sent again; the redirect is returned as it is.
                return (response, responseBody)
            }
            hops += 1
            let port = target.port.map { ":\($0)" } ?? ""
            guard let nextBase = URL(string: "\(scheme)://\(host)\(port)") else { return (response, responseBody) }
            let components = URLComponents(url: target, resolvingAgainstBaseURL: false)
            var next = request
            next.path = (components?.percentEncodedPath.isEmpty == false ? components?.percentEncodedPath ?? "/" : "/")
                + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
            if changesToGet {
                if request.method != .head { next.method = .get }
                body = nil
                next.headerFields[.contentType] = nil
                next.headerFields[.contentLength] = nil
            }
            if Origin(nextBase) != Origin(originalBaseURL) {
                for name in HTTPField.Name.alwaysSecret.union(policy.secrets) { next.headerFields[name] = nil }
            }
            request = next
            baseURL = nextBase
        }
    }
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

import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The transport as the pipeline calls it: each hop sent with the cookie jar's cookies, its
/// `Set-Cookie` headers kept, and redirects followed under the ``RedirectPolicy``.
///
/// 303 — and 301/302 after `POST` — continue as `GET` without the body; 307 and 308 keep method
/// and body when the body can be read again, and otherwise return the redirect as it is. When
/// the origin changes, credentials and the policy's secret headers are dropped.
struct TransportStep: Sendable {
    let base: any ClientTransport
    let redirects: RedirectPolicy
    let cookieJar: CookieJar?
    /// Headers removed on a redirect to another origin, beside the policy's and the ones always
    /// removed.
    var secrets: Set<HTTPField.Name> = []

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    func send(_ request: HTTPRequest, body: RequestPayload?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        try await send(request, body: body, baseURL: baseURL) { request, body, baseURL in
            try await base.send(request, body: body?.httpBody, baseURL: baseURL, operationID: operationID)
        }
    }

    /// The same, each hop through `exchange` in place of the transport's `send`: for a transport
    /// that hands a response body over in another form.
    func send<Body>(
        _ request: HTTPRequest,
        body: RequestPayload?,
        baseURL: URL,
        exchange: (HTTPRequest, RequestPayload?, URL) async throws -> (HTTPResponse, Body)
    ) async throws -> (HTTPResponse, Body) {
        let first = try await hop(request, body: body, baseURL: baseURL, exchange)
        guard redirects.limit > 0, Self.redirectStatuses.contains(first.0.status.code) else { return first }
        return try await follow(first, request: request, body: body, baseURL: baseURL, exchange)
    }

    /// One exchange with the transport, with the jar's cookies added and its answer's kept.
    private func hop<Body>(
        _ request: HTTPRequest,
        body: RequestPayload?,
        baseURL: URL,
        _ exchange: (HTTPRequest, RequestPayload?, URL) async throws -> (HTTPResponse, Body)
    ) async throws -> (HTTPResponse, Body) {
        guard let cookieJar else { return try await exchange(request, body, baseURL) }
        var request = request
        let url = URL(string: baseURL.absoluteString + (request.path ?? "/")) ?? baseURL
        if let header = cookieJar.header(for: url) {
            // Beside the request's own; every transport sends all `Cookie` fields as one header.
            request.headerFields.append(HTTPField(name: .cookie, value: header))
        }
        let answer = try await exchange(request, body, baseURL)
        cookieJar.receive(answer.0.headerFields[values: .setCookie], from: url)
        return answer
    }

    /// Follows the redirect `first` answered to `request`, hop by hop, within the policy.
    private func follow<Body>(
        _ first: (HTTPResponse, Body),
        request: HTTPRequest,
        body: RequestPayload?,
        baseURL: URL,
        _ exchange: (HTTPRequest, RequestPayload?, URL) async throws -> (HTTPResponse, Body)
    ) async throws -> (HTTPResponse, Body) {
        var request = request
        var body = body
        let originalBaseURL = baseURL
        var baseURL = baseURL
        var hops = 0
        var answer: (HTTPResponse, Body)? = first
        while true {
            let (response, responseBody): (HTTPResponse, Body)
            if let pending = answer {
                (response, responseBody) = pending
                answer = nil
            } else {
                (response, responseBody) = try await hop(request, body: body, baseURL: baseURL, exchange)
            }
            guard Self.redirectStatuses.contains(response.status.code), hops < redirects.limit,
                let location = response.headerFields[.location],
                let current = URL(string: baseURL.absoluteString + (request.path ?? "/")),
                let target = URL(string: location, relativeTo: current)?.absoluteURL,
                let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = target.authorityHost
            else {
                return (response, responseBody)
            }
            let code = response.status.code
            let changesToGet = code == 303 || ((code == 301 || code == 302) && request.method == .post)
            if !changesToGet, let body, !body.isReplayable {
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
                for name in HTTPField.Name.alwaysSecret.union(redirects.secrets).union(secrets) { next.headerFields[name] = nil }
            }
            request = next
            baseURL = nextBase
        }
    }
}

import CourierWire
import Foundation
import HTTPTypes

extension TransportStep {
    /// Whether `status` redirects: 301, 302, 303, 307 or 308. A switch, not a set: it is asked
    /// on every response, and a global set costs a lazy initialisation check and a hash each time.
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// Follows the redirect `first` answered to `request`, hop by hop, within the policy.
    @inline(never)  // a frame of its own: an exchange without a redirect does not hold this one's
    nonisolated(nonsending) func follow(_ first: (ResponseHead, Reply.Body), of request: RawRequest) async throws -> (ResponseHead, Reply.Body) {
        var request = request
        let originalBaseURL = request.baseURL
        var hops = 0
        var answer: (ResponseHead, Reply.Body)? = first
        while true {
            let (response, responseBody): (ResponseHead, Reply.Body)
            if let pending = answer {
                (response, responseBody) = pending
                answer = nil
            } else {
                (response, responseBody) = try await hop(request)
            }
            guard Self.isRedirect(response.status.code), hops < redirects.limit,
                let location = response.headerFields[.location],
                let current = request.url,
                let target = URL(string: location, relativeTo: current)?.absoluteURL,
                let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = target.authorityHost
            else {
                if hops > 0 { redirectTarget?.withLock { $0 = request.cacheKey } }
                return (response, responseBody)
            }
            if scheme == "http", current.scheme?.lowercased() == "https", !redirects.allowsInsecureRedirects {
                throw CourierError(.insecureRedirect(from: current.absoluteString, to: target.absoluteString))
            }
            let code = response.status.code
            let changesToGet = code == 303 || ((code == 301 || code == 302) && request.method == .post)
            if !changesToGet, let body = request.payload, !body.isReplayable {
                // The body cannot be sent again; the redirect is returned as it is.
                if hops > 0 { redirectTarget?.withLock { $0 = request.cacheKey } }
                return (response, responseBody)
            }
            hops += 1
            let port = target.port.map { ":\($0)" } ?? ""
            guard let nextBase = URL(string: "\(scheme)://\(host)\(port)") else {
                if hops > 1 { redirectTarget?.withLock { $0 = request.cacheKey } }
                return (response, responseBody)
            }
            let components = URLComponents(url: target, resolvingAgainstBaseURL: false)
            var next = request
            next.path = (components?.percentEncodedPath.isEmpty == false ? components?.percentEncodedPath ?? "/" : "/")
                + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
            if changesToGet {
                if request.method != .head { next.method = .get }
                next.payload = nil
                next.headers[.contentType] = nil
                next.headers[.contentLength] = nil
            }
            next.baseURL = nextBase
            if Origin(nextBase) != Origin(originalBaseURL) {
                for name in HTTPField.Name.alwaysSecret.union(redirects.secrets).union(secrets) { next.headers[name] = nil }
            }
            request = next
        }
    }
}

extension RawRequest {
    /// The target as sent, without parsing it into a URL: the key under which a cache stores
    /// the responses to it.
    var cacheKey: String { baseURL.absoluteString + path }
}

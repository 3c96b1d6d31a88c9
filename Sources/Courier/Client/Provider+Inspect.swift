public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// The request exactly as ``send(_:)->Value`` would hand it to the middleware chain — modifiers,
    /// authentication, `Accept` and the request's hooks applied — without sending it. The head
    /// carries the scheme, the authority and the full path, base path included.
    public func httpRequest<T>(for request: Request<T>) async throws(CourierError) -> (HTTPRequest, Data?) {
        let call = try prepare(request)
        var raw = call.request
        let body: Data?
        do {
            body = try await raw.collectBody()
        } catch {
            throw CourierError(.encoding(what: "the body", error), operationID: raw.operationID, request: raw)
        }
        var head = raw.head
        let parts = BaseURLParts.of(raw, template: call.pathTemplate, provider: baseParts)
        head.scheme = parts.scheme
        head.authority = parts.authority
        head.path = parts.path + raw.path
        return (head, body)
    }

    /// The request as a Foundation `URLRequest`, timeout included, for sending with your own
    /// stack.
    public func urlRequest<T>(for request: Request<T>) async throws(CourierError) -> URLRequest {
        let (head, body) = try await httpRequest(for: request)
        guard let scheme = head.scheme, let authority = head.authority,
            let url = URL(string: "\(scheme)://\(authority)\(head.path ?? "/")")
        else {
            throw CourierError(.invalidBaseURL(baseURL?.absoluteString ?? ""), operationID: request.operationID)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = head.method.rawValue
        urlRequest.setHeaderFields(head.headerFields)
        urlRequest.httpBody = body
        if let timeout = request.builder.timeouts.total ?? request.builder.timeouts.idle {
            urlRequest.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        }
        return urlRequest
    }
}

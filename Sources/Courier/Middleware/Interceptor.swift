import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Runs around a request: sees the request as it will be sent and the response as it arrived,
/// and may change either. Call `next` to continue.
public protocol Interceptor: Sendable {
    /// Handles `req`, calling `next` to send it on.
    func intercept(req: RawRequest, next: Next) async throws -> Response
}

extension Interceptor {
    /// Sends a request on to the rest of the chain.
    public typealias Next = @Sendable (RawRequest) async throws -> Response
}

struct ClosureInterceptor: Interceptor {
    let action: @Sendable (RawRequest, Next) async throws -> Response
    func intercept(req: RawRequest, next: Next) async throws -> Response { try await action(req, next) }
}

/// Runs an ``Interceptor`` as a `ClientMiddleware`, reading the response body into memory so
/// that the interceptor sees a complete ``Response`` — unless the request streams its response,
/// which then passes through unread.
struct InterceptorMiddleware: ClientMiddleware, StageNamed {
    let interceptor: any Interceptor
    let stageName: String

    init(_ interceptor: any Interceptor, name: String? = nil) {
        self.interceptor = interceptor
        self.stageName = name ?? "interceptor " + String(reflecting: type(of: interceptor))
    }

    /// Used when the interceptor runs in another client's chain, where nothing streams.
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await intercept(RawRequest(head: request, body: body, baseURL: baseURL, operationID: operationID), bodyLimit: Provider.defaultBodyLimit, next: next)
    }

    func intercept(
        _ raw: RawRequest,
        bodyLimit: Int,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let response = try await interceptor.intercept(req: raw) { req in
            let (head, body) = try await next(req.head, req.body, req.baseURL)
            // Whether the response streams is the pipeline's decision, not the interceptor's.
            guard !raw.streamsResponse else {
                var response = Response(head: head, body: nil, request: req)
                response.passthroughBody = body
                return response
            }
            let data = try await collectResponseBody(body, limit: bodyLimit, status: head.status)
            return Response(head: head, body: data, request: req)
        }
        if response.body == nil, let passthrough = response.passthroughBody { return (response.head, passthrough) }
        return (response.head, response.body.map { HTTPBody($0) })
    }
}
